// Benchmark: what Resolute adds per turn on top of the raw LLM call. Baseline: pi-ai's
// streamSimple against the simulator, N prompts back to back. Measured: the same N prompts
// through AgentSession (guarded stream, classification, SQLite history with synchronous=FULL,
// decision log). Both in the same run, same simulator (chunk delay 0). Prints ms/turn, the ratio
// and the RSS growth. Run: npx tsx bench/session-overhead.ts [turns]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { streamSimple, type Api, type Model } from '@mariozechner/pi-ai';
import { AppServices } from '../src/main/node/app-services';
import { SimulatorServer } from '../src/main/node/simulator/simulator-server';

const TURNS = Number(process.argv[2] ?? 200);

async function baseline(url: string): Promise<number> {
  const model: Model<Api> = {
    id: 'resolute-sim-1',
    name: 'sim',
    api: 'openai-completions',
    provider: 'simulator',
    baseUrl: url,
    reasoning: false,
    input: ['text'],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 8192,
    maxTokens: 1024,
  };
  const started = performance.now();
  for (let i = 0; i < TURNS; i += 1) {
    const stream = streamSimple(
      model,
      { messages: [{ role: 'user', content: `hello ${i}`, timestamp: Date.now() }] },
      { apiKey: 'k', maxRetries: 0 },
    );
    const message = await stream.result();
    if (message.stopReason !== 'stop') throw new Error(message.errorMessage);
  }
  return (performance.now() - started) / TURNS;
}

async function throughSession(dataDir: string): Promise<{ msPerTurn: number; rssGrowthMb: number }> {
  const services = await AppServices.create({ host: 'rpc', version: 'bench', dataDir, publish: () => undefined });
  // Same zero-delay simulator as the baseline: replace the app's own with one without chunk pauses.
  await services.simulator!.stop();
  const fast = new SimulatorServer({ chunkDelayMs: 0 });
  const url = await fast.start();
  const useFast = () => services.session.setModel({ ...services.session.model, baseUrl: url });
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  for (let i = 0; i < TURNS; i += 1) {
    // A new conversation every 10 turns keeps the context (and the request size) like the baseline's.
    // A new session points the agent at the active model again (the stopped simulator's URL): re-point it.
    if (i % 10 === 0) {
      services.domains.session.newSession();
      useFast();
    }
    await services.session.prompt(`hello ${i}`);
  }
  const msPerTurn = (performance.now() - started) / TURNS;
  const rssGrowthMb = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
  await fast.stop();
  await services.dispose();
  return { msPerTurn, rssGrowthMb };
}

const dir = mkdtempSync(join(tmpdir(), 'resolute-bench-'));
const simulator = new SimulatorServer({ chunkDelayMs: 0 });
const url = await simulator.start();
await baseline(url); // warm-up
const base = await baseline(url);
const session = await throughSession(dir);
await simulator.stop();
rmSync(dir, { recursive: true, force: true });
console.log(`turns: ${TURNS}`);
console.log(`baseline (pi-ai streamSimple → simulator): ${base.toFixed(2)} ms/turn`);
console.log(`AgentSession (+ history, classification, decision log): ${session.msPerTurn.toFixed(2)} ms/turn`);
console.log(`ratio: ${(session.msPerTurn / base).toFixed(2)}×`);
console.log(`RSS growth over the session run: ${session.rssGrowthMb.toFixed(1)} MB`);

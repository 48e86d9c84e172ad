// Benchmark: memory over a long session. Our RPC mode against the simulator (no chunk pauses):
// its resident set idle a second after start-up (pi-ai and the provider SDK are loaded by then, in
// the background), after the first prompt, and after 500 prompts in one session (100 with --quick), read from /proc: a
// second after the last answer, and again once the app has sat idle long enough for V8's memory
// reducer to give back the young generation it grew while busy (bench/README.md, "Memory").
import { readFileSync } from 'node:fs';
import { SimulatorServer } from '../src/main/node/simulator/simulator-server';
import type { RpcClient } from '../test/fixtures/rpc-client';
import { PI_CLI, piClient, QUICK, report, resoluteClient, tempDir } from './lib';

const PROMPTS = QUICK ? 100 : 500;

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB$/m);
  if (!line) throw new Error('no VmRSS');
  return Number(line[1]) / 1024;
}

const settle = (ms = 1000) => new Promise((resolve) => setTimeout(resolve, ms));

/** V8 shrinks its heap some seconds after allocation stops; poll until RSS is back near `floor`, at most 40 s. */
async function idleRssMb(pid: number, floor: number): Promise<{ mb: number; afterS: number }> {
  let mb = rssMb(pid);
  for (let s = 1; s <= 40 && mb > floor * 1.05; s += 1) {
    await settle();
    mb = rssMb(pid);
    if (mb <= floor * 1.05) return { mb, afterS: s };
  }
  return { mb, afterS: 40 };
}

interface Readings {
  idle: number;
  warm: number;
  after: number;
  idleAfter: { mb: number; afterS: number };
}

/** A client's RSS idle, after its first prompt, after PROMPTS, and once idle again. */
async function readings(client: RpcClient): Promise<Readings> {
  try {
    await client.start();
    await settle();
    const pid = client.pid as number;
    const idle = rssMb(pid);
    await client.prompt('the first prompt');
    await client.waitForIdle();
    await settle();
    const warm = rssMb(pid);
    for (let i = 1; i < PROMPTS; i += 1) {
      await client.prompt(`prompt ${i}: what does the retry policy say about a 503?`);
      await client.waitForIdle();
    }
    await settle();
    const after = rssMb(pid);
    return { idle, warm, after, idleAfter: await idleRssMb(pid, warm) };
  } finally {
    await client.stop();
  }
}

export async function memoryBench(): Promise<void> {
  if (process.platform !== 'linux') return console.log('memory: /proc is Linux only, skipped');
  const simulator = new SimulatorServer({ chunkDelayMs: 0 });
  const url = await simulator.start();
  try {
    const ours = await readings(
      resoluteClient(tempDir('memory'), ['--provider', 'openai-compatible', '--base-url', url, '--model', 'sim']),
    );
    report({
      figure: `RSS after ${PROMPTS} prompts in one session`,
      value: ours.after,
      unit: 'MB',
      baseline: { name: 'idle after start-up', value: ours.idle },
      target: '≤ 1.3×',
    });
    report({
      figure: `RSS after ${PROMPTS} prompts in one session`,
      value: ours.after,
      unit: 'MB',
      baseline: { name: 'after the first prompt (pi-ai and the SDK loaded)', value: ours.warm },
    });
    report({
      figure: `RSS after ${PROMPTS} prompts, idle again (${ours.idleAfter.afterS} s later)`,
      value: ours.idleAfter.mb,
      unit: 'MB',
      baseline: { name: 'idle after start-up', value: ours.idle },
      note: `${(ours.idleAfter.mb / ours.warm).toFixed(2)}× the RSS after the first prompt`,
    });
    if (!PI_CLI) return console.log('memory: pi not installed, no side-by-side row');
    const pi = await readings(piClient(`${url}`, { baseDelayMs: 2000, maxRetries: 3 }));
    report({
      figure: `RSS after ${PROMPTS} prompts in one session`,
      value: ours.after,
      unit: 'MB',
      baseline: { name: 'pi 0.73.1, same prompts', value: pi.after },
      note: `idle: ours ${ours.idle.toFixed(1)} MB, pi ${pi.idle.toFixed(1)} MB; idle again: ours ${ours.idleAfter.mb.toFixed(1)} MB, pi ${pi.idleAfter.mb.toFixed(1)} MB`,
    });
  } finally {
    await simulator.stop();
  }
}

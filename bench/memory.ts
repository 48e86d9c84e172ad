// Benchmark: memory over a long session. Our RPC mode against the simulator (no chunk pauses):
// its resident set idle after start-up, after the first prompt (pi-ai and the provider SDK are
// loaded then), and after 500 prompts in one session (100 with --quick), read from /proc.
import { readFileSync } from 'node:fs';
import { SimulatorServer } from '../src/main/node/simulator/simulator-server';
import { QUICK, report, resoluteClient, tempDir } from './lib';

const PROMPTS = QUICK ? 100 : 500;

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB$/m);
  if (!line) throw new Error('no VmRSS');
  return Number(line[1]) / 1024;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 1000));

export async function memoryBench(): Promise<void> {
  if (process.platform !== 'linux') return console.log('memory: /proc is Linux only, skipped');
  const simulator = new SimulatorServer({ chunkDelayMs: 0 });
  const url = await simulator.start();
  const client = resoluteClient(tempDir('memory'), [
    '--provider',
    'openai-compatible',
    '--base-url',
    url,
    '--model',
    'sim',
  ]);
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
    report({
      figure: `RSS after ${PROMPTS} prompts in one session`,
      value: after,
      unit: 'MB',
      baseline: { name: 'idle after start-up', value: idle },
      target: '≤ 1.3×',
    });
    report({
      figure: `RSS after ${PROMPTS} prompts in one session`,
      value: after,
      unit: 'MB',
      baseline: { name: 'after the first prompt (pi-ai and the SDK loaded)', value: warm },
    });
  } finally {
    await client.stop();
    await simulator.stop();
  }
}

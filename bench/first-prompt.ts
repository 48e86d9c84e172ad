// Benchmark: the first prompt after start-up, prompt → request. The RPC mode is started, left idle
// for a moment (a person reads the window before typing), then prompted; measured from the prompt
// command's send to the request's arrival at the simulator, which runs in this process
// (lib.ts watchExchanges). Baselines in the same run, rounds taking turns: the same app with its
// pi-ai warm-up turned off (RESOLUTE_BENCH_COLD_PROMPT=1, the behaviour before it), and pi.
import { setTimeout as sleep } from 'node:timers/promises';
import { RpcClient } from '../test/fixtures/rpc-client';
import { SimulatorServer } from '../src/main/node/simulator/simulator-server';
import { CLI, median, PI_CLI, piClient, QUICK, report, tempDir, watchExchanges, type Exchange } from './lib';

const ROUNDS = QUICK ? 3 : 7;
/** How long the app is left idle after its first answer: a person takes longer to type a prompt. */
const IDLE_MS = 1500;

function ours(url: string, cold: boolean): RpcClient {
  const args = ['--data-dir', tempDir('first-prompt'), '--provider', 'openai-compatible', '--base-url', url];
  const env: Record<string, string> = cold ? { RESOLUTE_BENCH_COLD_PROMPT: '1' } : {};
  return new RpcClient({ cliPath: CLI, args: [...args, '--model', 'resolute-sim-1'], env });
}

async function promptToRequest(client: RpcClient, exchanges: Exchange[]): Promise<number> {
  await client.start();
  await sleep(IDLE_MS);
  const first = exchanges.length;
  const sentAt = performance.now();
  await client.prompt('the first prompt');
  await client.waitForIdle();
  await client.stop();
  const request = exchanges[first];
  if (!request) throw new Error('the prompt reached no server');
  return request.startedAt - sentAt;
}

export async function firstPromptBench(): Promise<void> {
  const exchanges = watchExchanges();
  const simulator = new SimulatorServer({ chunkDelayMs: 1 });
  const url = await simulator.start();
  const makers: [string, () => RpcClient][] = [
    ['warm', () => ours(url, false)],
    ['cold', () => ours(url, true)],
    ...(PI_CLI
      ? ([['pi', () => piClient(url, { baseDelayMs: 2000, maxRetries: 3 })]] as [string, () => RpcClient][])
      : []),
  ];
  const times = new Map<string, number[]>(makers.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS; round += 1)
    for (const [name, make] of makers) times.get(name)!.push(await promptToRequest(make(), exchanges));
  await simulator.stop();
  const [warm, cold] = [median(times.get('warm')!), median(times.get('cold')!)];
  const figure = 'first prompt → request, RPC mode';
  const pi = times.get('pi');
  report({ figure, value: warm, unit: 'ms', baseline: { name: 'without the warm-up (before)', value: cold } });
  if (pi)
    report({ figure, value: warm, unit: 'ms', baseline: { name: 'pi 0.73.1', value: median(pi) }, target: '≤ 1.5×' });
  else console.log('(pi not installed: no pi row, see bench/README.md)');
}

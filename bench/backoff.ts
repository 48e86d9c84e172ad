// Benchmark: does the retry wait keep time? Measured at the HTTP server (the simulator runs in
// this process and notes when each exchange ends and the next arrives): overshoot = the retried
// request's arrival − the failed exchange's end − the wait the client announced (auto_retry_start
// delayMs). Our own scenario (503 then an answer) and, side by side with pi through the same
// RpcClient, a connection reset mid-stream.
import type { RpcClient } from '../src/main/modes/rpc/rpc-client';
import { SimulatorServer } from '../src/main/node/simulator/simulator-server';
import { median, PI_CLI, piClient, QUICK, report, resoluteClient, tempDir, watchExchanges, type Exchange } from './lib';

const ROUNDS = QUICK ? 4 : 12;
/**
 * The announced wait. The policy's shortest default wait is 2 s; 300 ms keeps the run short and
 * still leaves the bookkeeping (now done after the timer is armed) room to finish inside the wait.
 * RESOLUTE_BENCH_RETRY_WAIT_MS sets another.
 */
const DELAY_MS = Number(process.env.RESOLUTE_BENCH_RETRY_WAIT_MS ?? 300);

/** Prompt `rounds` times through a fault script; each round's overshoot in ms. */
async function overshoots(
  client: RpcClient,
  simulator: SimulatorServer,
  exchanges: Exchange[],
  script: string,
): Promise<number[]> {
  const delays: number[] = [];
  client.onEvent((event) => {
    if (event.type === 'auto_retry_start') delays.push(event.delayMs);
  });
  const result: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    simulator.setScript(script);
    const first = exchanges.length;
    await client.prompt(`round ${round}: tell me about the weather`);
    await client.waitForIdle();
    const [failed, retried] = exchanges.slice(first, first + 2);
    if (!failed?.endedAt || !retried || delays.length !== round + 1) throw new Error(`round ${round}: no retry seen`);
    result.push(retried.startedAt - failed.endedAt - delays[round]);
  }
  return result;
}

function ourClient(url: string): RpcClient {
  return resoluteClient(tempDir('backoff'), [
    '--provider',
    'openai-compatible',
    '--base-url',
    url,
    '--model',
    'resolute-sim-1',
    '--set',
    `retry.baseDelayMs=${DELAY_MS}`,
    '--set',
    'retry.jitterMaxMs=0',
  ]);
}

async function measure(makeClient: (url: string) => RpcClient, script: string): Promise<number[]> {
  const exchanges = watchExchanges();
  const simulator = new SimulatorServer({ chunkDelayMs: 1 });
  const url = await simulator.start();
  const client = makeClient(url);
  try {
    await client.start();
    return await overshoots(client, simulator, exchanges, script);
  } finally {
    await client.stop();
    await simulator.stop();
  }
}

export async function backoffBench(): Promise<void> {
  const ours503 = await measure(ourClient, '503,ok');
  report({
    figure: `retry overshoot at the HTTP server, 503 then an answer (${ROUNDS} rounds, wait ${DELAY_MS} ms), median`,
    value: median(ours503),
    unit: 'ms',
    target: '≤ 3 ms',
    note: `range ${Math.min(...ours503).toFixed(1)}–${Math.max(...ours503).toFixed(1)} ms`,
  });
  const oursReset = await measure(ourClient, 'reset,ok');
  if (!PI_CLI) {
    report({
      figure: 'retry overshoot, reset mid-stream',
      value: median(oursReset),
      unit: 'ms',
      note: 'pi not installed',
    });
    return;
  }
  const piReset = await measure((url) => piClient(url, { baseDelayMs: DELAY_MS, maxRetries: 3 }), 'reset,ok');
  report({
    figure: `retry overshoot at the HTTP server, connection reset mid-stream (${ROUNDS} rounds), median`,
    value: median(oursReset),
    unit: 'ms',
    baseline: { name: 'pi 0.73.1, same scenario', value: median(piReset) },
    target: '≤ 0.8×',
  });
}

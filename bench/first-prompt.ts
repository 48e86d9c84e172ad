// Benchmark: the first prompt after start-up, prompt → request. The RPC mode is started and prompted
// the moment its first get_state answer arrives (an editor or a script), and again 250 ms after it;
// measured from the prompt command's send to the request's arrival at the simulator, which runs in
// this process (lib.ts watchExchanges). The browser mode in Chromium: a fresh app and page each
// round, measured from the send button's click in the page (its epoch clock) to the request.
// Baselines in the same run, rounds taking turns: pi at the same moments (RPC: it has no window),
// and the same app with its pi-ai warm-up turned off (RESOLUTE_BENCH_COLD_PROMPT=1).
import { setTimeout as sleep } from 'node:timers/promises';
import { RpcClient } from '../test/fixtures/rpc-client';
import { SimulatorServer } from '../src/main/node/simulator/simulator-server';
import type { Browser } from '@playwright/test';
import { launchChromium, startWebApp } from './browser';
import {
  CLI,
  median,
  PI_CLI,
  piClient,
  QUICK,
  report,
  simulatorArgs,
  tempDir,
  watchExchanges,
  type Exchange,
} from './lib';

const ROUNDS = QUICK ? 3 : 7;
/** When the RPC prompt is sent after the first get_state answer: at once, and a moment later. */
const DELAYS_MS = [0, 250];
/** The browser mode's wait before its click: a person reads the window before typing. */
const IDLE_MS = 1500;

function ours(url: string, cold: boolean): RpcClient {
  const env: Record<string, string> = cold ? { RESOLUTE_BENCH_COLD_PROMPT: '1' } : {};
  return new RpcClient({
    cliPath: CLI,
    args: ['--data-dir', tempDir('first-prompt'), ...simulatorArgs(url)],
    env,
    requestTimeoutMs: 120_000,
  });
}

async function promptToRequest(client: RpcClient, exchanges: Exchange[], delayMs: number): Promise<number> {
  await client.start();
  if (delayMs > 0) await sleep(delayMs);
  const first = exchanges.length;
  const sentAt = performance.now();
  await client.prompt('the first prompt');
  await client.waitForIdle();
  await client.stop();
  const request = exchanges[first];
  if (!request) throw new Error('the prompt reached no server');
  return request.startedAt - sentAt;
}

/** Notes, in the page, when the send button is clicked (capture phase: before the app's handler). */
const WATCH_SEND = `document.addEventListener('click', (event) => {
  if (event.target instanceof Element && event.target.closest('[data-testid="send-button"]'))
    globalThis.sentAt = performance.timeOrigin + performance.now();
}, true)`;

async function browserPromptToRequest(browser: Browser, url: string, exchanges: Exchange[]): Promise<number> {
  const app = await startWebApp(tempDir('first-prompt-web'), simulatorArgs(url));
  const page = await browser.newPage();
  try {
    await page.goto(app.url);
    await page.getByTestId('chat-input').fill('the first prompt');
    await sleep(IDLE_MS);
    await page.evaluate(WATCH_SEND);
    const first = exchanges.length;
    await page.getByTestId('send-button').click();
    while (!exchanges[first]) await sleep(5);
    const sentAt = (await page.evaluate('globalThis.sentAt')) as number;
    return performance.timeOrigin + exchanges[first].startedAt - sentAt;
  } finally {
    await page.close();
    app.stop();
  }
}

export async function firstPromptBench(): Promise<void> {
  const exchanges = watchExchanges();
  const simulator = new SimulatorServer({ chunkDelayMs: 1 });
  const url = await simulator.start();
  const makers: [string, () => RpcClient][] = [
    ['ours', () => ours(url, false)],
    ['cold', () => ours(url, true)],
    ...(PI_CLI
      ? ([['pi', () => piClient(url, { baseDelayMs: 2000, maxRetries: 3 })]] as [string, () => RpcClient][])
      : []),
  ];
  const times = new Map<string, number[]>();
  const browser = await launchChromium();
  const web: number[] = [];
  try {
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const delayMs of DELAYS_MS)
        for (const [name, make] of makers) {
          const key = `${name}@${delayMs}`;
          times.set(key, [...(times.get(key) ?? []), await promptToRequest(make(), exchanges, delayMs)]);
        }
      web.push(await browserPromptToRequest(browser, url, exchanges));
    }
  } finally {
    await browser.close();
    await simulator.stop();
  }
  const at = (name: string, delayMs: number): number | undefined => {
    const values = times.get(`${name}@${delayMs}`);
    return values ? median(values) : undefined;
  };
  for (const delayMs of DELAYS_MS) {
    const figure = `first prompt → request, RPC mode, sent ${delayMs === 0 ? 'at once' : `${delayMs} ms`} after the first get_state answer`;
    const value = at('ours', delayMs)!;
    const pi = at('pi', delayMs);
    if (pi !== undefined)
      report({ figure, value, unit: 'ms', baseline: { name: 'pi 0.73.1, same moment', value: pi }, target: '≤ 1.5×' });
    else console.log('(pi not installed: no pi row, see bench/README.md)');
    report({ figure, value, unit: 'ms', baseline: { name: 'without the warm-up', value: at('cold', delayMs)! } });
  }
  const webFigure = 'first prompt → request, browser mode (click → request)';
  const pi = at('pi', 0);
  if (pi !== undefined)
    report({
      figure: webFigure,
      value: median(web),
      unit: 'ms',
      baseline: { name: 'pi 0.73.1 (RPC, at once)', value: pi },
      target: '≤ 1.5×',
    });
  else report({ figure: webFigure, value: median(web), unit: 'ms' });
}

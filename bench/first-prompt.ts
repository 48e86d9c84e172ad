// Benchmark: the first prompt after start-up, prompt → request. The RPC mode is started, left idle
// for a moment (a person reads the window before typing), then prompted; measured from the prompt
// command's send to the request's arrival at the simulator, which runs in this process
// (lib.ts watchExchanges). The browser mode the same way in Chromium: a fresh app and page each
// round, measured from the send button's click in the page (its epoch clock) to the request.
// Baselines in the same run, rounds taking turns: the same app with its pi-ai warm-up turned off
// (RESOLUTE_BENCH_COLD_PROMPT=1, the behaviour before it), and pi (RPC: it has no window).
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
/** How long the app is left idle after its first answer: a person takes longer to type a prompt. */
const IDLE_MS = 1500;

function ours(url: string, cold: boolean): RpcClient {
  const env: Record<string, string> = cold ? { RESOLUTE_BENCH_COLD_PROMPT: '1' } : {};
  return new RpcClient({ cliPath: CLI, args: ['--data-dir', tempDir('first-prompt'), ...simulatorArgs(url)], env });
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
    ['warm', () => ours(url, false)],
    ['cold', () => ours(url, true)],
    ...(PI_CLI
      ? ([['pi', () => piClient(url, { baseDelayMs: 2000, maxRetries: 3 })]] as [string, () => RpcClient][])
      : []),
  ];
  const times = new Map<string, number[]>(makers.map(([name]) => [name, []]));
  const browser = await launchChromium();
  const web: number[] = [];
  try {
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [name, make] of makers) times.get(name)!.push(await promptToRequest(make(), exchanges));
      web.push(await browserPromptToRequest(browser, url, exchanges));
    }
  } finally {
    await browser.close();
    await simulator.stop();
  }
  const [warm, cold] = [median(times.get('warm')!), median(times.get('cold')!)];
  const figure = 'first prompt → request, RPC mode';
  const pi = times.get('pi');
  report({ figure, value: warm, unit: 'ms', baseline: { name: 'without the warm-up (before)', value: cold } });
  if (pi)
    report({ figure, value: warm, unit: 'ms', baseline: { name: 'pi 0.73.1', value: median(pi) }, target: '≤ 1.5×' });
  else console.log('(pi not installed: no pi row, see bench/README.md)');
  const webFigure = 'first prompt → request, browser mode (click → request)';
  if (pi)
    report({
      figure: webFigure,
      value: median(web),
      unit: 'ms',
      baseline: { name: 'pi 0.73.1 (RPC)', value: median(pi) },
      target: '≤ 1.5×',
    });
  else report({ figure: webFigure, value: median(web), unit: 'ms' });
}

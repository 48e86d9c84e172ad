// Benchmark: the first window of the browser mode, loaded cold (a fresh browser context, no cache)
// in Chromium: the time from navigation to a usable composer (noted in the page at the first frame
// where the input is visible and the connection strip is gone, so Playwright's own round trips are
// not counted), the JavaScript loaded before it (as sent and as decoded) and the longest main-thread
// task of the load (bench/browser.ts, by CPU and wall time from a DevTools trace). With
// RESOLUTE_BENCH_BEFORE_CLI=<another out/main/cli.js> that build is measured in the same run, rounds
// taking turns. Targets: longest task ≤ 50 ms CPU, JS before the composer ≤ 600 kB, composer ready
// ≤ 0.8× before.
// Run: npx tsx bench/first-window.ts [rounds]
import type { Browser } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { rebuildIfStale } from '../scripts/ensure-build.js';
import { TASK_CATEGORIES, launchChromium, mainThreadTasks, startWebApp, summarise } from './browser';
import { CLI, median } from './lib';

const ROUNDS = Number(process.argv[2] ?? 5);

interface Load {
  readyMs: number;
  jsSentKb: number;
  jsDecodedKb: number;
  longestCpuMs: number;
  longestWallMs: number;
}

/**
 * Notes in the page the first frame where a person could type and send: the input laid out and
 * visible, and no connection strip ("Connecting…") above it. Polled each frame from the start, as
 * the page's own scripts have not run yet.
 */
const WATCH_COMPOSER = `(() => {
  globalThis.composerReadyAt = null;
  const look = () => {
    const input = document.querySelector('[data-testid="chat-input"]');
    const box = input?.getBoundingClientRect();
    const isUsable = box && box.width > 0 && box.height > 0 && getComputedStyle(input).visibility !== 'hidden'
      && !document.querySelector('[data-testid="connection-status"]');
    if (isUsable) globalThis.composerReadyAt = performance.now();
    else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})()`;

async function load(browser: Browser, cli: string): Promise<Load> {
  const dataDir = mkdtempSync(join(tmpdir(), 'resolute-bench-window-'));
  const app = await startWebApp(dataDir, [], cli);
  const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
  const page = await context.newPage();
  try {
    await page.addInitScript(WATCH_COMPOSER);
    await browser.startTracing(page, { categories: TASK_CATEGORIES });
    await page.goto(app.url);
    await page.waitForFunction(() => (globalThis as { composerReadyAt?: number | null }).composerReadyAt != null);
    // In the page: its clock at the composer's arrival, and the scripts that had loaded by then.
    const seen = await page.evaluate(`(() => {
      const readyMs = globalThis.composerReadyAt;
      const js = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.js') && e.responseEnd <= readyMs);
      return { readyMs, sent: js.reduce((n, e) => n + e.transferSize, 0), decoded: js.reduce((n, e) => n + e.decodedBodySize, 0) };
    })()`);
    const { readyMs, sent, decoded } = seen as { readyMs: number; sent: number; decoded: number };
    const tasks = summarise(mainThreadTasks(await browser.stopTracing()));
    return {
      readyMs,
      jsSentKb: sent / 1024,
      jsDecodedKb: decoded / 1024,
      longestCpuMs: tasks.longestCpuMs,
      longestWallMs: tasks.longestWallMs,
    };
  } finally {
    await context.close();
    app.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const medianOf = (loads: Load[], key: keyof Load): number => median(loads.map((l) => l[key]));
const row = (name: string, loads: Load[]): string =>
  `${name.padEnd(7)} composer ready ${medianOf(loads, 'readyMs').toFixed(0).padStart(5)} ms  ` +
  `JS before it ${medianOf(loads, 'jsDecodedKb').toFixed(0)} kB (${medianOf(loads, 'jsSentKb').toFixed(0)} kB sent)  ` +
  `longest load task ${medianOf(loads, 'longestCpuMs').toFixed(1)} ms CPU (${medianOf(loads, 'longestWallMs').toFixed(1)} wall)`;

rebuildIfStale();
const before = process.env.RESOLUTE_BENCH_BEFORE_CLI;
const browser = await launchChromium();
try {
  const builds: [string, string][] = [['this', CLI], ...(before ? ([['before', before]] as [string, string][]) : [])];
  const loads = new Map<string, Load[]>(builds.map(([name]) => [name, []]));
  for (const [, cli] of builds) await load(browser, cli); // warm-up: the OS's file cache
  for (let round = 0; round < ROUNDS; round += 1)
    for (const [name, cli] of builds) loads.get(name)!.push(await load(browser, cli));
  console.log(
    `The first window, cold, medians of ${ROUNDS}; machine: ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(1)}`,
  );
  for (const [name] of builds) console.log(row(name, loads.get(name)!));
  if (before) {
    const ratio = medianOf(loads.get('this')!, 'readyMs') / medianOf(loads.get('before')!, 'readyMs');
    console.log(`composer ready, this / before: ${ratio.toFixed(2)}× (target ≤ 0.8×)`);
  } else console.log('(RESOLUTE_BENCH_BEFORE_CLI=<another build> adds its row as the same-run baseline)');
} finally {
  await browser.close();
}

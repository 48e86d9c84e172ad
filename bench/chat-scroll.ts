// Benchmark: scrolling a 10,000-turn session from its newest turn to its first must keep every
// main-thread task under 50 ms (the renderer virtualises long transcripts). The session is written
// through the history store's API into a fresh data folder (test/fixtures/long-session.ts: Markdown
// answers of every kind, a retry chain now and then), the browser mode starts on it, Chromium opens
// it in the chat, and the mouse wheel scrolls it to the top in steps of WHEEL_PX, one per frame
// (older pages are fetched on the way where the session is paged). The trace is taken in spans of
// a few hundred steps, so no single trace grows too large to read; bench/browser.ts reads the
// tasks. Also measured: opening the session (the click to its newest answer on screen), and the
// rows in the DOM at the top. The baseline, in the same run: the same open and scroll over a
// 100-turn session (below the size where the transcript virtualises: every row rendered).
// Run: npm run bench:chat-scroll [-- exchanges]   (an exchange is 2 turns, 3 when it retried;
// the default 4,950 exchanges are 10,098 turns). RESOLUTE_BENCH_CLI=<other out/main/cli.js> measures another build.
import type { Browser, Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { rebuildIfStale } from '../scripts/ensure-build.js';
import { turnsOf, writeLongSession } from '../test/fixtures/long-session';
import {
  LONG_TASK_MS,
  TASK_CATEGORIES,
  launchChromium,
  longTasksSince,
  mainThreadTasks,
  startWebApp,
  summarise,
  watchLongTasks,
  type Task,
  type TaskSummary,
} from './browser';

const EXCHANGES = Number(process.argv[2] ?? 4950);
const BASELINE_EXCHANGES = 50;
/** One wheel step, px: a fast flick of a trackpad moves about this much in a frame. */
const WHEEL_PX = 1200;
/** Wheel steps per trace span. */
const SPAN_STEPS = 250;
/** Wheel steps between two looks for the first turn. */
const CHECK_STEPS = 10;
/** Give up after this many steps at the top without reaching the first turn (a page that never comes). */
const STUCK_STEPS = 400;

interface Run extends TaskSummary {
  turns: number;
  openMs: number;
  open: TaskSummary;
  steps: number;
  scrollMs: number;
  longTasks: number;
  rowsAtTop: number;
}

/** The page's own clock for frames (this file is type-checked without the DOM's types). */
type FrameClock = { requestAnimationFrame: (callback: () => void) => number };

/** Two frames: the wheel's scroll has been painted, and whatever it mounted has rendered. */
const nextFrame = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const clock = globalThis as unknown as FrameClock;
        clock.requestAnimationFrame(() => clock.requestAnimationFrame(() => resolve()));
      }),
  );

/** At the very top, with the first turn shown and nothing older left to fetch. */
async function atFirstTurn(page: Page): Promise<boolean> {
  const top = await page.getByTestId('transcript').evaluate((el) => el.scrollTop);
  const first = (await page.getByTestId('message-user').first().textContent()) ?? '';
  return top === 0 && (await page.getByTestId('load-older').count()) === 0 && first.includes('question 1:');
}

/** Wheel up until the first turn shows; the tasks of every span of the trace. */
async function scrollToTop(browser: Browser, page: Page): Promise<{ tasks: Task[]; steps: number }> {
  const tasks: Task[] = [];
  let steps = 0;
  let stuck = 0;
  for (let done = false; !done;) {
    await browser.startTracing(page, { categories: TASK_CATEGORIES });
    for (let i = 0; i < SPAN_STEPS && !done; i += 1, steps += 1) {
      await page.mouse.wheel(0, -WHEEL_PX);
      await nextFrame(page);
      if (steps % CHECK_STEPS === CHECK_STEPS - 1) done = await atFirstTurn(page);
    }
    tasks.push(...mainThreadTasks(await browser.stopTracing()));
    const top = await page.getByTestId('transcript').evaluate((el) => el.scrollTop);
    stuck = top === 0 ? stuck + SPAN_STEPS : 0;
    if (!done && stuck >= STUCK_STEPS) throw new Error(`stuck at the top after ${steps} steps without the first turn`);
  }
  return { tasks, steps };
}

async function measure(browser: Browser, exchanges: number): Promise<Run> {
  const dataDir = mkdtempSync(join(tmpdir(), 'resolute-bench-scroll-'));
  writeLongSession(join(dataDir, 'history.db'), exchanges);
  const app = await startWebApp(dataDir);
  const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
  try {
    await watchLongTasks(page);
    await page.goto(app.url);
    const session = page.getByTestId('sidebar-session').first();
    await session.waitFor();
    const newest = page.locator('[data-testid="message-assistant"]', { hasText: `answer ${exchanges}:` });
    await browser.startTracing(page, { categories: TASK_CATEGORIES });
    const started = performance.now();
    await session.click();
    await newest.waitFor({ timeout: 120_000 });
    const openMs = performance.now() - started;
    const open = summarise(mainThreadTasks(await browser.stopTracing()));

    const box = await page.getByTestId('transcript').boundingBox();
    if (!box) throw new Error('the transcript is not on screen');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const from = await page.evaluate(() => performance.now());
    const scrollStarted = performance.now();
    const { tasks, steps } = await scrollToTop(browser, page);
    const scrollMs = performance.now() - scrollStarted;
    const rowsAtTop = await page.locator('.transcript-list > li').count();
    return {
      turns: turnsOf(exchanges),
      openMs,
      open,
      steps,
      scrollMs,
      ...summarise(tasks),
      longTasks: await longTasksSince(page, from),
      rowsAtTop,
    };
  } finally {
    await page.close();
    app.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function line(name: string, r: Run): string {
  return (
    `${name.padEnd(9)} ${String(r.turns).padStart(6)} turns | open ${r.openMs.toFixed(0).padStart(5)} ms, longest task ` +
    `${r.open.longestCpuMs.toFixed(1)} ms CPU / ${r.open.longestWallMs.toFixed(1)} ms wall, ` +
    `${r.open.overTargetCpu} ≥ ${LONG_TASK_MS} ms | scroll ${r.steps} steps in ${(r.scrollMs / 1000).toFixed(1)} s, ` +
    `${r.tasks} tasks, longest ${r.longestCpuMs.toFixed(1)} ms CPU / ${r.longestWallMs.toFixed(1)} ms wall, ` +
    `≥ ${LONG_TASK_MS} ms: ${r.overTargetCpu} by CPU, ${r.overTargetWall} by wall (${r.longTasks} longtask entries) | ` +
    `rows in the DOM at the top: ${r.rowsAtTop}`
  );
}

rebuildIfStale();
const browser = await launchChromium();
try {
  console.log(
    `Scrolling a session from its newest turn to its first, ${WHEEL_PX} px a frame, in Chromium; ` +
      `machine: ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(1)}`,
  );
  const base = await measure(browser, BASELINE_EXCHANGES);
  console.log(line('baseline', base));
  const long = await measure(browser, EXCHANGES);
  console.log(line('long', long));
  console.log(
    `longest scroll task, long / baseline: ${(long.longestCpuMs / base.longestCpuMs).toFixed(2)}× by CPU, ` +
      `${(long.longestWallMs / base.longestWallMs).toFixed(2)}× by wall`,
  );
  const met = (ms: number) => (ms < LONG_TASK_MS ? 'met' : 'NOT met');
  console.log(
    `target, every main-thread task under ${LONG_TASK_MS} ms while scrolling ${long.turns} turns: ` +
      `${met(long.longestCpuMs)} by CPU time, ${met(long.longestWallMs)} by wall time`,
  );
} finally {
  await browser.close();
}

// Shared by the benchmarks that drive the renderer in Chromium (markdown-stream.ts,
// chat-scroll.ts): the browser mode started on a data folder, Chromium launched as the e2e tests
// launch it, and every task of the page's main thread read from a DevTools trace — in wall time
// and in the thread's CPU time (on a shared, loaded machine a task's wall time also counts the
// time it waited for a CPU) — plus a PerformanceObserver('longtask') for the tasks over 50 ms.
import { chromium, type Browser, type Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import { CHROMIUM_ARGS, chromiumPath } from '../test/e2e/fixtures/chromium';
import { CLI } from './lib';

/** The task length the targets are about, ms. */
export const LONG_TASK_MS = 50;

export interface WebApp {
  url: string;
  stop: () => void;
}

/** The browser mode (`--mode web --no-open`) of the build under test (bench/lib.ts, or `cli`) on `dataDir`; resolves with the URL it prints. */
export function startWebApp(dataDir: string, args: string[] = [], cli = CLI): Promise<WebApp> {
  const child = spawn(
    process.execPath,
    [cli, '--mode', 'web', '--no-open', '--port', '0', '--data-dir', dataDir, ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (data: Buffer) => {
      out += data.toString();
      const url = /running at (\S+)/.exec(out)?.[1];
      if (url) resolve({ url, stop: () => child.kill('SIGTERM') });
    });
    child.on('exit', (code) => reject(new Error(`the app exited with ${code}: ${out}`)));
  });
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
}

export interface Task {
  wallMs: number;
  cpuMs: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  /** Wall time, µs. */
  dur?: number;
  /** The thread's CPU time, µs. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/** The trace category whose RunTask events are the main thread's tasks. */
export const TASK_CATEGORIES = ['disabled-by-default-devtools.timeline'];

/** Every task on the page's main thread (CrRendererMain) from a trace: wall and CPU time, ms. */
export function mainThreadTasks(trace: Buffer): Task[] {
  const events = (JSON.parse(trace.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const mains = new Set(
    events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`),
  );
  return events
    .filter((e) => e.name === 'RunTask' && e.ph === 'X' && mains.has(`${e.pid}:${e.tid}`))
    .map((e) => ({ wallMs: (e.dur ?? 0) / 1000, cpuMs: (e.tdur ?? e.dur ?? 0) / 1000 }));
}

/** Record the page's long tasks (≥ 50 ms of wall time) from its first script on; read them with longTasksSince. */
export async function watchLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const store = globalThis as unknown as { longTasks: { start: number; ms: number }[] };
    store.longTasks = [];
    new PerformanceObserver(
      (list) => list.getEntries().forEach((e) => store.longTasks.push({ start: e.startTime, ms: e.duration })),
      // The page's DOM knows "longtask"; this file is type-checked against Node's entry types.
    ).observe({ type: 'longtask' as 'mark', buffered: true });
  });
}

/** How many long tasks the page saw since `from` (its own performance.now()). */
export function longTasksSince(page: Page, from: number): Promise<number> {
  return page.evaluate(
    (since) =>
      (globalThis as unknown as { longTasks: { start: number }[] }).longTasks.filter((t) => t.start >= since).length,
    from,
  );
}

export interface TaskSummary {
  tasks: number;
  longestWallMs: number;
  longestCpuMs: number;
  /** Tasks of LONG_TASK_MS or more of CPU time. */
  overTargetCpu: number;
  /** Tasks of LONG_TASK_MS or more of wall time. */
  overTargetWall: number;
  /** All the tasks' CPU time together: how busy the page's main thread was. */
  totalCpuMs: number;
}

export function summarise(tasks: Task[]): TaskSummary {
  return {
    tasks: tasks.length,
    longestWallMs: Math.max(0, ...tasks.map((t) => t.wallMs)),
    longestCpuMs: Math.max(0, ...tasks.map((t) => t.cpuMs)),
    overTargetCpu: tasks.filter((t) => t.cpuMs >= LONG_TASK_MS).length,
    overTargetWall: tasks.filter((t) => t.wallMs >= LONG_TASK_MS).length,
    totalCpuMs: tasks.reduce((sum, t) => sum + t.cpuMs, 0),
  };
}

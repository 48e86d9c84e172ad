// Benchmark: a 20 kB Markdown reply streamed at 2,000 tokens/s, in the two shapes providers use —
// about 20 tokens per SSE event, and one token per event as real providers stream. The real app
// (browser mode, built out/) talks to a local OpenAI-compatible server (stream-probe.ts); the page
// runs in Chromium with a DevTools trace (bench/browser.ts reads every main-thread task from it, in
// wall and CPU time) and a PerformanceObserver('longtask'). Printed per run: provider write → text
// in the DOM (p50/p95 over checkpoints every few hundred characters), the longest task, and the
// socket's frames and bytes to the window against the reply's size. Baselines in the same run:
// plain prose of the same size, and with RESOLUTE_BENCH_BEFORE_CLI=<another out/main/cli.js> that
// build (e.g. one from before the window's coalescing) on the same replies.
// Targets: ≤ 100 ms p95, no task ≥ 50 ms CPU, bytes ≤ 3× the reply.
// Run: npm run bench:markdown (out/ is rebuilt first when it is stale).
import type { Browser } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { rebuildIfStale } from '../scripts/ensure-build.js';
import {
  LONG_TASK_MS,
  TASK_CATEGORIES,
  launchChromium,
  longTasksSince,
  mainThreadTasks,
  startWebApp,
  summarise,
  watchLongTasks,
  type TaskSummary,
} from './browser';
import { CLI } from './lib';
import {
  breakdown,
  checkpoint,
  checkpointLatencies,
  countSocketFrames,
  percentile,
  socketLatencies,
  socketQuiet,
  startProvider,
  watchCheckpoints,
} from './stream-probe';

const TARGET_BYTES = 20 * 1024;
const TOKENS_PER_SECOND = 2000;

function markdownDocument(): string {
  const parts: string[] = ['# Streaming benchmark\n\nA reply with every kind of block the chat renders.\n'];
  for (let n = 1; parts.join('\n').length < TARGET_BYTES; n += 1) {
    parts.push(
      `## Section ${n}\n\nSome **bold**, some *emphasis*, \`inline code\` and a [link](https://example.com/${n}).\n`,
      `- first point of ${n}\n- second point\n  - nested\n- third point\n`,
      `| key | value | note |\n| :-- | --: | :-: |\n${[1, 2, 3, 4].map((r) => `| k${r} | ${r * n} | row ${r} |`).join('\n')}\n`,
      `Checkpoint ${checkpoint(2 * n - 1)}.\n`,
      '```ts\n' +
        Array.from({ length: 12 }, (_, i) => `export const value${n}_${i} = compute(${i}, 'text', { n: ${n} });`).join(
          '\n',
        ) +
        '\n```\n',
      `> A quote in section ${n}, checkpoint ${checkpoint(2 * n)}.\n`,
    );
  }
  return parts.join('\n').slice(0, TARGET_BYTES);
}

function proseDocument(): string {
  const sentence = 'The retry banner counts down while the provider recovers, and nothing is lost. ';
  const paragraphs: string[] = [];
  for (let n = 1; paragraphs.join('').length < TARGET_BYTES; n += 1)
    paragraphs.push(`${sentence.repeat(5)}Checkpoint ${checkpoint(n)}.\n\n`);
  return paragraphs.join('').slice(0, TARGET_BYTES);
}

interface RunResult extends TaskSummary {
  streamMs: number;
  longTasks: number;
  latencies: number[];
  /** Provider write → the socket frame that carried the checkpoint: the main process's share. */
  socketLatencies: number[];
  frames: number;
  bytes: number;
  /** Bytes to the window by event type, largest first. */
  breakdown: string;
}

async function measure(browser: Browser, text: string, tokensPerEvent: number, cli: string): Promise<RunResult> {
  const provider = await startProvider(text, TOKENS_PER_SECOND, tokensPerEvent);
  const dataDir = mkdtempSync(join(tmpdir(), 'resolute-bench-md-'));
  const app = await startWebApp(dataDir, ['--base-url', provider.url, '--model', 'bench'], cli);
  const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
  try {
    await watchLongTasks(page);
    const socket = countSocketFrames(page);
    await page.goto(app.url);
    await page.getByTestId('chat-input').fill('stream the reply');
    await watchCheckpoints(page, (text.match(/zq\d+zq/g) ?? []).length);
    await socketQuiet(socket);
    await browser.startTracing(page, { categories: TASK_CATEGORIES });
    // The page's own clock at the send: long tasks of the page load before it do not count.
    const sentAt = await page.evaluate(() => performance.now());
    const before = { ...socket, byType: new Map([...socket.byType].map(([k, v]) => [k, { ...v }])) };
    const started = performance.now();
    await page.getByTestId('send-button').click();
    const done = page.locator('[data-testid="message-assistant"]:not([data-streaming])');
    await done.waitFor({ timeout: 120_000 });
    const streamMs = performance.now() - started;
    const tasks = summarise(mainThreadTasks(await browser.stopTracing()));
    return {
      streamMs,
      ...tasks,
      longTasks: await longTasksSince(page, sentAt),
      latencies: await checkpointLatencies(page, provider.writtenAt),
      socketLatencies: socketLatencies(socket.socketAt, provider.writtenAt),
      frames: socket.frames - before.frames,
      bytes: socket.bytes - before.bytes,
      breakdown: breakdown(socket.byType, before.byType),
    };
  } finally {
    await page.close();
    app.stop();
    provider.server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const row = (name: string, r: RunResult, replyBytes: number): string =>
  `${name.padEnd(30)} write→DOM p50 ${percentile(r.latencies, 50).toFixed(0).padStart(5)} ms, ` +
  `p95 ${percentile(r.latencies, 95).toFixed(0).padStart(5)} ms ` +
  `(write→socket p50 ${percentile(r.socketLatencies, 50).toFixed(0)}, p95 ${percentile(r.socketLatencies, 95).toFixed(0)} ms)  ` +
  `longest task ${r.longestCpuMs.toFixed(1).padStart(6)} ms CPU (${r.longestWallMs.toFixed(1)} wall), ` +
  `≥ ${LONG_TASK_MS} ms: ${r.overTargetCpu} by CPU, ${r.longTasks} by wall  ` +
  `to the window: ${r.frames} frames, ${(r.bytes / 1024).toFixed(0)} kB = ${(r.bytes / replyBytes).toFixed(1)}× the reply  ` +
  `(stream ${r.streamMs.toFixed(0)} ms, the page's main thread busy ${r.totalCpuMs.toFixed(0)} ms CPU of it)`;

rebuildIfStale();
const before = process.env.RESOLUTE_BENCH_BEFORE_CLI;
const browser = await launchChromium();
try {
  const markdown = markdownDocument();
  const prose = proseDocument();
  console.log(
    `A ${(markdown.length / 1024).toFixed(1)} kB reply at ${TOKENS_PER_SECOND} tokens/s (4 chars a token), ` +
      `in Chromium; machine: ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(1)}`,
  );
  const runs: [string, string, number, string][] = [
    ['prose, 20 tokens/event', prose, 20, CLI],
    ['markdown, 20 tokens/event', markdown, 20, CLI],
    ['markdown, 1 token/event', markdown, 1, CLI],
    ...(before
      ? ([
          ['before: markdown, 20 tokens/event', markdown, 20, before],
          ['before: markdown, 1 token/event', markdown, 1, before],
        ] as [string, string, number, string][])
      : []),
  ];
  const results: RunResult[] = [];
  for (const [name, text, perEvent, cli] of runs) {
    const result = await measure(browser, text, perEvent, cli);
    results.push(result);
    console.log(row(name, result, Buffer.byteLength(text)));
    console.log(`${''.padEnd(30)} by event: ${result.breakdown}`);
  }
  if (!before) console.log('(RESOLUTE_BENCH_BEFORE_CLI=<another build> adds its rows as the same-run baseline)');
  const oneToken = results[2]!;
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log(
    `targets, markdown at 1 token/event: p95 ≤ 100 ms ${met(percentile(oneToken.latencies, 95) <= 100)}; ` +
      `no task ≥ ${LONG_TASK_MS} ms CPU ${met(oneToken.longestCpuMs < LONG_TASK_MS)}; ` +
      `bytes ≤ 3× the reply ${met(oneToken.bytes <= 3 * Buffer.byteLength(markdown))}`,
  );
} finally {
  await browser.close();
}

// Benchmark: a 20 kB Markdown reply streamed at 2,000 tokens/s must keep every main-thread task
// of the page under 50 ms. The real app (browser mode, built out/) talks to a local
// OpenAI-compatible server of this script that streams the reply at that rate (a token counted as
// 4 characters, as the simulator counts them); the page runs in Chromium with a DevTools trace
// (bench/browser.ts reads every main-thread task from it, in wall and CPU time) and a
// PerformanceObserver('longtask') for the tasks over 50 ms of wall time while the reply streamed.
// The baseline, in the same run: plain prose of the same size at the same rate.
// Run: npm run bench:markdown (out/ is rebuilt first when it is stale).
import type { Browser } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
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

const TARGET_BYTES = 20 * 1024;
const TOKENS_PER_SECOND = 2000;
const CHARS_PER_TOKEN = 4;
const TICK_MS = 10;
const CHARS_PER_TICK = (TOKENS_PER_SECOND * CHARS_PER_TOKEN * TICK_MS) / 1000;

function markdownDocument(): string {
  const parts: string[] = ['# Streaming benchmark\n\nA reply with every kind of block the chat renders.\n'];
  for (let n = 1; parts.join('\n').length < TARGET_BYTES; n += 1) {
    parts.push(
      `## Section ${n}\n\nSome **bold**, some *emphasis*, \`inline code\` and a [link](https://example.com/${n}).\n`,
      `- first point of ${n}\n- second point\n  - nested\n- third point\n`,
      `| key | value | note |\n| :-- | --: | :-: |\n${[1, 2, 3, 4].map((r) => `| k${r} | ${r * n} | row ${r} |`).join('\n')}\n`,
      '```ts\n' +
        Array.from({ length: 12 }, (_, i) => `export const value${n}_${i} = compute(${i}, 'text', { n: ${n} });`).join(
          '\n',
        ) +
        '\n```\n',
      `> A quote in section ${n}.\n`,
    );
  }
  return parts.join('\n').slice(0, TARGET_BYTES);
}

function proseDocument(): string {
  const sentence = 'The retry banner counts down while the provider recovers, and nothing is lost. ';
  const paragraph = `${sentence.repeat(6)}\n\n`;
  return paragraph.repeat(Math.ceil(TARGET_BYTES / paragraph.length)).slice(0, TARGET_BYTES);
}

/** An OpenAI Chat Completions server that streams `reply()` at TOKENS_PER_SECOND. */
function startProvider(reply: () => string): Promise<{ server: Server; url: string }> {
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'bench', object: 'chat.completion.chunk', created: 0, model: 'bench', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const text = reply();
      const started = performance.now();
      let sent = 0;
      res.write(chunk({ role: 'assistant', content: '' }));
      const timer = setInterval(() => {
        // By absolute time, so a late timer catches up instead of slowing the rate.
        const due = Math.min(text.length, Math.round(((performance.now() - started) / TICK_MS) * CHARS_PER_TICK));
        if (due > sent) res.write(chunk({ content: text.slice(sent, due) }));
        sent = due;
        if (sent < text.length) return;
        clearInterval(timer);
        res.end(`${chunk({}, 'stop')}data: [DONE]\n\n`);
      }, TICK_MS);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1` });
    }),
  );
}

interface RunResult extends TaskSummary {
  streamMs: number;
  longTasks: number;
}

async function measure(browser: Browser, label: string, text: string): Promise<RunResult> {
  const provider = await startProvider(() => text);
  const dataDir = mkdtempSync(join(tmpdir(), 'resolute-bench-md-'));
  const app = await startWebApp(dataDir, ['--base-url', provider.url, '--model', 'bench']);
  const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
  try {
    await watchLongTasks(page);
    await page.goto(app.url);
    await page.getByTestId('chat-input').fill(`stream the ${label} reply`);
    await browser.startTracing(page, { categories: TASK_CATEGORIES });
    // The page's own clock at the send: long tasks of the page load before it do not count.
    const sentAt = await page.evaluate(() => performance.now());
    const started = performance.now();
    await page.getByTestId('send-button').click();
    const done = page.locator('[data-testid="message-assistant"]:not([data-streaming])');
    await done.waitFor({ timeout: 60_000 });
    const streamMs = performance.now() - started;
    const tasks = summarise(mainThreadTasks(await browser.stopTracing()));
    return { streamMs, ...tasks, longTasks: await longTasksSince(page, sentAt) };
  } finally {
    await page.close();
    app.stop();
    provider.server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

rebuildIfStale();
const browser = await launchChromium();
try {
  const markdown = markdownDocument();
  const prose = proseDocument();
  const base = await measure(browser, 'prose', prose);
  const md = await measure(browser, 'markdown', markdown);
  const row = (name: string, r: RunResult) =>
    `${name.padEnd(9)} ${r.streamMs.toFixed(0).padStart(5)} ms  ${String(r.tasks).padStart(5)} tasks  ` +
    `longest: ${r.longestCpuMs.toFixed(1).padStart(5)} ms CPU, ${r.longestWallMs.toFixed(1).padStart(6)} ms wall  ` +
    `tasks >= ${LONG_TASK_MS} ms: ${r.overTargetCpu} by CPU, ${r.longTasks} by wall (longtask observer)`;
  console.log(
    `A ${(markdown.length / 1024).toFixed(1)} kB reply at ${TOKENS_PER_SECOND} tokens/s (${CHARS_PER_TOKEN} chars a token), ` +
      `in Chromium; machine: ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(1)}`,
  );
  console.log(row('prose', base));
  console.log(row('markdown', md));
  console.log(
    `longest task, markdown / prose: ${(md.longestCpuMs / base.longestCpuMs).toFixed(2)}× by CPU, ` +
      `${(md.longestWallMs / base.longestWallMs).toFixed(2)}× by wall`,
  );
  const met = (ms: number) => (ms < LONG_TASK_MS ? 'met' : 'NOT met');
  console.log(
    `target, every main-thread task under ${LONG_TASK_MS} ms: ${met(md.longestCpuMs)} by CPU time, ` +
      `${met(md.longestWallMs)} by wall time`,
  );
} finally {
  await browser.close();
}

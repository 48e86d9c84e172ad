// The streaming benchmark's probes (bench/markdown-stream.ts): an OpenAI Chat Completions server
// that streams a reply at a token rate, N tokens per SSE event, and notes when each checkpoint of
// the reply was written; a page script that notes, once a display frame, when each checkpoint is in
// the DOM; and a count of the socket's frames and bytes to the window. Both clocks are the epoch
// in ms (performance.timeOrigin + now), so a write and its arrival in the DOM compare directly.
import { createServer, type Server } from 'node:http';
import type { Page, WebSocket } from '@playwright/test';
import { PatchDecoder } from '../src/shared/message-patch';
import { messageText } from '../src/shared/messages';

const CHARS_PER_TOKEN = 4;
const TICK_MS = 10;

/** A word the reply carries every few hundred characters; found in the DOM's text as written. */
export const checkpoint = (n: number): string => `zq${n}zq`;

export interface StreamProvider {
  server: Server;
  url: string;
  /** Epoch ms each checkpoint (by number) was written to the socket. */
  writtenAt: Map<number, number>;
}

const now = (): number => performance.timeOrigin + performance.now();

/** Streams `text` at `tokensPerSecond`, `tokensPerEvent` tokens (of 4 characters) per SSE event, as of each 10 ms tick. */
export function startProvider(text: string, tokensPerSecond: number, tokensPerEvent: number): Promise<StreamProvider> {
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'bench', object: 'chat.completion.chunk', created: 0, model: 'bench', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const marks = [...text.matchAll(/zq(\d+)zq/g)].map((m) => ({ n: Number(m[1]), end: m.index + m[0].length }));
  const writtenAt = new Map<number, number>();
  const eventChars = tokensPerEvent * CHARS_PER_TOKEN;
  const server = createServer((req, res) => {
    req.resume();
    // The app asks the server what it is first (its model list, Ollama's /api/show): those get an
    // answer, not the reply, so the checkpoints' write times are the chat request's own.
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'bench', object: 'model', owned_by: 'bench' }] }));
      return;
    }
    if (!req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'not found' }));
      return;
    }
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const started = performance.now();
      let sent = 0;
      res.write(chunk({ role: 'assistant', content: '' }));
      const timer = setInterval(() => {
        // By absolute time, so a late timer catches up instead of slowing the rate.
        const dueChars = ((performance.now() - started) * tokensPerSecond * CHARS_PER_TOKEN) / 1000;
        const due = Math.min(text.length, Math.round(dueChars));
        const events: string[] = [];
        for (let at = sent; at < due; at += eventChars)
          events.push(chunk({ content: text.slice(at, Math.min(due, at + eventChars)) }));
        if (events.length > 0) res.write(events.join(''));
        const at = now();
        for (const mark of marks) if (mark.end <= due && !writtenAt.has(mark.n)) writtenAt.set(mark.n, at);
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
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({ server, url: `http://127.0.0.1:${port}/v1`, writtenAt });
    }),
  );
}

/**
 * Starts, in the page, a look at the streaming reply's text for the `count` checkpoints after each
 * change of the DOM (a MutationObserver: the moment the text is in the DOM). Not once a frame:
 * the page applies its events in a frame callback, and a look registered before it saw the text a
 * frame late.
 */
export async function watchCheckpoints(page: Page, count: number): Promise<void> {
  // A string, not a function: tsx would wrap a function's inner names in a helper the page lacks.
  await page.evaluate(`(() => {
    const total = ${count};
    globalThis.seenAt = {};
    let next = 1;
    const observer = new MutationObserver(() => {
      const at = performance.timeOrigin + performance.now();
      const replies = document.querySelectorAll('[data-testid="message-assistant"]');
      const text = replies[replies.length - 1]?.textContent ?? '';
      while (next <= total && text.includes('zq' + next + 'zq')) globalThis.seenAt[next++] = at;
      if (next > total) observer.disconnect();
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  })()`);
}

/** Provider write → text in the DOM for every checkpoint seen, ms, sorted. */
export async function checkpointLatencies(page: Page, writtenAt: Map<number, number>): Promise<number[]> {
  const seenAt = await page.evaluate(() => (globalThis as unknown as { seenAt: Record<number, number> }).seenAt);
  return [...writtenAt]
    .filter(([n]) => seenAt[n] !== undefined)
    .map(([n, at]) => seenAt[n]! - at)
    .sort((a, b) => a - b);
}

export function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export interface FrameCounts {
  frames: number;
  bytes: number;
  /** performance.now() of the last frame. */
  lastAt: number;
  /** Epoch ms each checkpoint (by number) first arrived on the page's socket, as the browser reported the frame. */
  socketAt: Map<number, number>;
  /** Frames and bytes by what they carried: the event's type on the wire, or `response`. */
  byType: Map<string, { frames: number; bytes: number }>;
  /** Ids of the page's requests not answered yet. */
  unanswered: Set<number>;
}

/**
 * Counts the frames and bytes the page's sockets receive from now on, and decodes them as the
 * window does (message-patch.ts) to note when each checkpoint's text arrived: provider write →
 * socket is the main process's share of write → DOM, the rest the window's.
 */
export function countSocketFrames(page: Page): FrameCounts {
  const counts: FrameCounts = {
    frames: 0,
    bytes: 0,
    lastAt: performance.now(),
    socketAt: new Map(),
    byType: new Map(),
    unanswered: new Set(),
  };
  page.on('websocket', (ws: WebSocket) => {
    const decoder = new PatchDecoder();
    ws.on('framesent', ({ payload }) => {
      const id = typeof payload === 'string' ? /^\{"kind":"request","id":(\d+)/.exec(payload)?.[1] : undefined;
      if (id !== undefined) counts.unanswered.add(Number(id));
    });
    ws.on('framereceived', ({ payload }) => {
      const at = now();
      counts.frames += 1;
      counts.lastAt = performance.now();
      const size = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
      counts.bytes += size;
      if (typeof payload !== 'string' || !payload.includes('"kind":"event"')) {
        const id = typeof payload === 'string' ? /^\{"kind":"response","id":(\d+)/.exec(payload)?.[1] : undefined;
        if (id !== undefined) counts.unanswered.delete(Number(id));
        return tally(counts, 'response', size);
      }
      const wire = (JSON.parse(payload) as { event: Parameters<PatchDecoder['decode']>[0] }).event;
      tally(counts, wire.type, size);
      const event = decoder.decode(wire);
      if (event?.type !== 'message_update' && event?.type !== 'message_end') return;
      for (const m of messageText(event.message).matchAll(/zq(\d+)zq/g))
        if (!counts.socketAt.has(Number(m[1]))) counts.socketAt.set(Number(m[1]), at);
    });
  });
  return counts;
}

function tally(counts: FrameCounts, type: string, bytes: number): void {
  const entry = counts.byType.get(type) ?? { frames: 0, bytes: 0 };
  entry.frames += 1;
  entry.bytes += bytes;
  counts.byType.set(type, entry);
}

/** The byte breakdown since `before` (a copy of byType), largest first: `type frames×, kB`. */
export function breakdown(now: FrameCounts['byType'], before: FrameCounts['byType']): string {
  return [...now]
    .map(
      ([type, n]) =>
        [type, n.frames - (before.get(type)?.frames ?? 0), n.bytes - (before.get(type)?.bytes ?? 0)] as const,
    )
    .filter(([, frames]) => frames > 0)
    .sort((a, b) => b[2] - a[2])
    .map(([type, frames, bytes]) => `${type} ${frames}× ${(bytes / 1024).toFixed(1)} kB`)
    .join(', ');
}

/** Provider write → arrival on the socket for every checkpoint that arrived, ms, sorted. */
export function socketLatencies(socketAt: Map<number, number>, writtenAt: Map<number, number>): number[] {
  return [...writtenAt]
    .filter(([n]) => socketAt.has(n))
    .map(([n, at]) => socketAt.get(n)! - at)
    .sort((a, b) => a - b);
}

/**
 * Resolves once every request the page sent is answered and the socket has been quiet for `ms`:
 * the page load's replies are not the stream's. The provider list (~78 kB, more than the whole
 * stream) can take longer than `ms` on a loaded machine, so quiet alone let it be counted.
 */
export async function socketQuiet(counts: FrameCounts, ms = 500): Promise<void> {
  while (performance.now() - counts.lastAt < ms || counts.unanswered.size > 0)
    await new Promise((resolve) => setTimeout(resolve, 50));
}

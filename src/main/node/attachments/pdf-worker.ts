// Runs PDF.js (through unpdf) in a worker thread, one page at a time, for pdf-text.ts: a PDF is
// untrusted input, and on the main thread one with 10,000 pages stalled every window and one whose
// stream inflates to gigabytes killed the app. The worker has a heap limit, the whole process's
// memory is watched while it runs, and a time limit ends it (docs/attachments.md, "Limits").
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export interface PdfReadLimits {
  /** Pages read at most; the rest are counted, not read. */
  maxPages: number;
  /** The worker is ended after this long, ms. */
  timeLimitMs: number;
  /** The worker's JS heap, and the growth of the process's resident memory while it runs, MB. */
  memoryLimitMb: number;
}

/** Why PDF.js stopped: the file's own fault, or a limit of ours. */
export interface PdfFailure {
  reason: 'encrypted' | 'damaged' | 'too_much_memory' | 'too_slow';
  detail: string;
}

/** What the worker says, in order: the page count, each page's text, then done (or failed). */
type WorkerMessage =
  | { kind: 'opened'; pages: number }
  | { kind: 'page'; text: string }
  | { kind: 'done' }
  | { kind: 'failed'; name: string; message: string };

/**
 * PDF.js holds a decoded stream in one Uint8Array that it doubles as it grows, so one doubling of
 * a bomb's stream could take gigabytes at once, before any watch saw it. In the worker, Uint8Array
 * refuses any one allocation over a quarter of the memory limit (a real page's streams are far
 * smaller), and DecompressionStream is removed: PDF.js would gather its chunks outside that check,
 * and without it falls back to its own inflate, which allocates through Uint8Array. This message
 * marks the refusal.
 */
const BUFFER_LIMIT = 'one buffer over the memory limit';

// Evaluated from this string (CommonJS) so that the same code runs from the built app, from the
// sources under vitest and from tsx, with no separate entry file to build and find. It reads one
// PDF per message it gets; each page's text is joined as unpdf's extractText joins it, and pages
// are read one after another and released.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const PlainUint8Array = Uint8Array;
class CappedUint8Array extends PlainUint8Array {
  constructor(...args) {
    if (typeof args[0] === 'number' && args[0] > workerData.maxArrayBytes) throw new RangeError('${BUFFER_LIMIT}');
    super(...args);
  }
  static [Symbol.hasInstance](value) {
    return value instanceof PlainUint8Array;
  }
}
globalThis.Uint8Array = CappedUint8Array;
delete globalThis.DecompressionStream;
const { getDocumentProxy } = require(workerData.unpdf);
parentPort.on('message', async ({ bytes, maxPages }) => {
  try {
    const pdf = await getDocumentProxy(bytes, { stopAtErrors: true, verbosity: 0 });
    try {
      parentPort.postMessage({ kind: 'opened', pages: pdf.numPages });
      const last = Math.min(pdf.numPages, maxPages);
      for (let number = 1; number <= last; number += 1) {
        const page = await pdf.getPage(number);
        const content = await page.getTextContent();
        const text = content.items
          .filter((item) => item.str != null)
          .map((item) => item.str + (item.hasEOL ? '\\n' : ''))
          .join('');
        page.cleanup();
        parentPort.postMessage({ kind: 'page', text });
      }
    } finally {
      await pdf.loadingTask.destroy();
    }
    parentPort.postMessage({ kind: 'done' });
  } catch (error) {
    parentPort.postMessage({
      kind: 'failed',
      name: String((error && error.name) || ''),
      message: String((error && error.message) || error),
    });
  }
});
`;

/** How often the process's resident memory is read while a worker reads, ms. */
const MEMORY_POLL_MS = 25;
/**
 * A worker that finished a PDF is kept this long for the next one, ms: starting one and loading
 * PDF.js into it costs about half a second, and PDF.js runs faster once warm.
 */
const IDLE_WORKER_MS = 60_000;
const MB = 1024 * 1024;

export class PdfReadError extends Error {
  constructor(readonly failure: PdfFailure) {
    super(failure.detail);
    this.name = 'PdfReadError';
  }
}

let unpdfPath: string | undefined;
let idle: { worker: Worker; heapMb: number; timer: ReturnType<typeof setTimeout> } | null = null;

// One PDF at a time: the memory watch reads the whole process, so two workers would share (and
// trip) one budget; and a second PDF waits seconds at most, not a second half-gigabyte.
let queue: Promise<unknown> = Promise.resolve();

/**
 * Read up to `limits.maxPages` pages; `onPage` gets each page's text in order and returns false
 * to stop there. Resolves with the document's page count, or rejects with a PdfReadError. The
 * caller's `bytes` stay intact (the worker gets a copy).
 */
export function readPdfPages(
  bytes: Uint8Array,
  limits: PdfReadLimits,
  onPage: (text: string) => boolean,
): Promise<{ pages: number }> {
  const run = queue.then(() => readInWorker(takeWorker(limits.memoryLimitMb), bytes, limits, onPage));
  queue = run.catch(() => undefined);
  return run;
}

function takeWorker(heapMb: number): Worker {
  const kept = idle;
  idle = null;
  if (kept) clearTimeout(kept.timer);
  if (kept?.heapMb === heapMb) return kept.worker;
  if (kept) void kept.worker.terminate();
  unpdfPath ??= createRequire(import.meta.url).resolve('unpdf');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { unpdf: unpdfPath, maxArrayBytes: (heapMb * MB) / 4 },
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 32 },
    // PDF.js may write warnings; in the RPC mode stdout is the protocol, so the worker's output is drained here.
    stdout: true,
    stderr: true,
  });
  worker.stdout.resume();
  worker.stderr.resume();
  // An error while kept idle ends the worker; 'exit' forgets it. Neither may reach the process.
  worker.on('error', () => undefined);
  worker.once('exit', () => {
    if (idle?.worker === worker) idle = null;
  });
  worker.unref();
  return worker;
}

function keepWorker(worker: Worker, heapMb: number): void {
  const timer = setTimeout(() => {
    if (idle?.worker === worker) idle = null;
    void worker.terminate();
  }, IDLE_WORKER_MS);
  timer.unref();
  idle = { worker, heapMb, timer };
}

function readInWorker(
  worker: Worker,
  bytes: Uint8Array,
  limits: PdfReadLimits,
  onPage: (text: string) => boolean,
): Promise<{ pages: number }> {
  return new Promise((resolve, reject) => {
    let pages = 0;
    const rssAtStart = process.memoryUsage.rss();
    const finish = (outcome: PdfReadError | 'done' | 'stopped'): void => {
      clearTimeout(timer);
      clearInterval(watch);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      // A worker that was stopped mid-way, or hit a limit, is ended (terminate stops running JS).
      if (outcome === 'done') keepWorker(worker, limits.memoryLimitMb);
      else void worker.terminate();
      if (outcome instanceof PdfReadError) reject(outcome);
      else resolve({ pages });
    };
    const timer = setTimeout(
      () => finish(limitError('too_slow', `reading it took longer than ${limits.timeLimitMs / 1000} s`)),
      limits.timeLimitMs,
    );
    // Inflated streams live in ArrayBuffers, outside the heap limit: the process's growth is watched too.
    const watch = setInterval(() => {
      if (process.memoryUsage.rss() - rssAtStart > limits.memoryLimitMb * MB) finish(memoryError(limits));
    }, MEMORY_POLL_MS);
    const onMessage = (message: WorkerMessage): void => {
      if (message.kind === 'opened') pages = message.pages;
      else if (message.kind === 'page' && !onPage(message.text)) finish('stopped');
      else if (message.kind === 'done') finish('done');
      else if (message.kind === 'failed') finish(failureOf(message, limits));
    };
    const onError = (error: Error & { code?: string }): void =>
      finish(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? memoryError(limits) : damaged(error.message));
    const onExit = (): void => finish(damaged('the reader stopped'));
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    const copy = new Uint8Array(bytes);
    worker.postMessage({ bytes: copy, maxPages: limits.maxPages }, [copy.buffer]);
  });
}

function damaged(detail: string): PdfReadError {
  return new PdfReadError({ reason: 'damaged', detail: `the PDF is damaged or not a PDF (${detail})` });
}

function limitError(reason: 'too_much_memory' | 'too_slow', detail: string): PdfReadError {
  return new PdfReadError({ reason, detail });
}

function memoryError(limits: PdfReadLimits): PdfReadError {
  return limitError('too_much_memory', `reading it needed more than ${limits.memoryLimitMb} MB of memory`);
}

function failureOf(message: { name: string; message: string }, limits: PdfReadLimits): PdfReadError {
  if (message.name === 'PasswordException')
    return new PdfReadError({ reason: 'encrypted', detail: 'the PDF is encrypted (password protected)' });
  if (message.message.includes(BUFFER_LIMIT) || /array buffer allocation failed/i.test(message.message))
    return memoryError(limits);
  return damaged(message.message);
}

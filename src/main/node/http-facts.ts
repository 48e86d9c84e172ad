// Observes the HTTP exchanges of provider SDKs so the classifier gets structured facts (status,
// Retry-After and rate-limit headers, the codes of the error body or of an error event inside a
// 200 stream) that pi-ai's error strings drop. The guarded stream tags each request with a
// correlation header; this fetch wrapper strips the tag before the request leaves, records what
// came back, and hands the body on unchanged. What is read is described in docs/classification.md.
// It also tells the guarded stream of every piece of the response as it arrives — headers, keep-alive
// comments, pings — and of a local server's prompt progress (docs/retry-policy.md, "Liveness").
import {
  errorFactsFromBody,
  type BodyFacts,
  type HttpFactsSource,
  type HttpObservation,
  type ProviderFacts,
  type WireActivity,
} from '../core/retry';

export const CORRELATION_HEADER = 'x-resolute-observe';
const KEPT_HEADERS = /^(retry-after(-ms)?|x-ratelimit-.*|anthropic-ratelimit-.*)$/;
const MAX_ERROR_BODY = 64 * 1024;
/** A block this long without a blank line is model output, not an error event (chars). */
const MAX_BLOCK_CHARS = 256 * 1024;
const BLOCK_END = /\r\n\r\n|\n\n|\r\r/;

interface Seen {
  facts: ProviderFacts;
  /** Set for 2xx bodies: an error event may still arrive inside the stream. */
  scanner?: StreamErrorScanner;
}

// One wrapper per process, shared by every recorder (several app instances can live in one
// test process): ids are unique, the wrapper is installed once and removed with the last user.
const seen = new Map<string, Seen>();
/** Who listens to each observed request's bytes, from begin() to finish(). */
const listeners = new Map<string, (activity: WireActivity) => void>();
let original: typeof fetch | undefined;
let users = 0;
let counter = 0;

export class HttpFactsRecorder implements HttpFactsSource {
  begin(): HttpObservation {
    const id = `${process.pid}-${++counter}`;
    return {
      headers: { [CORRELATION_HEADER]: id },
      onActivity: (listener) => listeners.set(id, listener),
      finish: () => {
        const entry = seen.get(id);
        seen.delete(id);
        listeners.delete(id);
        if (!entry) return undefined;
        const inStream = entry.scanner?.result();
        return inStream ? { ...entry.facts, ...inStream, inStream: true } : entry.facts;
      },
    };
  }

  /** Wrap globalThis.fetch (SDK clients read it when they are created, once per request). */
  install(): () => void {
    users += 1;
    if (!original) {
      const base = globalThis.fetch;
      original = base;
      globalThis.fetch = (input: Parameters<typeof fetch>[0], init?: RequestInit) => observedFetch(base, input, init);
    }
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      users -= 1;
      if (users === 0 && original) {
        globalThis.fetch = original;
        original = undefined;
      }
    };
  }
}

async function observedFetch(
  base: typeof fetch,
  input: Parameters<typeof fetch>[0],
  init?: RequestInit,
): Promise<Response> {
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
  const id = headers.get(CORRELATION_HEADER);
  if (!id) return base(input, init);
  headers.delete(CORRELATION_HEADER);
  const response = await base(input, { ...init, headers });
  const activity = (seen: WireActivity = {}) => listeners.get(id)?.(seen);
  activity();
  // When an error response's headers arrived: the retry wait runs from here (docs/retry-policy.md).
  const facts: ProviderFacts =
    response.status >= 400 ? { ...observeHead(response), receivedAt: Date.now() } : observeHead(response);
  // Requests whose stream succeeded are never asked about: keep the map bounded.
  if (seen.size > 1000) seen.delete(seen.keys().next().value as string);
  if (response.status >= 400) {
    const body = await errorBody(response.clone());
    seen.set(id, { facts: body ? { ...facts, ...body } : facts });
    return response;
  }
  if (!response.body || response.status === 204 || response.status === 205) {
    seen.set(id, { facts });
    return response;
  }
  const scanner = new StreamErrorScanner();
  seen.set(id, { facts, scanner });
  return scanned(response, scanner, activity);
}

function observeHead(response: Response): ProviderFacts {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (KEPT_HEADERS.test(name.toLowerCase())) headers[name.toLowerCase()] = value;
  });
  return { status: response.status, headers };
}

/** The provider's error facts from an OpenAI/Anthropic/Google-shaped JSON error body. */
async function errorBody(response: Response): Promise<BodyFacts | undefined> {
  try {
    const text = (await response.text()).slice(0, MAX_ERROR_BODY);
    return errorFactsFromBody(JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

/** The same response whose body passes through the scanner on its way to the SDK, unchanged. */
function scanned(response: Response, scanner: StreamErrorScanner, activity: (seen: WireActivity) => void): Response {
  const decoder = new TextDecoder();
  const progress = new ProgressReader();
  const body = (response.body as ReadableStream<Uint8Array>).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        // Scanned before it is handed on: when the SDK sees an error event, so has the scanner.
        const text = decoder.decode(chunk, { stream: true });
        scanner.push(text);
        // Every chunk is a sign of life, a keep-alive comment as much as a word.
        activity(progress.read(text));
        controller.enqueue(chunk);
      },
      flush() {
        scanner.push(decoder.decode());
      },
    }),
  );
  const copy = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  Object.defineProperty(copy, 'url', { value: response.url });
  return copy;
}

/**
 * Watches the text of a 2xx response body as the SDK reads it and picks out an error event:
 * Anthropic's `event: error`, OpenAI Responses' `error` / `response.failed`, a Chat Completions
 * `data: {"error": …}` chunk, or the bare JSON error object Gemini writes into its SSE stream.
 */
class StreamErrorScanner {
  private buffer = '';
  private found: BodyFacts | undefined;

  /** Feed the next piece of decoded body text. */
  push(text: string): void {
    if (this.found) return;
    this.buffer += text;
    for (let end = BLOCK_END.exec(this.buffer); end; end = BLOCK_END.exec(this.buffer)) {
      this.scanBlock(this.buffer.slice(0, end.index));
      this.buffer = this.buffer.slice(end.index + end[0].length);
      if (this.found) return;
    }
    if (this.buffer.length > MAX_BLOCK_CHARS) this.buffer = '';
  }

  /** The error found so far, reading what is left unterminated (Gemini's error has no blank line after it). */
  result(): BodyFacts | undefined {
    if (!this.found && this.buffer.trim() !== '') this.scanBlock(this.buffer);
    this.buffer = '';
    return this.found;
  }

  private scanBlock(block: string): void {
    // Cheap test first: almost every event is model output.
    if (!/error|failed/.test(block)) return;
    const lines = block.split(/\r?\n|\r/);
    const data = lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(5).replace(/^ /, ''));
    const payload = data.length > 0 ? data.join('\n') : block.trim();
    if (!payload.startsWith('{') && !payload.startsWith('[')) return;
    try {
      this.found = errorFactsFromBody(JSON.parse(payload) as unknown);
    } catch {
      // Not JSON: a malformed chunk is the SDK's to report, not an error event.
    }
  }
}

/**
 * llama.cpp's `prompt_progress` ({ total, cache, processed }) in the chunks a server sends while it
 * processes the prompt with `return_progress` on; a line split across chunks is read once whole.
 */
class ProgressReader {
  private tail = '';

  read(text: string): WireActivity {
    const lines = (this.tail + text).split(/\r?\n/);
    this.tail = (lines.pop() ?? '').slice(-MAX_BLOCK_CHARS);
    let found: WireActivity = {};
    for (const line of lines) {
      if (!line.startsWith('data:') || !line.includes('prompt_progress')) continue;
      try {
        const value = (JSON.parse(line.slice(5)) as { prompt_progress?: Record<string, unknown> }).prompt_progress;
        const { total, processed } = value ?? {};
        if (typeof total === 'number' && typeof processed === 'number') found = { progress: { processed, total } };
      } catch {
        // Not JSON: the SDK reports a malformed chunk; no progress is read from it.
      }
    }
    return found;
  }
}

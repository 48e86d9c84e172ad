// Observes the HTTP exchanges of provider SDKs so the classifier gets structured facts (status,
// Retry-After and rate-limit headers, the codes of the error body or of an error event inside a
// 200 stream) that pi-ai's error strings drop. The guarded stream tags each request with a
// correlation header; this fetch wrapper strips the tag before the request leaves, records what
// came back, and hands the body on unchanged. What is read is described in docs/classification.md.
// It also holds a retried request built before its deadline until the deadline (holdNext).
import { errorFactsFromBody, type BodyErrorFacts } from '../core/retry/error-body';
import type { HeldSend, HttpFactsSource, HttpObservation, ProviderFacts } from '../core/retry/provider-facts';
import { StreamErrorScanner } from './stream-error-scanner';

export const CORRELATION_HEADER = 'x-resolute-observe';
const KEPT_HEADERS = /^(retry-after(-ms)?|x-ratelimit-.*|anthropic-ratelimit-.*)$/;
const MAX_ERROR_BODY = 64 * 1024;

interface Seen {
  facts: ProviderFacts;
  /** Set for 2xx bodies: an error event may still arrive inside the stream. */
  scanner?: StreamErrorScanner;
}

/** A held request (holdNext): its send waits for release, and never happens once cancelled. */
class SendGate implements HeldSend {
  private state: 'held' | 'open' | 'dropped' = 'held';
  private sends: (() => void)[] = [];

  /** `settle` runs on release or cancel: a hold no request took must not catch a later one. */
  constructor(private readonly settle: () => void) {}

  get held(): boolean {
    return this.state === 'held';
  }

  whenOpen(send: () => void): void {
    if (this.state === 'open') send();
    else if (this.state === 'held') this.sends.push(send);
  }

  release(): void {
    if (this.state !== 'held') return;
    this.state = 'open';
    this.settle();
    for (const send of this.sends.splice(0)) send();
  }

  cancel(): void {
    if (this.state === 'held') this.state = 'dropped';
    this.sends = [];
    this.settle();
  }
}

// One wrapper per process, shared by every recorder (several app instances can live in one
// test process): ids are unique, the wrapper is installed once and removed with the last user.
const seen = new Map<string, Seen>();
const holds = new Map<string, SendGate>();
let original: typeof fetch | undefined;
let users = 0;
let counter = 0;

export class HttpFactsRecorder implements HttpFactsSource {
  private nextHold: SendGate | undefined;

  begin(): HttpObservation {
    const id = `${process.pid}-${++counter}`;
    if (this.nextHold?.held) holds.set(id, this.nextHold);
    this.nextHold = undefined;
    return {
      headers: { [CORRELATION_HEADER]: id },
      finish: () => {
        holds.delete(id);
        const entry = seen.get(id);
        seen.delete(id);
        if (!entry) return undefined;
        const inStream = entry.scanner?.result();
        return inStream ? { ...entry.facts, ...withCodes(inStream), inStream: true } : entry.facts;
      },
    };
  }

  holdNext(): HeldSend {
    const gate: SendGate = new SendGate(() => {
      if (this.nextHold === gate) this.nextHold = undefined;
    });
    this.nextHold = gate;
    return gate;
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
  const gate = holds.get(id);
  holds.delete(id);
  const request = { ...init, headers };
  const response = await (gate ? heldFetch(base, input, request, gate) : base(input, request));
  // When an error response's headers arrived: the retry wait runs from here (docs/retry-policy.md).
  const facts: ProviderFacts =
    response.status >= 400 ? { ...observeHead(response), receivedAt: Date.now() } : observeHead(response);
  // Requests whose stream succeeded are never asked about: keep the map bounded.
  if (seen.size > 1000) seen.delete(seen.keys().next().value as string);
  if (response.status >= 400) {
    const body = await errorBody(response.clone());
    seen.set(id, { facts: body ? { ...facts, ...withCodes(body) } : facts });
    return response;
  }
  if (!response.body || response.status === 204 || response.status === 205) {
    seen.set(id, { facts });
    return response;
  }
  const scanner = new StreamErrorScanner();
  seen.set(id, { facts, scanner });
  return scanned(response, scanner);
}

type Dispatch = (options: unknown, handler: unknown) => boolean;

/**
 * Node's fetch builds the whole request, then hands it to its dispatcher: given one that waits for
 * the gate (fetch's `dispatcher` option), the release only has to write it. Without Node's own
 * dispatcher to pass it on to, the fetch itself waits. Aborting the request ends either wait.
 */
function heldFetch(
  base: typeof fetch,
  input: Parameters<typeof fetch>[0],
  init: RequestInit,
  gate: SendGate,
): Promise<Response> {
  const node = nodeDispatcher();
  if (node) {
    const dispatch: Dispatch = (options, handler) => {
      gate.whenOpen(() => node.dispatch(options, handler));
      return true;
    };
    return base(input, { ...init, dispatcher: { dispatch } } as RequestInit);
  }
  const signal = init.signal;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    gate.whenOpen(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(base(input, init));
    });
  });
}

/** The dispatcher Node's fetch uses by default: undici keeps it under this global symbol. */
function nodeDispatcher(): { dispatch: Dispatch } | undefined {
  const value: unknown = (globalThis as Record<symbol, unknown>)[Symbol.for('undici.globalDispatcher.1')];
  const dispatch = (value as { dispatch?: unknown } | undefined)?.dispatch;
  return typeof dispatch === 'function' ? (value as { dispatch: Dispatch }) : undefined;
}

function observeHead(response: Response): ProviderFacts {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (KEPT_HEADERS.test(name.toLowerCase())) headers[name.toLowerCase()] = value;
  });
  return { status: response.status, headers };
}

function withCodes(body: BodyErrorFacts): Partial<ProviderFacts> {
  return body.errorCodes.length > 0 ? { ...body, errorType: body.errorCodes[0] } : { ...body, errorCodes: undefined };
}

/** The provider's error facts from an OpenAI/Anthropic/Google-shaped JSON error body. */
async function errorBody(response: Response): Promise<BodyErrorFacts | undefined> {
  try {
    const text = (await response.text()).slice(0, MAX_ERROR_BODY);
    return errorFactsFromBody(JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

/** The same response whose body passes through the scanner on its way to the SDK, unchanged. */
function scanned(response: Response, scanner: StreamErrorScanner): Response {
  const decoder = new TextDecoder();
  const body = (response.body as ReadableStream<Uint8Array>).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        // Scanned before it is handed on: when the SDK sees an error event, so has the scanner.
        scanner.push(decoder.decode(chunk, { stream: true }));
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

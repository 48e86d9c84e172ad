// Observes the HTTP exchanges of provider SDKs so the classifier gets structured facts (status,
// Retry-After and rate-limit headers, the error body's type) that pi-ai's error strings drop.
// The guarded stream tags each request with a correlation header; this fetch wrapper strips the
// tag before the request leaves, records what came back, and changes nothing else.
import type { HttpFactsSource, HttpObservation, ProviderFacts } from '../core/provider-facts';

export const CORRELATION_HEADER = 'x-resolute-observe';
const KEPT_HEADERS = /^(retry-after(-ms)?|x-ratelimit-.*|anthropic-ratelimit-.*)$/;
const MAX_ERROR_BODY = 64 * 1024;

// One wrapper per process, shared by every recorder (several app instances can live in one
// test process): ids are unique, the wrapper is installed once and removed with the last user.
const seen = new Map<string, ProviderFacts>();
let original: typeof fetch | undefined;
let users = 0;
let counter = 0;

export class HttpFactsRecorder implements HttpFactsSource {
  begin(): HttpObservation {
    const id = `${process.pid}-${++counter}`;
    return {
      headers: { [CORRELATION_HEADER]: id },
      finish: () => {
        const facts = seen.get(id);
        seen.delete(id);
        return facts;
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
  const receivedAt = Date.now();
  seen.set(id, { ...(await observe(response)), receivedAt });
  // Requests whose stream succeeded are never asked about: keep the map bounded.
  if (seen.size > 1000) seen.delete(seen.keys().next().value as string);
  return response;
}

async function observe(response: Response): Promise<ProviderFacts> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (KEPT_HEADERS.test(name.toLowerCase())) headers[name.toLowerCase()] = value;
  });
  const facts: ProviderFacts = { status: response.status, headers };
  if (response.status >= 400) facts.errorType = await errorType(response.clone());
  return facts;
}

/** The provider's error type from an OpenAI/Anthropic/Google-shaped JSON error body. */
async function errorType(response: Response): Promise<string | undefined> {
  try {
    const text = (await response.text()).slice(0, MAX_ERROR_BODY);
    const body = JSON.parse(text) as { type?: unknown; error?: { type?: unknown; code?: unknown; status?: unknown } };
    const candidate = body.error?.type ?? body.error?.code ?? body.error?.status ?? body.type;
    return typeof candidate === 'string' ? candidate : undefined;
  } catch {
    return undefined;
  }
}

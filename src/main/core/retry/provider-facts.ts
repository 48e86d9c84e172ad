// Structured facts about a failed provider request — the HTTP status, retry headers, the codes of
// the error body or of an error event inside the stream — which the classifier prefers to the error
// text (docs/classification.md). The one shape of a failure's facts from the HTTP layer to
// classifyError, and how an error object is read into it: pi-ai keeps only a message string, so the
// node layer observes the exchange (http-facts.ts, calling errorFactsFromBody here) and the guarded
// stream attaches what it saw to the final assistant message, where the classifier reads it back.
/** The body's facts (BodyFacts, below), and what the HTTP exchange adds. */
export interface ProviderFacts extends BodyFacts {
  status?: number;
  /** Lower-cased names: retry-after, retry-after-ms, x-ratelimit-*, anthropic-ratelimit-*. */
  headers?: Record<string, string>;
  /** The error came as an event inside a stream whose response was a 2xx. */
  inStream?: boolean;
  /** Epoch ms when an error response's headers arrived (status 400 and above). */
  receivedAt?: number;
  /**
   * Epoch ms when the failure reached the app: an error response's headers, else the moment the
   * stream broke. A retry's wait runs from here (docs/retry-policy.md, "The retry lifecycle").
   */
  errorAt?: number;
}

/**
 * A piece of a response arrived (its headers, a chunk of its body: keep-alive comments and pings
 * included), with the prompt progress a local server reported in it (llama.cpp's prompt_progress).
 * The guarded stream's liveness reads it (docs/retry-policy.md, "Liveness").
 */
export interface WireActivity {
  progress?: { processed: number; total: number };
}

/** One request's observation: headers to send with it, then what was seen. */
export interface HttpObservation {
  headers: Record<string, string>;
  finish(): ProviderFacts | undefined;
  /** Called for every piece of the response as it arrives, until finish(). */
  onActivity?(listener: (activity: WireActivity) => void): void;
}

export interface HttpFactsSource {
  begin(): HttpObservation;
}

/**
 * What an error body (or an error event inside a stream) says, as the classifier reads it: a new
 * field is declared and read here, and used where it decides (classify-error.ts, retry-hints.ts).
 */
export interface BodyFacts {
  /** The most specific code (errorCodes[0]), e.g. "rate_limit_error", "usage_limit_reached". */
  errorType?: string;
  /** Every code the error names, most specific first (details.error_code, ErrorInfo reasons, code, type, status). */
  errorCodes?: readonly string[];
  /** When to retry, as a duration: Google's RetryInfo.retryDelay ("32s"), or Codex's resets_in_seconds. */
  retryDelay?: string;
  /** Google's QuotaFailure quota ids, e.g. "GenerateRequestsPerDayPerProjectPerModel-FreeTier"; a per-day one means waiting will not help soon. */
  quotaIds?: readonly string[];
  /** The provider's own message (the SDK's error text may not carry it whole). */
  providerMessage?: string;
}

/** Longer messages are dumps; what classifies an error is near the start (chars). */
const MAX_MESSAGE_CHARS = 2000;

type Obj = Record<string, unknown>;

const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The object that describes the error, whichever envelope it came in; undefined when there is none. */
function errorObject(body: unknown): Obj | undefined {
  // Vertex and some proxies wrap the Google error in a one-element array.
  const root = Array.isArray(body) ? body[0] : body;
  if (!isObj(root)) return undefined;
  if (isObj(root.error)) return root.error;
  // OpenAI Responses: `{"type":"response.failed","response":{"error":{…}}}`.
  if (root.type === 'response.failed' && isObj(root.response)) {
    return isObj(root.response.error) ? root.response.error : { code: 'response_failed' };
  }
  // OpenAI Responses `error` event: the fields sit at the top level.
  if (root.type === 'error' && (str(root.code) || str(root.message))) return root;
  return undefined;
}

function fromDetails(details: unknown[], facts: BodyFacts & { errorCodes: string[] }): void {
  for (const detail of details) {
    if (!isObj(detail)) continue;
    const kind = str(detail['@type']) ?? '';
    if (kind.endsWith('google.rpc.ErrorInfo') && str(detail.reason)) facts.errorCodes.push(detail.reason as string);
    if (kind.endsWith('google.rpc.RetryInfo') && str(detail.retryDelay)) facts.retryDelay = detail.retryDelay as string;
    if (kind.endsWith('google.rpc.QuotaFailure')) {
      const ids = list(detail.violations).flatMap((v) => (isObj(v) && str(v.quotaId) ? [v.quotaId as string] : []));
      if (ids.length > 0) facts.quotaIds = [...(facts.quotaIds ?? []), ...ids];
    }
  }
}

/** The facts of one error object, or undefined when `body` is not an error at all. Never throws. */
export function errorFactsFromBody(body: unknown): BodyFacts | undefined {
  try {
    const error = errorObject(body);
    if (!error) return undefined;
    const facts: BodyFacts & { errorCodes: string[] } = { errorCodes: [] };
    // Anthropic's spend limit: `error.details.error_code` is sharper than `error.type`.
    if (isObj(error.details)) {
      const code = str(error.details.error_code);
      if (code) facts.errorCodes.push(code);
    }
    fromDetails(list(error.details), facts);
    // Codex's usage_limit_reached says when the limit resets.
    const resets = error.resets_in_seconds;
    if (facts.retryDelay === undefined && typeof resets === 'number' && Number.isFinite(resets) && resets >= 0)
      facts.retryDelay = `${resets}s`;
    const message = str(error.message);
    if (message) facts.providerMessage = message.slice(0, MAX_MESSAGE_CHARS);
    for (const key of ['code', 'type', 'status'] as const) {
      const value = str(error[key]);
      // Anthropic's envelope repeats type "error", which says nothing.
      if (value && value !== 'error' && !facts.errorCodes.includes(value)) facts.errorCodes.push(value);
    }
    const { errorCodes, ...rest } = facts;
    return errorCodes.length > 0 ? { ...rest, errorType: errorCodes[0], errorCodes } : rest;
  } catch {
    return undefined;
  }
}

// ---- the facts travel with the failed message ----

const factsByMessage = new WeakMap<object, ProviderFacts>();

export function attachProviderFacts(message: object, facts: ProviderFacts | undefined): void {
  if (facts) factsByMessage.set(message, facts);
}

export function providerFactsOf(message: object): ProviderFacts | undefined {
  return factsByMessage.get(message);
}

// Reads the structured facts out of one provider error object: an HTTP error body, or an error
// event inside a stream (Anthropic `event: error`, OpenAI Responses `error` / `response.failed`,
// a Chat Completions `{"error": …}` chunk, Gemini's bare JSON error), as the body's part of the
// one ProviderFacts shape (provider-facts.ts). Pure; the HTTP-facts recorder
// (src/main/node/http-facts.ts) calls it, and the classifier reads what it returns.
// The shapes and the order of the codes are described in docs/classification.md.

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

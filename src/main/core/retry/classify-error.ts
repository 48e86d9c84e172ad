// What ended a run, as one typed value, and its one judgement (docs/retry-policy.md, "The retry
// lifecycle"): a `Failure` is a provider's failure with the facts the LLM layer gathered
// (core/llm/failed-message.ts) or a tool's fault that ended the batch (core/tools/tool-gate.ts);
// the session classifies it once per failed run with classifyFailure. A tool's fault is already
// placed; a provider's goes through classifyError: structured facts first (stopReason, the
// session's own flags, a 401/403, the provider's error codes, the HTTP status), sharpened by the
// text, then the text patterns alone (the order and every provider's shapes: docs/classification.md).
// Its input is typed and trusted; it still never throws, and what it cannot place is `unexpected`.
import type { ErrorCategory, ToolFailureCategory } from '../../../shared/error-category';
import { DECISION_TABLE } from '../../../shared/retry-policy/decision-table';
import type { ProviderFacts } from './provider-facts';
import { parseRetryHint } from './retry-hints';

/** One failure: the provider's facts (status, headers, the body's codes, …) and what the session knows. */
export interface ErrorInput extends ProviderFacts {
  message?: string;
  /** The assistant message's stopReason; "aborted" means the user stopped it. */
  stopReason?: string;
  /** pi-ai's isContextOverflow() verdict. */
  isContextOverflow?: boolean;
  /** The app aborted a stream that brought no bytes for retry.timeoutMs. */
  timedOut?: boolean;
  /** Current time, epoch ms, for HTTP-date hints. Default Date.now(). */
  now?: number;
}

export interface Classification {
  category: ErrorCategory;
  /** The row's exception class (DECISION_TABLE[category].exceptionClass), or "Unclassifiable". */
  errorType: string;
  /** The wait the provider asked for, ms. */
  retryAfterMs?: number;
  source: 'structured' | 'pattern' | 'fallback';
}

export const UNCLASSIFIABLE = 'Unclassifiable';

/** Error bodies longer than this are dumps; the facts that matter come first (chars). */
const MAX_TEXT_CHARS = 64_000;

/** ErrorInput as the rules read it. */
interface Facts extends Pick<ErrorInput, 'stopReason' | 'status' | 'retryDelay' | 'headers' | 'now'> {
  /** The error text, with the provider's own message when it says more. */
  text: string;
  /** errorType and errorCodes together, most specific first. */
  codes: string[];
  quotaIds: readonly string[];
  isContextOverflow: boolean;
  timedOut: boolean;
}

// A status code as a whole token: "429 Rate limit" and "status=503" match, "14290" and "0.500" do not.
const code = (codes: string): string => `(?<![\\w.])(?:${codes})(?!\\w|\\.\\d)`;

const OVERFLOW_TEXT =
  /maximum context length|context window|context[_ ]length[_ ]exceeded|prompt is too long|prompt too long|too many tokens|request_too_large|input is too long|exceeds the (?:available )?context|greater than the context length|maximum prompt length|reduce the length of the messages|token limit exceeded|exceeded model token limit|input token count.{0,200}exceeds the maximum|request entity too large|payload too large/i;
// Throttling messages can mention tokens ("Too many tokens, please wait"): they are not overflow.
const NOT_OVERFLOW_TEXT = /rate[ _-]?limit|too many requests|throttl/i;
// Limits that waiting will not fix soon. Bare "quota" or "billing" is not one: OpenAI's
// per-minute 429 links to billing and Gemini's RESOURCE_EXHAUSTED says "exceeded your quota".
const USAGE_TEXT =
  /usage[ _-]?limit|usage_not_included|insufficient_quota|billing_hard_limit|spend(?:ing)? limit|credit balance is too low/i;
// A limit the provider says is per day: it frees up in hours, not seconds.
const DAILY_TEXT = /(?:requests?|tokens?) per day|\((?:RPD|TPD)\)|PerDay/;
const OVERLOADED_TEXT = /overloaded|high demand/i;
const TIMEOUT_TEXT = /timed out|time-?out|etimedout/i;

interface TextRule {
  category: ErrorCategory;
  pattern: RegExp;
  unless?: RegExp;
}

/** The text patterns, in precedence order: the first match wins (docs/classification.md, "The order"). */
const TEXT_RULES: readonly TextRule[] = [
  { category: 'aborted', pattern: /\b(?:request|operation) was aborted\b|\babort ?error\b/i, unless: TIMEOUT_TEXT },
  { category: 'context_overflow', pattern: OVERFLOW_TEXT, unless: NOT_OVERFLOW_TEXT },
  { category: 'usage_limit', pattern: USAGE_TEXT },
  { category: 'overloaded', pattern: OVERLOADED_TEXT },
  {
    category: 'rate_limit',
    pattern: new RegExp(
      `rate[ _-]?limit|too many requests|throttl|retry[ _]?delay|exceeded your current quota|quota exceeded|resource(?: has been)? exhausted|resource_exhausted|${code('429')}`,
      'i',
    ),
  },
  {
    category: 'auth',
    pattern: new RegExp(
      `${code('401|403')}|invalid[ _-]?(?:x-)?api[ _-]?key|incorrect api key|api[ _]key not (?:valid|found)|api_key_invalid|unauthori[sz]ed|permission|authentication|forbidden`,
      'i',
    ),
  },
  {
    category: 'server_error',
    pattern: new RegExp(
      `${code('500|502|503|504')}|service unavailable|server[ _]error|internal[ _]error|bad gateway|gateway time-?out|error (?:occurred )?while processing your request|upstream connect error`,
      'i',
    ),
  },
  { category: 'timeout', pattern: TIMEOUT_TEXT },
  {
    category: 'connection',
    pattern:
      /connection error|fetch failed|\bterminated\b|econnreset|econnrefused|econnaborted|socket hang up|network error|other side closed|enotfound|eai_again|epipe|und_err_socket|premature close/i,
  },
  {
    category: 'bad_request',
    pattern: new RegExp(`${code('400|404|422')}|bad request|unprocessable|invalid_request|not found`, 'i'),
  },
  {
    category: 'invalid_output',
    pattern: /unexpected token|is not valid json|json|could not parse|malformed|unexpected end of/i,
  },
];

const norm = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Provider error codes (Anthropic, OpenAI, Google, Codex), compared without case or separators. */
const PROVIDER_ERROR_TYPES: ReadonlyArray<readonly [ErrorCategory, readonly string[]]> = [
  [
    'rate_limit',
    [
      'rate_limit_error',
      'rate_limit_exceeded',
      'rate_limited',
      'too_many_requests',
      'resource_exhausted',
      'throttling_exception',
    ],
  ],
  ['overloaded', ['overloaded_error', 'overloaded', 'server_is_overloaded']],
  [
    'usage_limit',
    [
      'usage_limit_reached',
      'usage_not_included',
      'insufficient_quota',
      'quota_exceeded',
      'billing_hard_limit_reached',
      'enforced_spend_limit_reached',
      'billing_error',
    ],
  ],
  [
    'auth',
    [
      'authentication_error',
      'permission_error',
      'invalid_api_key',
      'api_key_invalid',
      'permission_denied',
      'unauthenticated',
    ],
  ],
  [
    'bad_request',
    [
      'invalid_request_error',
      'not_found_error',
      'invalid_argument',
      'not_found',
      'model_not_found',
      'failed_precondition',
    ],
  ],
  ['context_overflow', ['request_too_large', 'context_length_exceeded']],
  ['server_error', ['api_error', 'server_error', 'internal_error', 'internal', 'unavailable', 'service_unavailable']],
  ['timeout', ['timeout_error', 'timeout', 'deadline_exceeded', 'api_connection_timeout_error']],
  ['connection', ['api_connection_error', 'connection_error']],
];

const ERROR_TYPE_TO_CATEGORY: ReadonlyMap<string, ErrorCategory> = new Map([
  ...PROVIDER_ERROR_TYPES.flatMap(([category, names]) => names.map((name) => [norm(name), category] as const)),
  // The table's own exception class names are accepted too, so callers can pass a classification through.
  ...Object.entries(DECISION_TABLE).map(
    ([category, row]) => [norm(row.exceptionClass), category as ErrorCategory] as const,
  ),
]);

// When one error names several codes (Gemini: INVALID_ARGUMENT and API_KEY_INVALID; Anthropic:
// rate_limit_error and enforced_spend_limit_reached), the sharper verdict wins, in this order.
const CODE_PRECEDENCE: readonly ErrorCategory[] = [
  'auth',
  'usage_limit',
  'context_overflow',
  'overloaded',
  'rate_limit',
  'timeout',
  'server_error',
  'connection',
  'bad_request',
];
const rank = (category: ErrorCategory): number => {
  const at = CODE_PRECEDENCE.indexOf(category);
  return at === -1 ? CODE_PRECEDENCE.length : at;
};

function readFacts(input: ErrorInput): Facts {
  const message = input.message ?? '';
  const own = input.providerMessage;
  return {
    text: (own && !message.includes(own) ? `${message}\n${own}` : message).slice(0, MAX_TEXT_CHARS),
    stopReason: input.stopReason,
    status: input.status,
    codes: [...(input.errorType !== undefined ? [input.errorType] : []), ...(input.errorCodes ?? []).slice(0, 20)],
    retryDelay: input.retryDelay,
    quotaIds: (input.quotaIds ?? []).slice(0, 20),
    headers: input.headers,
    isContextOverflow: input.isContextOverflow === true,
    timedOut: input.timedOut === true,
    now: input.now,
  };
}

/** stopReason and the explicit flags: facts the caller established itself. */
function fromFlags(f: Facts): ErrorCategory | undefined {
  if (f.stopReason === 'aborted') return 'aborted';
  if (f.isContextOverflow) return 'context_overflow';
  if (f.timedOut) return 'timeout';
  return undefined;
}

function fromStatus(status: number): ErrorCategory | undefined {
  if (status === 429) return 'rate_limit';
  if (status === 529) return 'overloaded';
  if ([500, 502, 503, 504].includes(status)) return 'server_error';
  if (status === 408) return 'timeout';
  if (status === 401 || status === 403) return 'auth';
  if (status === 413) return 'context_overflow';
  if ([400, 404, 422].includes(status)) return 'bad_request';
  return undefined;
}

function fromCodes(codes: readonly string[]): ErrorCategory | undefined {
  let best: ErrorCategory | undefined;
  for (const name of codes) {
    const category = ERROR_TYPE_TO_CATEGORY.get(norm(name));
    if (category !== undefined && (best === undefined || rank(category) < rank(best))) best = category;
  }
  return best;
}

const isDaily = (f: Facts): boolean => f.quotaIds.some((id) => /PerDay/i.test(id)) || DAILY_TEXT.test(f.text);

/** A broad verdict, sharpened by the text: 400 + "maximum context length" is overflow. */
function refine(category: ErrorCategory, f: Facts): ErrorCategory {
  if (category === 'bad_request' && OVERFLOW_TEXT.test(f.text) && !NOT_OVERFLOW_TEXT.test(f.text))
    return 'context_overflow';
  // Anthropic words credit and spend limits as a 400 invalid_request_error or a plain 429.
  if ((category === 'bad_request' || category === 'rate_limit') && USAGE_TEXT.test(f.text)) return 'usage_limit';
  if (category === 'rate_limit' && isDaily(f)) return 'usage_limit';
  if (category === 'server_error' && OVERLOADED_TEXT.test(f.text)) return 'overloaded';
  return category;
}

function fromStructured(f: Facts): ErrorCategory | undefined {
  // A rejected key is auth whatever the body's type says (OpenAI answers 401 invalid_request_error).
  if (f.status === 401 || f.status === 403) return 'auth';
  // The codes are sharper than the status (insufficient_quota arrives as a 429).
  const category = fromCodes(f.codes) ?? (f.status !== undefined ? fromStatus(f.status) : undefined);
  return category === undefined ? undefined : refine(category, f);
}

function fromText(text: string): ErrorCategory | undefined {
  if (text.trim() === '') return undefined;
  return TEXT_RULES.find((rule) => rule.pattern.test(text) && !(rule.unless?.test(text) ?? false))?.category;
}

function place(f: Facts): Pick<Classification, 'category' | 'errorType' | 'source'> {
  const flagged = fromFlags(f) ?? fromStructured(f);
  if (flagged !== undefined)
    return { category: flagged, errorType: DECISION_TABLE[flagged].exceptionClass, source: 'structured' };
  const text = fromText(f.text);
  const matched = text === undefined ? undefined : refine(text, f);
  if (matched !== undefined)
    return { category: matched, errorType: DECISION_TABLE[matched].exceptionClass, source: 'pattern' };
  return { category: 'unexpected', errorType: UNCLASSIFIABLE, source: 'fallback' };
}

/** The category of one failure, with its exception class name and any retry hint. Never throws. */
export function classifyError(input: ErrorInput): Classification {
  try {
    const facts = readFacts(input);
    const placed = place(facts);
    const retryAfterMs = parseRetryHint({
      headers: facts.headers,
      message: facts.text,
      retryDelay: facts.retryDelay,
      limitHit: placed.category === 'rate_limit' || placed.category === 'usage_limit',
      now: facts.now,
    });
    return retryAfterMs === undefined ? placed : { ...placed, retryAfterMs };
  } catch {
    // A bug in a rule must not take the turn down: what cannot be placed is unexpected.
    return { category: 'unexpected', errorType: UNCLASSIFIABLE, source: 'fallback' };
  }
}

/** A tool failure that ended its batch: which row handles it, and what the errored turn says. */
export interface ToolFault {
  /** A sandbox or patch failure, or the model's invalid call (an unknown tool, arguments that fail the schema). */
  category: ToolFailureCategory | 'invalid_output';
  /** What happened, as the errored turn states it. */
  message: string;
  toolCallId: string;
  toolName: string;
}

export type Failure = { kind: 'provider'; facts: ErrorInput } | { kind: 'tool'; fault: ToolFault };

/** The failure's category, exception class and any retry hint. Never throws. */
export function classifyFailure(failure: Failure): Classification {
  if (failure.kind === 'provider') return classifyError(failure.facts);
  // A tool's fault is already placed: its category is the row (docs/tools.md, "Which failure is which").
  const { category } = failure.fault;
  return { category, errorType: DECISION_TABLE[category].exceptionClass, source: 'structured' };
}

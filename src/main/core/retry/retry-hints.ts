// Reads how long a provider asked us to wait before retrying: response headers (retry-after,
// retry-after-ms, x-ratelimit-reset*, anthropic-ratelimit-*-reset), Google's RetryInfo delay, or
// the error text ("try again in 20s"). When several are present, the one that belongs to the
// limit that was hit wins, never simply the largest (the order is in docs/classification.md).
// Called by classifyError; the decision table raises the backoff to the hint, or ends the chain
// when the hint is above retry.maxDelayMs.
import type { ProviderFacts } from './provider-facts';

/** The provider's headers (names matched case-insensitively) and RetryInfo.retryDelay, with the error text. */
export interface RetryHintInput extends Pick<ProviderFacts, 'headers' | 'retryDelay'> {
  /** The provider's error text. */
  message?: string;
  /**
   * Whether a rate or usage limit was hit. Reset headers ride on every response, so they are a
   * hint only then; retry-after, RetryInfo and "try again in" text always are. Default true.
   */
  limitHit?: boolean;
  /** The current time, epoch ms, for HTTP dates and epoch reset stamps. Default Date.now(). */
  now?: number;
}

/** Hints above this (7 days, ms) are parse accidents (an epoch read as a delta), not real waits. */
export const MAX_PLAUSIBLE_HINT_MS = 7 * 24 * 60 * 60 * 1000;

// Reset headers hold a delta in seconds, or an absolute epoch: values this large can only be
// timestamps (1e9 s is 2001; 1e12 ms is 2001 too).
const EPOCH_SECONDS_FLOOR = 1e9;
const EPOCH_MS_FLOOR = 1e12;

/** Longer text is a dumped body; hints sit near the start, and the regexes stay linear anyway. */
const MAX_SCANNED_CHARS = 64_000;

const UNIT_MS: ReadonlyArray<readonly [RegExp, number]> = [
  [/^(?:ms|msecs?|milliseconds?)$/, 1],
  [/^(?:s|secs?|seconds?)$/, 1000],
  [/^(?:m|mins?|minutes?)$/, 60_000],
  [/^(?:h|hrs?|hours?)$/, 3_600_000],
  [/^(?:d|days?)$/, 86_400_000],
];

// Longest alternatives first: "ms" before "m", "minutes" before "m", "seconds" before "s".
const UNIT_SOURCE = 'milliseconds?|msecs?|ms|seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d';
const PART_SOURCE = `(\\d+(?:\\.\\d+)?)\\s*(${UNIT_SOURCE})(?![a-z])`;
const DURATION_SOURCE = `\\d+(?:\\.\\d+)?\\s*(?:${UNIT_SOURCE})(?![a-z])(?:[\\s,]*(?:and\\s+)?\\d+(?:\\.\\d+)?\\s*(?:${UNIT_SOURCE})(?![a-z])){0,4}`;

/** "6m0s", "1.5s", "250ms", "2 minutes 30 seconds" → ms; undefined when it is not a duration. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim().toLowerCase();
  if (!new RegExp(`^${DURATION_SOURCE}$`).test(trimmed)) return undefined;
  let total = 0;
  for (const match of trimmed.matchAll(new RegExp(PART_SOURCE, 'g'))) {
    const factor = UNIT_MS.find(([re]) => re.test(match[2]))?.[1];
    if (factor === undefined) return undefined;
    total += Number(match[1]) * factor;
  }
  return total;
}

// "retry in 30s", "try again in ~60 min", "Please retry after 5 seconds", "resets in 2m",
// "retry-after: 10", and Google's "retryDelay": "30s" (also when the JSON arrives escaped).
const MESSAGE_TRIGGER = new RegExp(
  [
    `(?:retry|try\\s+again)\\s+(?:in|after)\\s+(?:~|about\\s+|approximately\\s+)?`,
    `resets?\\s+(?:in|after)\\s+(?:~|about\\s+)?`,
    `retry[-_ ]after(?:[-_]ms)?\\s*[:=]?\\s*`,
    `retry[_ ]?delay\\\\?"?\\s*[:=]\\s*\\\\?"?`,
  ]
    .map((s) => `(?:${s})`)
    .join('|'),
  'gi',
);
const DURATION_AT_START = new RegExp(`^(?:${DURATION_SOURCE})`, 'i');
// A bare number, but not the start of "5 attempts" or of a longer number.
const BARE_NUMBER_AT_START = /^(\d+(?:\.\d+)?)(?!\d|\.\d|\s*[a-z%])/i;

/** Every wait the text asks for, ms. A number without a unit is seconds, as in Retry-After. */
export function hintsFromMessage(message: string): number[] {
  const text = message.slice(0, MAX_SCANNED_CHARS);
  const found: number[] = [];
  for (const trigger of text.matchAll(MESSAGE_TRIGGER)) {
    const rest = text.slice((trigger.index ?? 0) + trigger[0].length, (trigger.index ?? 0) + trigger[0].length + 80);
    const duration = DURATION_AT_START.exec(rest);
    if (duration) {
      const ms = parseDuration(duration[0]);
      if (ms !== undefined) found.push(ms);
      continue;
    }
    const bare = BARE_NUMBER_AT_START.exec(rest);
    if (bare) found.push(Number(bare[1]) * (/retry[-_ ]after[-_]ms/i.test(trigger[0]) ? 1 : 1000));
  }
  return found;
}

/** A Retry-After value: delay-seconds or an HTTP date. */
function parseRetryAfter(value: string, now: number): number | undefined {
  const trimmed = value.trim();
  if (/^-?\d+(?:\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  return parseDate(trimmed, now);
}

/** A reset value: a duration ("6m0s"), seconds, an epoch stamp, or a date (RFC 3339, HTTP). */
function parseReset(value: string, now: number): number | undefined {
  const trimmed = value.trim();
  if (/^-?\d+(?:\.\d+)?$/.test(trimmed)) {
    const n = Number(trimmed);
    if (n >= EPOCH_MS_FLOOR) return n - now;
    if (n >= EPOCH_SECONDS_FLOOR) return n * 1000 - now;
    return n * 1000;
  }
  return parseDuration(trimmed) ?? parseDate(trimmed, now);
}

function parseDate(value: string, now: number): number | undefined {
  // Date.parse accepts bare words like "5" in some engines; a date has letters or dashes in it.
  if (!/[a-z]|\d-\d/i.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isFinite(at) ? at - now : undefined;
}

function isPlausible(ms: number | undefined): ms is number {
  return ms !== undefined && Number.isFinite(ms) && ms >= 0 && ms <= MAX_PLAUSIBLE_HINT_MS;
}

/** Header names lower-cased. */
function lowerHeaders(headers: Record<string, string> | undefined): Map<string, string> {
  return new Map(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
}

/** retry-after-ms, then retry-after: what the provider asked for in so many words. */
function explicitHeaderHint(headers: Map<string, string>, now: number): number | undefined {
  const ms = headers.get('retry-after-ms');
  const fromMs = ms !== undefined && /^\s*-?\d+(?:\.\d+)?\s*$/.test(ms) ? Number(ms) : undefined;
  if (isPlausible(fromMs)) return fromMs;
  const after = headers.get('retry-after');
  const fromAfter = after !== undefined ? parseRetryAfter(after, now) : undefined;
  return isPlausible(fromAfter) ? fromAfter : undefined;
}

type LimitKind = 'requests' | 'tokens' | 'input-tokens' | 'output-tokens' | 'any';

interface Reset {
  kind: LimitKind;
  ms: number;
  /** Its remaining-count header says 0. */
  exhausted: boolean;
}

// x-ratelimit-reset (OpenRouter, generic), x-ratelimit-reset-{requests,tokens} (OpenAI),
// anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-reset (Anthropic).
const RESET_HEADER =
  /^(?:x-ratelimit-reset(?:-(requests|tokens))?|anthropic-ratelimit-(requests|tokens|input-tokens|output-tokens)-reset)$/;

function resetsOf(headers: Map<string, string>, now: number): Reset[] {
  const out: Reset[] = [];
  for (const [name, value] of headers) {
    const match = RESET_HEADER.exec(name);
    if (!match) continue;
    const ms = parseReset(value, now);
    if (!isPlausible(ms)) continue;
    const kind = (match[1] ?? match[2] ?? 'any') as LimitKind;
    const remaining = match[2]
      ? headers.get(`anthropic-ratelimit-${kind}-remaining`)
      : headers.get(kind === 'any' ? 'x-ratelimit-remaining' : `x-ratelimit-remaining-${kind}`);
    out.push({ kind, ms, exhausted: remaining?.trim() === '0' });
  }
  return out;
}

/**
 * Rate-limit pacing (docs/retry-policy.md, "Rate-limit pacing"): how long until every limit whose
 * remaining count is 0 has reset, ms, from the same reset headers; undefined when none is used up.
 */
export function exhaustedLimitsResetMs(headers: Record<string, string> | undefined, now: number): number | undefined {
  const resets = resetsOf(lowerHeaders(headers), now).filter((reset) => reset.exhausted);
  return resets.length > 0 ? Math.max(...resets.map((reset) => reset.ms)) : undefined;
}

/** The retry-after-ms / retry-after header alone, ms; undefined when absent or implausible. */
export function retryAfterHeaderMs(headers: Record<string, string> | undefined, now: number): number | undefined {
  return explicitHeaderHint(lowerHeaders(headers), now);
}

/** Which limit the message says was hit ("… input tokens per minute", "(RPM)"), if it says. */
function namedLimit(message: string): LimitKind | undefined {
  if (/input[ _-]tokens?/i.test(message)) return 'input-tokens';
  if (/output[ _-]tokens?/i.test(message)) return 'output-tokens';
  if (/tokens? per (?:min|minute|day)|\((?:TPM|TPD)\)|request tokens/i.test(message)) return 'tokens';
  if (/requests? per (?:min|minute|day)|\((?:RPM|RPD)\)|number of requests/i.test(message)) return 'requests';
  return undefined;
}

/** The reset of the named limit; else the soonest of the exhausted limits; else the soonest. */
function resetHint(headers: Map<string, string>, message: string, now: number): number | undefined {
  const resets = resetsOf(headers, now);
  if (resets.length === 0) return undefined;
  const named = namedLimit(message.slice(0, MAX_SCANNED_CHARS));
  const soonest = (list: Reset[]): number | undefined =>
    list.length > 0 ? Math.min(...list.map((r) => r.ms)) : undefined;
  const ofNamed = named ? resets.filter((r) => r.kind === named) : [];
  const ofNamedFamily = named?.endsWith('-tokens') ? resets.filter((r) => r.kind === 'tokens') : [];
  return soonest(ofNamed) ?? soonest(ofNamedFamily) ?? soonest(resets.filter((r) => r.exhausted)) ?? soonest(resets);
}

/**
 * The wait in ms the provider asked for, or undefined when there is none. In order: retry-after-ms
 * / retry-after, Google's RetryInfo, the first "try again in …" of the text, then (only when a
 * limit was hit) the reset headers. Negative, non-finite and implausibly large values are skipped.
 * Never throws.
 */
export function parseRetryHint(input: RetryHintInput): number | undefined {
  try {
    // Typed and trusted (the facts were read at the edge); a value can still be out of range.
    const now = input.now !== undefined && Number.isFinite(input.now) ? input.now : Date.now();
    const headers = lowerHeaders(input.headers);
    const message = input.message ?? '';
    const delay = input.retryDelay !== undefined ? parseDuration(input.retryDelay) : undefined;
    const candidates: Array<() => number | undefined> = [
      () => explicitHeaderHint(headers, now),
      () => delay,
      () => hintsFromMessage(message).find(isPlausible),
      () => (input.limitHit === false ? undefined : resetHint(headers, message, now)),
    ];
    for (const candidate of candidates) {
      const ms = candidate();
      if (isPlausible(ms)) return Math.round(ms);
    }
    return undefined;
  } catch {
    return undefined;
  }
}

// Reads how long a provider asked us to wait before retrying, from response headers
// (retry-after, retry-after-ms, x-ratelimit-reset*) or from the error text ("try again in 20s",
// Google's "retryDelay": "30s"). Called by classifyError; the decision table then raises the
// backoff to the hint, or ends the chain when the hint is above retry.maxDelayMs.

export interface RetryHintInput {
  /** Response headers; names are matched case-insensitively. */
  headers?: Record<string, string>;
  /** The provider's error text. */
  message?: string;
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

/** An x-ratelimit-reset value: a duration ("6m0s"), seconds, an epoch stamp, or a date. */
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

function hintsFromHeaders(headers: Record<string, string>, now: number): number[] {
  const found: Array<number | undefined> = [];
  for (const [rawName, rawValue] of Object.entries(headers)) {
    if (typeof rawValue !== 'string' && typeof rawValue !== 'number') continue;
    const name = rawName.toLowerCase();
    const value = String(rawValue);
    if (name === 'retry-after-ms') found.push(/^\s*-?\d+(?:\.\d+)?\s*$/.test(value) ? Number(value) : undefined);
    else if (name === 'retry-after') found.push(parseRetryAfter(value, now));
    else if (
      name === 'x-ratelimit-reset' ||
      name === 'x-ratelimit-reset-requests' ||
      name === 'x-ratelimit-reset-tokens'
    ) {
      found.push(parseReset(value, now));
    }
  }
  return found.filter((ms): ms is number => ms !== undefined);
}

function isPlausible(ms: number): boolean {
  return Number.isFinite(ms) && ms >= 0 && ms <= MAX_PLAUSIBLE_HINT_MS;
}

/**
 * The wait in ms a provider asked for, the largest hint found, or undefined when there is none.
 * Negative, non-finite and implausibly large values are ignored. Never throws.
 */
export function parseRetryHint(input: RetryHintInput): number | undefined {
  try {
    if (typeof input !== 'object' || input === null) return undefined;
    const now = typeof input.now === 'number' && Number.isFinite(input.now) ? input.now : Date.now();
    const hints: number[] = [];
    if (typeof input.headers === 'object' && input.headers !== null)
      hints.push(...hintsFromHeaders(input.headers, now));
    if (typeof input.message === 'string') hints.push(...hintsFromMessage(input.message));
    const plausible = hints.filter(isPlausible);
    return plausible.length > 0 ? Math.round(Math.max(...plausible)) : undefined;
  } catch {
    return undefined;
  }
}

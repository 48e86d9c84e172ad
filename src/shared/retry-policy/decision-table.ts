// The retry decision table — its rows are data in decision-rows.ts — and the functions that read it
// with the person's settings applied: resolveRow (one row, used by decideRetry in the main process),
// describeTable (every row, which the settings pane renders) and computeBackoffMs (the wait a row
// gives before a retry, for every retry decideRetry allows), with how waits are written for people.
// Shared so that both processes read the one table; docs/retry-policy.md explains each row. Pure:
// no clock, and the random draw for jitter comes in as an argument.
import { ERROR_CATEGORIES, isErrorCategory, type ErrorCategory } from '../error-category';
import { DECISION_ROWS, type BackoffKind, type DecisionRow } from './decision-rows';
import type { RetrySettings, RowOverride } from '../settings';
import { RETRY_DEFAULTS } from '../settings-values';
import { RETRY_SETTING_RANGES, ROW_OVERRIDE_RANGES, clampToRange } from './ranges';
import { RETRYABLE_CATEGORIES } from './retryable';

export type { BackoffKind, BackoffSpec, DecisionRow } from './decision-rows';

const TABLE: Record<ErrorCategory, DecisionRow> = { ...DECISION_ROWS };
for (const row of Object.values(TABLE)) Object.freeze(Object.freeze(row).backoff);
export const DECISION_TABLE: Readonly<Record<ErrorCategory, Readonly<DecisionRow>>> = Object.freeze(TABLE);

/** Where an effective value came from: the table itself, the retry.* settings, or a row override. */
export type FieldOrigin = 'table' | 'inherited' | 'overridden';

export interface EffectiveRow {
  category: ErrorCategory;
  action: DecisionRow['action'];
  /** Attempts including the first try; 0 for rows that never retry. */
  maxAttempts: number;
  backoff: BackoffKind;
  /** Whether uniform 0…jitterMaxMs is added to the wait. */
  jitter: boolean;
  /** Fixed wait of a linear row, ms; exponential rows use baseDelayMs, ms. */
  delayMs: number;
  exceptionClass: string;
  note: string;
  isOverridable: boolean;
  origin: { maxAttempts: FieldOrigin; backoff: FieldOrigin; jitter: FieldOrigin; delayMs: FieldOrigin };
}

const isOverridableCategory = (category: ErrorCategory): boolean =>
  (RETRYABLE_CATEGORIES as readonly string[]).includes(category);

/**
 * The retry.* settings with anything missing, malformed or out of range replaced: numbers are
 * clamped to the ranges the settings schema enforces (ranges.ts), so the table never meets a
 * value the settings pane would have refused.
 */
export function clampRetrySettings(settings: RetrySettings): RetrySettings {
  const d = RETRY_DEFAULTS;
  const r = RETRY_SETTING_RANGES;
  const s: Partial<RetrySettings> = typeof settings === 'object' && settings !== null ? settings : {};
  return {
    enabled: typeof s.enabled === 'boolean' ? s.enabled : d.enabled,
    maxRetries: clampToRange(s.maxRetries, r.maxRetries, d.maxRetries),
    baseDelayMs: clampToRange(s.baseDelayMs, r.baseDelayMs, d.baseDelayMs),
    maxDelayMs: clampToRange(s.maxDelayMs, r.maxDelayMs, d.maxDelayMs),
    jitterMaxMs: clampToRange(s.jitterMaxMs, r.jitterMaxMs, d.jitterMaxMs),
    timeoutMs: clampToRange(s.timeoutMs, r.timeoutMs, d.timeoutMs),
    keepAliveLimitMinutes: clampToRange(s.keepAliveLimitMinutes, r.keepAliveLimitMinutes, d.keepAliveLimitMinutes),
    policy: typeof s.policy === 'object' && s.policy !== null ? s.policy : {},
    scheduleLongWaits: s.scheduleLongWaits === true,
  };
}

function overrideFor(category: ErrorCategory, settings: RetrySettings): RowOverride {
  if (!isOverridableCategory(category)) return {};
  const override = (settings.policy as Partial<Record<ErrorCategory, RowOverride>>)[category];
  return typeof override === 'object' && override !== null ? override : {};
}

/** One row after settings: inherited attempts resolved, overrides applied (retryable rows only). */
export function resolveRow(category: ErrorCategory, settings: RetrySettings): EffectiveRow {
  const s = clampRetrySettings(settings);
  const effectiveCategory: ErrorCategory = isErrorCategory(category) ? category : 'unexpected';
  const row = DECISION_TABLE[effectiveCategory];
  const o = overrideFor(effectiveCategory, s);
  const tableKind = row.backoff.kind;
  const tableJitter = row.backoff.kind === 'exponential' && row.backoff.jitter;
  const tableDelayMs = row.backoff.kind === 'linear' ? row.backoff.delayMs : s.baseDelayMs;

  const backoff: BackoffKind = o.backoff ?? tableKind;
  const maxAttempts =
    o.maxAttempts !== undefined
      ? clampToRange(o.maxAttempts, ROW_OVERRIDE_RANGES.maxAttempts, 1)
      : row.maxAttempts === 'inherit'
        ? s.maxRetries + 1
        : row.maxAttempts;
  // A row switched to linear without its own delay falls back to baseDelayMs, which is what its
  // first exponential wait would have been.
  const delayMs =
    backoff === 'linear'
      ? clampToRange(o.delayMs, ROW_OVERRIDE_RANGES.delayMs, tableKind === 'linear' ? tableDelayMs : s.baseDelayMs)
      : s.baseDelayMs;
  const delayOrigin: FieldOrigin =
    backoff === 'linear' && o.delayMs !== undefined
      ? 'overridden'
      : backoff === 'linear' && tableKind === 'linear'
        ? 'table'
        : 'inherited';

  return {
    category: effectiveCategory,
    action: row.action,
    maxAttempts,
    backoff,
    jitter: backoff === 'none' ? false : (o.jitter ?? tableJitter),
    delayMs: backoff === 'none' ? 0 : delayMs,
    exceptionClass: row.exceptionClass,
    note: row.note,
    isOverridable: isOverridableCategory(effectiveCategory),
    origin: {
      maxAttempts: o.maxAttempts !== undefined ? 'overridden' : row.maxAttempts === 'inherit' ? 'inherited' : 'table',
      backoff: o.backoff !== undefined ? 'overridden' : 'table',
      jitter: o.jitter !== undefined ? 'overridden' : 'table',
      delayMs: backoff === 'none' ? 'table' : delayOrigin,
    },
  };
}

/** The values a row would have without its override: what the pane shows as "inherited". */
export type InheritedValues = Pick<EffectiveRow, 'maxAttempts' | 'backoff' | 'jitter' | 'delayMs'>;

export interface DescribedRow extends EffectiveRow {
  inherited: InheritedValues;
  /** The row's override as stored in retry.policy; empty when the row inherits everything. */
  override: RowOverride;
}

/** The effective table in display order (ERROR_CATEGORIES), as the settings pane renders it. */
export function describeTable(settings: RetrySettings): DescribedRow[] {
  const s = clampRetrySettings(settings);
  const withoutOverrides: RetrySettings = { ...s, policy: {} };
  return ERROR_CATEGORIES.map((category) => {
    const bare = resolveRow(category, withoutOverrides);
    return {
      ...resolveRow(category, s),
      inherited: { maxAttempts: bare.maxAttempts, backoff: bare.backoff, jitter: bare.jitter, delayMs: bare.delayMs },
      override: overrideFor(category, s),
    };
  });
}

/** "120 s", "1.5 s": the seconds users read in reasons and banners. */
export function formatSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/**
 * The reason a chain ends when the provider asks for a wait above retry.maxDelayMs. The decision
 * record carries both waits as numbers (hintMs, maxDelayMs), which the chat reads; the text is read
 * back only for records stored before they were kept (readWaitTooLong, by the history's row reader).
 */
export function waitTooLongReason(hintMs: number, maxDelayMs: number): string {
  return `provider asked to wait ${formatSeconds(hintMs)}, above the ${formatSeconds(maxDelayMs)} maximum delay`;
}

/**
 * The longest wait a retry is scheduled for (docs/retry-policy.md, "Scheduled retries"): a provider
 * that names a later time ends the chain as a wait above the maximum delay always did.
 */
export const SCHEDULE_LIMIT_MS = 24 * 60 * 60 * 1000;

/** The reason of a retry scheduled for the time the provider named, its wait above retry.maxDelayMs. */
export function scheduledReason(next: string, hintMs: number, maxDelayMs: number): string {
  return `${next} scheduled in ${formatSeconds(hintMs)}, as the provider asked (above the ${formatSeconds(maxDelayMs)} maximum delay)`;
}

/** The two waits of a waitTooLongReason found in a text (an older stored decision's reason), or null. */
export function readWaitTooLong(text: string): { waitSeconds: number; maxSeconds: number } | null {
  const match = /provider asked to wait ([\d.]+) s, above the ([\d.]+) s maximum delay/.exec(text);
  return match ? { waitSeconds: Number(match[1]), maxSeconds: Number(match[2]) } : null;
}

/** Uniform draw in [0, 1); a broken random source counts as 0 so waits stay finite. */
function safeRandom(random: () => number): number {
  const r = random();
  return typeof r === 'number' && Number.isFinite(r) ? Math.min(Math.max(r, 0), 1) : 0;
}

/**
 * The wait the row's backoff gives for this attempt (1-based), capped at retry.maxDelayMs, ms.
 * Exponential: baseDelayMs × 2^(attempt−1); linear: the row's fixed delay; jitter rows add
 * random() × jitterMaxMs.
 */
export function computeBackoffMs(
  row: EffectiveRow,
  attempt: number,
  settings: RetrySettings,
  random: () => number,
): number {
  const s = clampRetrySettings(settings);
  if (row.backoff === 'none') return 0;
  // attempt is at most the attempts ceiling here, so 2^(attempt−1) stays small; the min() is a belt.
  const base = row.backoff === 'linear' ? row.delayMs : s.baseDelayMs * 2 ** Math.min(attempt - 1, 30);
  const jitter = row.jitter ? safeRandom(random) * s.jitterMaxMs : 0;
  return Math.min(Math.round(base + jitter), s.maxDelayMs);
}

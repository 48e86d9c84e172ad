// The retry decision table of SPEC §4 as data, and the pure decideRetry() that applies it.
// The retry controller calls decideRetry() after every failed attempt; the settings pane shows
// describeTable(); classifyError() takes policy B's exception class names from the rows.
// Nothing here sleeps, reads a clock or draws randomness except through its arguments.
import {
  ERROR_CATEGORIES,
  RETRYABLE_CATEGORIES,
  isErrorCategory,
  type ErrorCategory,
} from '../../shared/error-category';
import type { DecisionAction } from '../../shared/history';
import { DEFAULT_SETTINGS, type RetrySettings, type RowOverride } from '../../shared/settings';

export type BackoffSpec =
  { kind: 'exponential'; jitter: boolean } | { kind: 'linear'; delayMs: number } | { kind: 'none' };
export type BackoffKind = BackoffSpec['kind'];

export interface DecisionRow {
  action: DecisionAction;
  /** Attempts including the first try; 'inherit' = retry.maxRetries + 1. */
  maxAttempts: number | 'inherit';
  backoff: BackoffSpec;
  /** Policy B's exception class for this category. */
  exceptionClass: string;
  note: string;
}

const EXP_JITTER: BackoffSpec = { kind: 'exponential', jitter: true };
const EXP: BackoffSpec = { kind: 'exponential', jitter: false };
const NONE: BackoffSpec = { kind: 'none' };
const abortRow = (exceptionClass: string, note: string): DecisionRow => ({
  action: 'abort',
  maxAttempts: 0,
  backoff: NONE,
  exceptionClass,
  note,
});

/** The single source of truth (SPEC §4, policy B §3). */
const TABLE: Record<ErrorCategory, DecisionRow> = {
  rate_limit: {
    action: 'retry',
    maxAttempts: 5,
    backoff: EXP_JITTER,
    exceptionClass: 'ModelRateLimitError',
    note: '429; at most 5 attempts',
  },
  timeout: {
    action: 'retry',
    maxAttempts: 3,
    backoff: { kind: 'linear', delayMs: 10_000 },
    exceptionClass: 'ModelTimeoutError',
    note: 'no bytes for retry.timeoutMs (30 s)',
  },
  connection: {
    action: 'retry',
    maxAttempts: 3,
    backoff: EXP_JITTER,
    exceptionClass: 'ModelConnectionError',
    note: 'transient network failure',
  },
  invalid_output: {
    action: 'retry',
    maxAttempts: 3,
    backoff: { kind: 'linear', delayMs: 5_000 },
    exceptionClass: 'InvalidModelOutputError',
    note: 'malformed stream or JSON; abort after 3',
  },
  overloaded: {
    action: 'retry',
    maxAttempts: 'inherit',
    backoff: EXP,
    exceptionClass: 'ModelOverloadedError',
    note: 'provider overloaded',
  },
  server_error: {
    action: 'retry',
    maxAttempts: 'inherit',
    backoff: EXP,
    exceptionClass: 'ModelServerError',
    note: '500/502/503/504',
  },
  usage_limit: {
    action: 'retry',
    maxAttempts: 'inherit',
    backoff: EXP,
    exceptionClass: 'ModelUsageLimitError',
    note: 'switch credential first; then wait',
  },
  context_overflow: {
    action: 'compact',
    maxAttempts: 0,
    backoff: NONE,
    exceptionClass: 'ContextOverflowError',
    note: 'compaction path, not a retry',
  },
  auth: abortRow('ModelAuthError', '401/403; fix the key'),
  bad_request: abortRow('ModelBadRequestError', '400/404/422; the same request fails again'),
  sandbox: abortRow('SandboxExecutionError', 'abort at once; self-heal is separate'),
  sandbox_security: abortRow('SandboxSecurityError', 'abort at once; audit log first'),
  patch_apply: abortRow('PatchApplyError', 'abort at once'),
  aborted: abortRow('RequestAbortedError', 'the user stopped it'),
  unexpected: abortRow('UnexpectedSystemError', 'includes unclassifiable errors; never retried'),
};
for (const row of Object.values(TABLE)) Object.freeze(Object.freeze(row).backoff);
export const DECISION_TABLE: Readonly<Record<ErrorCategory, Readonly<DecisionRow>>> = Object.freeze(TABLE);

/** Where an effective value came from: the table itself, the retry.* settings, or a row override. */
export type FieldOrigin = 'table' | 'inherited' | 'overridden';

export interface EffectiveRow {
  category: ErrorCategory;
  action: DecisionAction;
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

/** Hard ceiling on attempts whatever the settings say (the schema allows 1–10). */
export const MAX_ATTEMPTS_CEILING = 10;

const isOverridableCategory = (category: ErrorCategory): boolean =>
  (RETRYABLE_CATEGORIES as readonly string[]).includes(category);

function finiteInt(value: unknown, fallback: number, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.round(value)));
}

/** The retry.* numbers with anything missing or out of range replaced by the defaults. */
function safeSettings(settings: RetrySettings): RetrySettings {
  const d = DEFAULT_SETTINGS.retry;
  const s: Partial<RetrySettings> = typeof settings === 'object' && settings !== null ? settings : {};
  return {
    enabled: typeof s.enabled === 'boolean' ? s.enabled : d.enabled,
    maxRetries: finiteInt(s.maxRetries, d.maxRetries, 0, MAX_ATTEMPTS_CEILING - 1),
    baseDelayMs: finiteInt(s.baseDelayMs, d.baseDelayMs, 1, 3_600_000),
    maxDelayMs: finiteInt(s.maxDelayMs, d.maxDelayMs, 1, 3_600_000),
    jitterMaxMs: finiteInt(s.jitterMaxMs, d.jitterMaxMs, 0, 60_000),
    timeoutMs: finiteInt(s.timeoutMs, d.timeoutMs, 1, 3_600_000),
    policy: typeof s.policy === 'object' && s.policy !== null ? s.policy : {},
  };
}

function overrideFor(category: ErrorCategory, settings: RetrySettings): RowOverride {
  if (!isOverridableCategory(category)) return {};
  const override = (settings.policy as Partial<Record<ErrorCategory, RowOverride>>)[category];
  return typeof override === 'object' && override !== null ? override : {};
}

/** One row after settings: inherited attempts resolved, overrides applied (retryable rows only). */
export function resolveRow(category: ErrorCategory, settings: RetrySettings): EffectiveRow {
  const s = safeSettings(settings);
  const row = DECISION_TABLE[isErrorCategory(category) ? category : 'unexpected'];
  const effectiveCategory: ErrorCategory = isErrorCategory(category) ? category : 'unexpected';
  const o = overrideFor(effectiveCategory, s);
  const tableKind = row.backoff.kind;
  const tableJitter = row.backoff.kind === 'exponential' && row.backoff.jitter;
  const tableDelayMs = row.backoff.kind === 'linear' ? row.backoff.delayMs : s.baseDelayMs;

  const backoff: BackoffKind = o.backoff ?? tableKind;
  const maxAttempts =
    o.maxAttempts !== undefined
      ? finiteInt(o.maxAttempts, 1, 1, MAX_ATTEMPTS_CEILING)
      : row.maxAttempts === 'inherit'
        ? s.maxRetries + 1
        : row.maxAttempts;
  // A row switched to linear without its own delay falls back to baseDelayMs, which is what its
  // first exponential wait would have been.
  const delayMs =
    backoff === 'linear'
      ? finiteInt(o.delayMs, tableKind === 'linear' ? tableDelayMs : s.baseDelayMs, 0, 3_600_000)
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

/** The effective table in display order, for the settings pane. */
export function describeTable(settings: RetrySettings): EffectiveRow[] {
  return ERROR_CATEGORIES.map((category) => resolveRow(category, settings));
}

export interface DecisionContext {
  /** True when a usage limit was handled by switching to another credential or fallback model. */
  credentialSwitched?: boolean;
  taskType?: string;
  modelId?: string;
  provider?: string;
  sessionId?: string;
  turnId?: string | null;
}

export interface RetryDecision {
  action: DecisionAction;
  reason: string;
  /** The wait before the next attempt, ms; 0 unless action is 'retry'. */
  waitMs: number;
  shouldRetry: boolean;
  /** The row's attempts including the first try; 0 for rows that never retry. */
  maxAttempts: number;
  category: ErrorCategory;
  backoff: BackoffKind;
  /** The provider's retry hint, ms, when there was one. */
  hintMs?: number;
  /** Set when the chain ends because the provider asked for more than retry.maxDelayMs. */
  exceedsMaxDelay?: boolean;
  /** The failed attempt this decision is for, 1-based; absent when the given number was invalid. */
  attempt?: number;
}

export interface DecisionError {
  category: ErrorCategory;
  /** The provider's retry hint, ms. */
  retryAfterMs?: number;
  /** The classification's exception class; "Unclassifiable" changes only the reason. */
  errorType?: string;
}

/** "120 s", "1.5 s": the seconds users read in reasons and banners. */
export function formatSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** Uniform draw in [0, 1); a broken random source counts as 0 so waits stay finite. */
function safeRandom(random: () => number): number {
  const r = random();
  return typeof r === 'number' && Number.isFinite(r) ? Math.min(Math.max(r, 0), 1) : 0;
}

/** The wait the row's backoff gives for this attempt, capped at maxDelayMs, ms. */
export function computeBackoffMs(
  row: EffectiveRow,
  attempt: number,
  settings: RetrySettings,
  random: () => number,
): number {
  const s = safeSettings(settings);
  if (row.backoff === 'none') return 0;
  // attempt is at most MAX_ATTEMPTS_CEILING here, so 2^(attempt−1) stays small; the min() is a belt.
  const base = row.backoff === 'linear' ? row.delayMs : s.baseDelayMs * 2 ** Math.min(attempt - 1, 30);
  const jitter = row.jitter ? safeRandom(random) * s.jitterMaxMs : 0;
  return Math.min(Math.round(base + jitter), s.maxDelayMs);
}

type DecisionBase = Pick<RetryDecision, 'category' | 'maxAttempts' | 'backoff' | 'attempt'>;

function stop(
  base: DecisionBase,
  action: DecisionAction,
  reason: string,
  extra: Partial<RetryDecision> = {},
): RetryDecision {
  return { ...base, action, reason, waitMs: 0, shouldRetry: false, ...extra };
}

function notRetryableReason(row: EffectiveRow, errorType: string | undefined): string {
  if (row.action === 'compact') return 'context overflow: handed to compaction, not retried';
  if (errorType === 'Unclassifiable') return 'unclassifiable error: aborted at once, never retried';
  return `${row.category} (${row.exceptionClass}) is not retryable: aborted at once`;
}

/**
 * Apply the table to one failed attempt. `attempt` is the attempt that just failed, 1-based, which
 * is also the number of the retry about to be made. `random` draws the jitter in [0, 1); default
 * Math.random (tests pass a fixed one). Pure and total: never throws, every path ends.
 */
export function decideRetry(
  error: DecisionError,
  attempt: number,
  context: DecisionContext,
  settings: RetrySettings,
  random: () => number = Math.random,
): RetryDecision {
  const isObject = typeof error === 'object' && error !== null;
  const category: ErrorCategory = isObject && isErrorCategory(error.category) ? error.category : 'unexpected';
  try {
    const errorType = isObject && typeof error.errorType === 'string' ? error.errorType : undefined;
    const s = safeSettings(settings);
    const row = resolveRow(category, s);
    const isValidAttempt = typeof attempt === 'number' && Number.isInteger(attempt) && attempt > 0;
    const base: DecisionBase = {
      category,
      maxAttempts: row.action === 'retry' ? row.maxAttempts : 0,
      backoff: row.backoff,
      ...(isValidAttempt ? { attempt } : {}),
    };
    if (row.action !== 'retry') return stop(base, row.action, notRetryableReason(row, errorType));
    if (!isValidAttempt) return stop(base, 'abort', `invalid attempt number ${String(attempt)}: aborted`);
    if (!s.enabled) return stop(base, 'abort', 'auto-retry is turned off');
    if (attempt >= row.maxAttempts) {
      return stop(base, 'abort', `${category}: ${row.maxAttempts} of ${row.maxAttempts} attempts used, giving up`);
    }
    return retryWithWait(base, row, attempt, context, s, isObject ? error.retryAfterMs : undefined, random);
  } catch (caught) {
    const message = caught instanceof Error ? caught.message : String(caught);
    return stop({ category, maxAttempts: 0, backoff: 'none' }, 'abort', `retry decision failed (${message}): aborted`);
  }
}

function retryWithWait(
  base: DecisionBase,
  row: EffectiveRow,
  attempt: number,
  context: DecisionContext,
  settings: RetrySettings,
  retryAfterMs: number | undefined,
  random: () => number,
): RetryDecision {
  const next = `retry ${attempt} of ${row.maxAttempts - 1}`;
  if (typeof context === 'object' && context !== null && context.credentialSwitched === true) {
    return {
      ...base,
      action: 'retry',
      shouldRetry: true,
      waitMs: 0,
      reason: `${row.category}: switched credential, ${next} at once`,
    };
  }
  const backoffMs = computeBackoffMs(row, attempt, settings, random);
  const hintMs =
    typeof retryAfterMs === 'number' && Number.isFinite(retryAfterMs) && retryAfterMs >= 0
      ? Math.round(retryAfterMs)
      : undefined;
  if (hintMs === undefined) {
    return {
      ...base,
      action: 'retry',
      shouldRetry: true,
      waitMs: backoffMs,
      reason: `${row.category}: ${next} in ${formatSeconds(backoffMs)} (${row.backoff} backoff)`,
    };
  }
  if (hintMs > settings.maxDelayMs) {
    const reason = `provider asked to wait ${formatSeconds(hintMs)}, above the ${formatSeconds(settings.maxDelayMs)} maximum delay`;
    return stop(base, 'abort', reason, { hintMs, exceedsMaxDelay: true });
  }
  const waitMs = Math.max(backoffMs, hintMs);
  const why = hintMs > backoffMs ? 'as the provider asked' : `${row.backoff} backoff`;
  return {
    ...base,
    action: 'retry',
    shouldRetry: true,
    waitMs,
    hintMs,
    reason: `${row.category}: ${next} in ${formatSeconds(waitMs)} (${why})`,
  };
}

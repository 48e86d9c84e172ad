// decideRetry: applies the decision table (src/shared/retry-policy/decision-table.ts) to one
// failed attempt and says what to do next — retry after a wait, abort, or hand over to
// compaction — with a reason a person can read. The RetryController calls it once per failed
// attempt; a usage limit that switched key or model then turns that one decision into a retry at
// once (afterUsageLimitSwitch), and withNamedTime adds the clock time a long wait names. Pure and
// total: it never throws, and the random draw for jitter is an argument.
// docs/retry-policy.md describes the table and the lifecycle around this call.
import type { ErrorCategory } from '../../../shared/error-category';
import type { DecisionAction } from '../../../shared/history';
import {
  SCHEDULE_LIMIT_MS,
  computeBackoffMs,
  formatSeconds,
  resolveRow,
  scheduledReason,
  waitTooLongReason,
  type BackoffKind,
  type EffectiveRow,
} from '../../../shared/retry-policy/decision-table';
import type { ModelRef, RetrySettings } from '../../../shared/settings';
import type { Classification } from './classify-error';
import { errorText } from '../../../shared/text';

export type ModelSwitch = { from: ModelRef; to: ModelRef };

/** One decision to record (docs/retry-policy.md, "The observability record"). */
export interface DecisionEntry {
  decision: RetryDecision;
  classification: Classification;
  errorMessage: string;
  chainId: string | null;
  finalDecision: 'abort' | 'success' | null;
  /** The attempt this record is about, 1-based (the first try is 1). */
  attempt: number;
  /** A usage limit switched models: the record is about `from` and names `to`. */
  switchedModel?: ModelSwitch;
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
  /** With exceedsMaxDelay or scheduled: the retry.maxDelayMs the hint was above, ms. */
  maxDelayMs?: number;
  /**
   * retry.scheduleLongWaits is on and the hint, above retry.maxDelayMs, is at most 24 h: the retry
   * waits for the time the provider named (waitMs is the hint).
   */
  scheduled?: boolean;
  /**
   * Epoch ms the next attempt goes at (a scheduled retry), or would go at (a stop for a hint above
   * the maximum delay, which "Retry at …" can schedule). The controller sets it: it knows the time.
   */
  retryAt?: number;
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

type DecisionBase = Pick<RetryDecision, 'category' | 'maxAttempts' | 'backoff' | 'attempt'>;

function stop(
  base: DecisionBase,
  action: DecisionAction,
  reason: string,
  extra: Partial<RetryDecision> = {},
): RetryDecision {
  return { ...base, action, reason, waitMs: 0, shouldRetry: false, ...extra };
}

/**
 * A decision taken outside the table walk — a turn that stops without a chain, a chain that
 * recovered, an internal error — recorded like any other: no wait, no further retry.
 */
export function settledDecision(
  category: ErrorCategory,
  action: DecisionAction,
  reason: string,
  maxAttempts = 0,
): RetryDecision {
  return stop({ category, maxAttempts, backoff: 'none' }, action, reason);
}

/**
 * The success record of a chain that recovered after `retries` retries: it names the error the
 * chain recovered from (Unclassifiable when none was kept), with finalDecision "success".
 */
export function recoveredEntry(
  recovered: Classification | undefined,
  retries: number,
  chainId: string | null,
): DecisionEntry {
  const classification: Classification = recovered ?? {
    category: 'unexpected',
    errorType: 'Unclassifiable',
    source: 'fallback',
  };
  const attempt = retries + 1;
  const reason = `recovered after ${retries} ${retries === 1 ? 'retry' : 'retries'}`;
  const decision = settledDecision(classification.category, 'retry', reason, attempt);
  return { decision, classification, errorMessage: '', chainId, finalDecision: 'success', attempt };
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
  settings: RetrySettings,
  random: () => number = Math.random,
): RetryDecision {
  // The classification and the settings are typed and were checked where they came in (the
  // classifier places every failure; zod checked the settings): they are trusted here.
  const { category, errorType } = error;
  try {
    const row = resolveRow(category, settings);
    const isValidAttempt = Number.isInteger(attempt) && attempt > 0;
    const base: DecisionBase = {
      category,
      maxAttempts: row.action === 'retry' ? row.maxAttempts : 0,
      backoff: row.backoff,
      ...(isValidAttempt ? { attempt } : {}),
    };
    if (row.action !== 'retry') return stop(base, row.action, notRetryableReason(row, errorType));
    if (!isValidAttempt) return stop(base, 'abort', `invalid attempt number ${String(attempt)}: aborted`);
    if (!settings.enabled) return stop(base, 'abort', 'auto-retry is turned off');
    if (attempt >= row.maxAttempts) {
      return stop(base, 'abort', `${category}: ${row.maxAttempts} of ${row.maxAttempts} attempts used, giving up`);
    }
    return retryWithWait(base, row, attempt, settings, error.retryAfterMs, random);
  } catch (caught) {
    const message = errorText(caught);
    return stop({ category, maxAttempts: 0, backoff: 'none' }, 'abort', `retry decision failed (${message}): aborted`);
  }
}

function retryWithWait(
  base: DecisionBase,
  row: EffectiveRow,
  attempt: number,
  settings: RetrySettings,
  retryAfterMs: number | undefined,
  random: () => number,
): RetryDecision {
  const next = `retry ${attempt} of ${row.maxAttempts - 1}`;
  const backoffMs = computeBackoffMs(row, attempt, settings, random);
  const hintMs =
    retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0
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
  if (hintMs > settings.maxDelayMs) return longWait(base, `${row.category}: ${next}`, hintMs, settings);
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

/**
 * A hint above retry.maxDelayMs: the seeds' fail-fast stop, unless retry.scheduleLongWaits is on
 * and the hint is at most 24 h — then the retry is scheduled for the time the provider named.
 */
function longWait(base: DecisionBase, next: string, hintMs: number, settings: RetrySettings): RetryDecision {
  const { maxDelayMs } = settings;
  if (settings.scheduleLongWaits && hintMs <= SCHEDULE_LIMIT_MS) {
    const reason = scheduledReason(next, hintMs, maxDelayMs);
    return { ...base, action: 'retry', shouldRetry: true, waitMs: hintMs, hintMs, maxDelayMs, scheduled: true, reason };
  }
  const beyond = hintMs > SCHEDULE_LIMIT_MS ? '; waits above 24 h are not scheduled' : '';
  const over = { hintMs, exceedsMaxDelay: true, maxDelayMs };
  return stop(base, 'abort', `${waitTooLongReason(hintMs, maxDelayMs)}${beyond}`, over);
}

/**
 * The decision with the clock time it names: a scheduled retry's, or — for a stop because the
 * provider asked for more than the maximum delay, up to 24 h — the time "Retry at …" would use.
 * `arrivedAt`: when the error reached the app, which the wait runs from.
 */
export function withNamedTime(decision: RetryDecision, arrivedAt: number): RetryDecision {
  if (decision.scheduled) return { ...decision, retryAt: arrivedAt + decision.waitMs };
  const { hintMs } = decision;
  if (decision.exceedsMaxDelay && hintMs !== undefined && hintMs <= SCHEDULE_LIMIT_MS)
    return { ...decision, retryAt: arrivedAt + hintMs };
  return decision;
}

/**
 * Lifecycle step 5: a usage limit switched to another key, or to another model of the fallback list
 * (both named "provider/model"), so the table's decision — a retry after a wait, or a stop because
 * the provider asked for more than retry.maxDelayMs — becomes the next retry at once. `decision`
 * is the one decideRetry took for this failure, for a row that retries and an attempt below its
 * maximum (usageLimitStep checks both).
 */
export function afterUsageLimitSwitch(
  decision: RetryDecision,
  attempt: number,
  modelSwitch?: { from: string; to: string },
): RetryDecision {
  const { category, maxAttempts, backoff } = decision;
  const what = modelSwitch
    ? `usage limit on ${modelSwitch.from}, switched to ${modelSwitch.to}`
    : 'switched credential';
  return {
    category,
    maxAttempts,
    backoff,
    attempt,
    action: 'retry',
    shouldRetry: true,
    waitMs: 0,
    reason: `${category}: ${what}, retry ${attempt} of ${maxAttempts - 1} at once`,
  };
}

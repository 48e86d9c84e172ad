// The wait a decision-table row gives before a retry, and how waits are written for people.
// decideRetry (src/main/core/retry/decide-retry.ts) calls computeBackoffMs for every retry it allows.
// Pure: the random draw for jitter comes in as an argument. See docs/retry-policy.md.
import type { RetrySettings } from '../settings';
import { clampRetrySettings, type EffectiveRow } from './decision-table';

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

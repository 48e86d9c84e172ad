// The error categories (docs/retry-policy.md, "Classification"), shared by the classifier, the
// decision table, the history store and the renderer. One list, so that a new category is added in
// exactly one place.

export const ERROR_CATEGORIES = [
  'rate_limit',
  'timeout',
  'connection',
  'invalid_output',
  'overloaded',
  'server_error',
  'usage_limit',
  'context_overflow',
  'sandbox',
  'sandbox_security',
  'patch_apply',
  'auth',
  'bad_request',
  'aborted',
  'unexpected',
] as const;

export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];

/** Categories whose decision-table row retries; only these accept per-row overrides. */
export const RETRYABLE_CATEGORIES = [
  'rate_limit',
  'timeout',
  'connection',
  'invalid_output',
  'overloaded',
  'server_error',
  'usage_limit',
] as const satisfies readonly ErrorCategory[];

export type RetryableCategory = (typeof RETRYABLE_CATEGORIES)[number];

export function isErrorCategory(value: unknown): value is ErrorCategory {
  return typeof value === 'string' && (ERROR_CATEGORIES as readonly string[]).includes(value);
}

/**
 * How a retry chain ended; stored with every errored turn (docs/retry-policy.md, "Chain outcomes").
 * `interrupted`: the app stopped (a crash, a kill) while the chain was still pending.
 */
export type ChainOutcome =
  'pending' | 'recovered' | 'exhausted' | 'cancelled' | 'disabled' | 'not_retryable' | 'compacted' | 'interrupted';

// The rows of the retry decision table as data, one per error category (docs/retry-policy.md,
// "The decision table"). Apart from decision-table.ts, which reads them with the settings, so that
// retry-policy/retryable.ts can derive RETRYABLE_CATEGORIES from them: this file imports nothing at run time.
import type { ErrorCategory } from '../error-category';
import type { DecisionAction } from '../history';

export type BackoffSpec =
  { kind: 'exponential'; jitter: boolean } | { kind: 'linear'; delayMs: number } | { kind: 'none' };
export type BackoffKind = BackoffSpec['kind'];

export interface DecisionRow {
  /** A row's action: `skip` is a record's word only, reserved and never a row's (docs/retry-policy.md). */
  action: Exclude<DecisionAction, 'skip'>;
  /** Attempts including the first try; 'inherit' = retry.maxRetries + 1. */
  maxAttempts: number | 'inherit';
  backoff: BackoffSpec;
  /** The exception class name the decision log records for this category. */
  exceptionClass: string;
  note: string;
}

const EXP_JITTER: BackoffSpec = { kind: 'exponential', jitter: true };
const EXP: BackoffSpec = { kind: 'exponential', jitter: false };
const NONE: BackoffSpec = { kind: 'none' };
const abortRow = (exceptionClass: string, note: string): DecisionRow & { action: 'abort' } => ({
  action: 'abort',
  maxAttempts: 0,
  backoff: NONE,
  exceptionClass,
  note,
});

/** The single source of truth for what happens after a failure of each category. */
export const DECISION_ROWS = {
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
  sandbox: abortRow('SandboxExecutionError', 'abort at once; self-heal is separate'),
  sandbox_security: abortRow('SandboxSecurityError', 'abort at once; audit log first'),
  patch_apply: abortRow('PatchApplyError', 'abort at once'),
  auth: abortRow('ModelAuthError', '401/403; fix the key'),
  bad_request: abortRow('ModelBadRequestError', '400/404/422; the same request fails again'),
  aborted: abortRow('RequestAbortedError', 'the user stopped it'),
  unexpected: abortRow('UnexpectedSystemError', 'includes unclassifiable errors; never retried'),
} as const satisfies Record<ErrorCategory, DecisionRow>;

/** The categories whose row retries, as a type: derived from the rows. */
export type RetryRowCategory = {
  [K in keyof typeof DECISION_ROWS]: (typeof DECISION_ROWS)[K]['action'] extends 'retry' ? K : never;
}[keyof typeof DECISION_ROWS];

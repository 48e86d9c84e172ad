// The error categories (docs/retry-policy.md, "Classification"), shared by the classifier, the
// decision table, the history store and the renderer. One list, so that a new category is added in
// exactly one place; which of them retry is read from the decision table's rows
// (RETRYABLE_CATEGORIES, retry-policy/retryable.ts).
import type { RetryRowCategory } from './retry-policy/decision-rows';

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

export type RetryableCategory = RetryRowCategory;

/** The failures of a tool that end the turn (docs/tools.md): the categories a tool failure is classified as. */
export const TOOL_FAILURE_CATEGORIES = [
  'sandbox',
  'sandbox_security',
  'patch_apply',
] as const satisfies readonly ErrorCategory[];

export type ToolFailureCategory = (typeof TOOL_FAILURE_CATEGORIES)[number];

/** One of `list`: the type guards of the category lists below share it. */
const isOneOf = <T extends string>(list: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (list as readonly string[]).includes(value);

export function isToolFailureCategory(value: unknown): value is ToolFailureCategory {
  return isOneOf(TOOL_FAILURE_CATEGORIES, value);
}

/**
 * The outages a fallback list fails over from once a model's attempts are used up
 * (docs/retry-policy.md, "Failover"); the main process decides by it, the window words the switch by it.
 */
export const FAILOVER_CATEGORIES = [
  'overloaded',
  'server_error',
  'connection',
  'timeout',
] as const satisfies readonly ErrorCategory[];
export type FailoverCategory = (typeof FAILOVER_CATEGORIES)[number];

export function isFailoverCategory(value: unknown): value is FailoverCategory {
  return isOneOf(FAILOVER_CATEGORIES, value);
}

export function isErrorCategory(value: unknown): value is ErrorCategory {
  return isOneOf(ERROR_CATEGORIES, value);
}

/**
 * A chain that was still waiting (or had its retry in flight) when the app stopped — a quit, a
 * crash, a kill: it is closed with this outcome, at quit or on the next start, and can be continued
 * from there (docs/retry-policy.md, "Resume after a restart"). Named once here so the start-up's
 * close of pending chains and the resume offer share it.
 */
export const INTERRUPTED_OUTCOME = 'interrupted';

/**
 * The reason of the final record "Discard" writes on an interrupted chain: the chain keeps its
 * `interrupted` outcome, and the chat reads this record to show it as given up, not as an error.
 */
export const INTERRUPTED_DISCARDED_REASON = 'interrupted chain discarded by the person';

/** How a retry chain ended; stored with every errored turn (docs/retry-policy.md, "Chain outcomes"). */
export type ChainOutcome =
  | 'pending'
  | 'recovered'
  | 'exhausted'
  | 'cancelled'
  | 'disabled'
  | 'not_retryable'
  | 'compacted'
  | typeof INTERRUPTED_OUTCOME;

/**
 * The words of a `timeout` whose connection lived (headers, keep-alives) but brought no words
 * (docs/retry-policy.md, "Liveness"): the main process writes them, the failed card explains them apart.
 */
export const NO_WORDS_TIMEOUT = 'connected, but no words';

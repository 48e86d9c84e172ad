// The renderer's copy of the decision table's row DEFINITIONS (SPEC §4) and the view model the
// Settings pane renders: each row's effective values with per-field "inherited or overridden".
// The main process's decision-table.ts stays the source of truth for decisions; this only displays.
import type { ErrorCategory, RetryableCategory } from '../../../shared/error-category';
import type { RetrySettings, RowOverride } from '../../../shared/settings';

export type RowAction = 'retry' | 'compact' | 'abort';
export type BackoffKind = 'exponential' | 'linear';

export interface RowDefinition {
  category: ErrorCategory;
  action: RowAction;
  /** Attempts including the first try; 'inherit' = retry.maxRetries + 1. */
  maxAttempts: number | 'inherit';
  backoff: BackoffKind | null;
  jitter: boolean;
  /** Linear rows: the fixed wait, ms. */
  delayMs: number | null;
}

const retryRow = (
  category: RetryableCategory,
  maxAttempts: number | 'inherit',
  backoff: BackoffKind,
  jitter: boolean,
  delayMs: number | null = null,
): RowDefinition => ({ category, action: 'retry', maxAttempts, backoff, jitter, delayMs });
const stopRow = (category: ErrorCategory, action: 'compact' | 'abort'): RowDefinition => ({
  category,
  action,
  maxAttempts: 0,
  backoff: null,
  jitter: false,
  delayMs: null,
});

export const DECISION_ROWS: readonly RowDefinition[] = [
  retryRow('rate_limit', 5, 'exponential', true),
  retryRow('timeout', 3, 'linear', false, 10_000),
  retryRow('connection', 3, 'exponential', true),
  retryRow('invalid_output', 3, 'linear', false, 5_000),
  retryRow('overloaded', 'inherit', 'exponential', false),
  retryRow('server_error', 'inherit', 'exponential', false),
  retryRow('usage_limit', 'inherit', 'exponential', false),
  stopRow('context_overflow', 'compact'),
  stopRow('sandbox', 'abort'),
  stopRow('sandbox_security', 'abort'),
  stopRow('patch_apply', 'abort'),
  stopRow('auth', 'abort'),
  stopRow('bad_request', 'abort'),
  stopRow('aborted', 'abort'),
  stopRow('unexpected', 'abort'),
];

/** One field of a row: the value in effect, the value it inherits, and the override if any. */
export interface FieldView<T> {
  effective: T;
  inherited: T;
  override: T | undefined;
  isInherited: boolean;
}

export interface DecisionRowView {
  category: ErrorCategory;
  action: RowAction;
  /** Only retry rows accept overrides (settings.retry.policy). */
  isOverridable: boolean;
  maxAttempts: FieldView<number>;
  backoff: FieldView<BackoffKind | null>;
  jitter: FieldView<boolean>;
  /** Linear wait in ms; null for exponential rows (their wait is baseDelayMs × 2^(n−1)). */
  delayMs: FieldView<number | null>;
}

function field<T>(inherited: T, override: T | undefined): FieldView<T> {
  const isInherited = override === undefined;
  return { effective: isInherited ? inherited : override, inherited, override, isInherited };
}

export function isRetryableCategory(category: ErrorCategory): category is RetryableCategory {
  return DECISION_ROWS.some((row) => row.category === category && row.action === 'retry');
}

/** Build the rows the Settings pane shows from the current retry settings and their overrides. */
export function buildDecisionRows(retry: RetrySettings): DecisionRowView[] {
  return DECISION_ROWS.map((row) => {
    const override: RowOverride = isRetryableCategory(row.category) ? (retry.policy[row.category] ?? {}) : {};
    const inheritedAttempts = row.maxAttempts === 'inherit' ? retry.maxRetries + 1 : row.maxAttempts;
    const backoff = field<BackoffKind | null>(row.backoff, override.backoff);
    // A row switched to linear by an override has no wait of its own: show the base delay it would use.
    const inheritedDelay = backoff.effective === 'linear' ? (row.delayMs ?? retry.baseDelayMs) : null;
    const delayOverride = backoff.effective === 'linear' ? override.delayMs : undefined;
    return {
      category: row.category,
      action: row.action,
      isOverridable: row.action === 'retry',
      maxAttempts: field(inheritedAttempts, override.maxAttempts),
      backoff,
      jitter: field(row.jitter, override.jitter),
      delayMs: field<number | null>(inheritedDelay, delayOverride),
    };
  });
}

/** The waits a row produces for its retries, ms, without jitter (for the table's "waits" hint). */
export function rowWaitsMs(row: DecisionRowView, baseDelayMs: number): number[] {
  const retries = Math.max(0, row.maxAttempts.effective - 1);
  if (row.action !== 'retry') return [];
  return Array.from({ length: retries }, (_, i) =>
    row.backoff.effective === 'linear' ? (row.delayMs.effective ?? baseDelayMs) : baseDelayMs * 2 ** i,
  );
}

// The Settings pane's decision table view: SPEC §4 rows as defined, "inherit" rows following
// retry.maxRetries, and per-row overrides from settings.retry.policy shown as overridden.
import { describe, expect, it } from 'vitest';
import { ERROR_CATEGORIES } from '../../../src/shared/error-category';
import { DEFAULT_SETTINGS, type RetrySettings } from '../../../src/shared/settings';
import { DECISION_ROWS, buildDecisionRows, rowWaitsMs } from '../../../src/renderer/src/settings/decision-table-view';

const retry = (patch: Partial<RetrySettings> = {}): RetrySettings => ({ ...DEFAULT_SETTINGS.retry, ...patch });
const row = (rows: ReturnType<typeof buildDecisionRows>, category: string) => {
  const found = rows.find((r) => r.category === category);
  if (!found) throw new Error(`no row ${category}`);
  return found;
};

describe('decision table view', () => {
  it('has exactly one row per error category', () => {
    expect(DECISION_ROWS.map((r) => r.category).sort()).toEqual([...ERROR_CATEGORIES].sort());
  });

  it.each([
    ['rate_limit', 'retry', 5, 'exponential', true, null],
    ['timeout', 'retry', 3, 'linear', false, 10_000],
    ['connection', 'retry', 3, 'exponential', true, null],
    ['invalid_output', 'retry', 3, 'linear', false, 5_000],
    ['overloaded', 'retry', 4, 'exponential', false, null],
    ['server_error', 'retry', 4, 'exponential', false, null],
    ['usage_limit', 'retry', 4, 'exponential', false, null],
  ])('%s: %s, %i attempts, %s, jitter %s, wait %s', (category, action, attempts, backoff, jitter, delayMs) => {
    const r = row(buildDecisionRows(retry()), category);
    expect(r).toMatchObject({ action, isOverridable: true });
    expect(r.maxAttempts).toEqual({ effective: attempts, inherited: attempts, override: undefined, isInherited: true });
    expect(r.backoff.effective).toBe(backoff);
    expect(r.jitter.effective).toBe(jitter);
    expect(r.delayMs.effective).toBe(delayMs);
  });

  it.each(['sandbox', 'sandbox_security', 'patch_apply', 'auth', 'bad_request', 'aborted', 'unexpected'])(
    '%s aborts at once',
    (category) => {
      const r = row(buildDecisionRows(retry()), category);
      expect(r).toMatchObject({ action: 'abort', isOverridable: false });
      expect(r.maxAttempts.effective).toBe(0);
    },
  );

  it('context_overflow compacts and is not overridable', () => {
    expect(row(buildDecisionRows(retry()), 'context_overflow')).toMatchObject({
      action: 'compact',
      isOverridable: false,
    });
  });

  it('"inherit" rows follow retry.maxRetries + 1', () => {
    const rows = buildDecisionRows(retry({ maxRetries: 6 }));
    expect(row(rows, 'overloaded').maxAttempts.effective).toBe(7);
    expect(row(rows, 'rate_limit').maxAttempts.effective).toBe(5);
  });

  it('shows overrides as overridden and keeps the inherited value for display', () => {
    const rows = buildDecisionRows(
      retry({
        policy: {
          rate_limit: { maxAttempts: 2, jitter: false },
          timeout: { delayMs: 3_000 },
          overloaded: { backoff: 'linear' },
        },
      }),
    );
    expect(row(rows, 'rate_limit').maxAttempts).toEqual({
      effective: 2,
      inherited: 5,
      override: 2,
      isInherited: false,
    });
    expect(row(rows, 'rate_limit').jitter).toMatchObject({ effective: false, isInherited: false });
    expect(row(rows, 'timeout').delayMs).toEqual({
      effective: 3_000,
      inherited: 10_000,
      override: 3_000,
      isInherited: false,
    });
    // Switched to linear: its wait inherits the base delay.
    expect(row(rows, 'overloaded').delayMs).toMatchObject({ effective: 2_000, isInherited: true });
  });

  it('rowWaitsMs lists the waits without jitter (policy A: 2000, 4000, 8000)', () => {
    const rows = buildDecisionRows(retry());
    expect(rowWaitsMs(row(rows, 'server_error'), 2_000)).toEqual([2_000, 4_000, 8_000]);
    expect(rowWaitsMs(row(rows, 'timeout'), 2_000)).toEqual([10_000, 10_000]);
    expect(rowWaitsMs(row(rows, 'auth'), 2_000)).toEqual([]);
  });
});

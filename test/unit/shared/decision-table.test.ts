// The shared retry policy (src/shared/retry-policy): the table as data, where each effective value
// comes from, the description the settings pane renders (inherited values and overrides), the
// backoff computation, and the one set of ranges that both the settings schema and the table's
// clamp read. decideRetry's behaviour on top of it is in test/unit/core/retry/decide-retry.test.ts.
import { describe, expect, it } from 'vitest';
import { ERROR_CATEGORIES } from '../../../src/shared/error-category';
import { RETRYABLE_CATEGORIES } from '../../../src/shared/retry-policy/retryable';
import {
  DECISION_TABLE,
  clampRetrySettings,
  computeBackoffMs,
  describeTable,
  formatSeconds,
  resolveRow,
  type DescribedRow,
} from '../../../src/shared/retry-policy/decision-table';
import { RETRY_SETTING_RANGES, ROW_OVERRIDE_RANGES } from '../../../src/shared/retry-policy/ranges';
import { DEFAULT_SETTINGS, applySettingsPatch, type RetrySettings } from '../../../src/shared/settings';

const defaults: RetrySettings = DEFAULT_SETTINGS.retry;
const withRetry = (patch: Partial<RetrySettings>): RetrySettings => ({ ...defaults, ...patch });
const row = (rows: DescribedRow[], category: string): DescribedRow => {
  const found = rows.find((r) => r.category === category);
  if (!found) throw new Error(`no row ${category}`);
  return found;
};

describe('the table as data', () => {
  it('has one row per category and only the retryable rows retry', () => {
    expect(Object.keys(DECISION_TABLE).sort()).toEqual([...ERROR_CATEGORIES].sort());
    const retrying = ERROR_CATEGORIES.filter((c) => DECISION_TABLE[c].action === 'retry');
    expect(retrying.sort()).toEqual([...RETRYABLE_CATEGORIES].sort());
  });

  it('is frozen data', () => {
    expect(Object.isFrozen(DECISION_TABLE)).toBe(true);
    expect(Object.isFrozen(DECISION_TABLE.rate_limit)).toBe(true);
    expect(Object.isFrozen(DECISION_TABLE.timeout.backoff)).toBe(true);
  });
});

describe('resolveRow: where each value comes from', () => {
  it('marks where every default value comes from', () => {
    expect(resolveRow('overloaded', defaults).origin).toEqual({
      maxAttempts: 'inherited',
      backoff: 'table',
      jitter: 'table',
      delayMs: 'inherited',
    });
    expect(resolveRow('rate_limit', defaults).origin).toEqual({
      maxAttempts: 'table',
      backoff: 'table',
      jitter: 'table',
      delayMs: 'inherited',
    });
    expect(resolveRow('timeout', defaults)).toMatchObject({ delayMs: 10_000, origin: { delayMs: 'table' } });
  });

  it('changes only the inherited rows when maxRetries changes', () => {
    const before = describeTable(defaults);
    const after = describeTable(withRetry({ maxRetries: 6 }));
    for (const [i, r] of after.entries()) {
      const expected = r.origin.maxAttempts === 'inherited' ? 7 : before[i].maxAttempts;
      expect([r.category, r.maxAttempts]).toEqual([r.category, expected]);
    }
    expect(
      after
        .filter((r) => r.origin.maxAttempts === 'inherited')
        .map((r) => r.category)
        .sort(),
    ).toEqual(['overloaded', 'server_error', 'usage_limit']);
  });
});

describe('describeTable: what the settings pane renders', () => {
  it('lists every category in display order; only the retry rows take overrides', () => {
    const table = describeTable(defaults);
    expect(table.map((r) => r.category)).toEqual([...ERROR_CATEGORIES]);
    expect(
      table
        .filter((r) => r.isOverridable)
        .map((r) => r.category)
        .sort(),
    ).toEqual([...RETRYABLE_CATEGORIES].sort());
  });

  it.each([
    ['rate_limit', 5, 'exponential', true],
    ['timeout', 3, 'linear', false],
    ['connection', 3, 'exponential', true],
    ['invalid_output', 3, 'linear', false],
    ['overloaded', 4, 'exponential', false],
    ['server_error', 4, 'exponential', false],
    ['usage_limit', 4, 'exponential', false],
  ])('%s: retry, %i attempts, %s, jitter %s, all inherited', (category, attempts, backoff, jitter) => {
    const r = row(describeTable(defaults), category);
    expect(r).toMatchObject({ action: 'retry', isOverridable: true, maxAttempts: attempts, backoff, jitter });
    expect(r.inherited).toMatchObject({ maxAttempts: attempts, backoff, jitter });
    expect(r.override).toEqual({});
  });

  it.each(['sandbox', 'sandbox_security', 'patch_apply', 'auth', 'bad_request', 'aborted', 'unexpected'])(
    '%s aborts at once and takes no override',
    (category) => {
      expect(row(describeTable(defaults), category)).toMatchObject({
        action: 'abort',
        isOverridable: false,
        maxAttempts: 0,
        backoff: 'none',
      });
    },
  );

  it('context_overflow compacts and takes no override', () => {
    expect(row(describeTable(defaults), 'context_overflow')).toMatchObject({ action: 'compact', isOverridable: false });
  });

  it('shows an override next to the value it replaces', () => {
    const rows = describeTable(
      withRetry({
        policy: {
          rate_limit: { maxAttempts: 2, jitter: false },
          timeout: { delayMs: 3_000 },
          overloaded: { backoff: 'linear' },
        },
      }),
    );
    expect(row(rows, 'rate_limit')).toMatchObject({
      maxAttempts: 2,
      jitter: false,
      inherited: { maxAttempts: 5, jitter: true },
      override: { maxAttempts: 2, jitter: false },
    });
    expect(row(rows, 'timeout')).toMatchObject({ delayMs: 3_000, inherited: { delayMs: 10_000 } });
    // Switched to linear without a delay of its own: the wait is the base delay, shown as inherited.
    expect(row(rows, 'overloaded')).toMatchObject({
      backoff: 'linear',
      delayMs: 2_000,
      inherited: { backoff: 'exponential', delayMs: 2_000 },
      override: { backoff: 'linear' },
    });
  });
});

describe('computeBackoffMs', () => {
  it('doubles from the base delay and never exceeds maxDelayMs', () => {
    const settings = withRetry({ maxRetries: 9 });
    const waits = [1, 2, 3, 4, 5, 6].map((a) =>
      computeBackoffMs(resolveRow('server_error', settings), a, settings, Math.random),
    );
    expect(waits).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, 60_000]);
  });

  it('gives a linear row its fixed wait, capped too', () => {
    const capped = withRetry({ maxDelayMs: 4_000 });
    expect(computeBackoffMs(resolveRow('timeout', defaults), 2, defaults, Math.random)).toBe(10_000);
    expect(computeBackoffMs(resolveRow('timeout', capped), 2, capped, Math.random)).toBe(4_000);
  });
});

describe('one range per setting', () => {
  const fields = Object.entries(RETRY_SETTING_RANGES) as [
    keyof typeof RETRY_SETTING_RANGES,
    { min: number; max: number },
  ][];

  it.each(fields)('retry.%s: the schema accepts exactly the range the table clamps to', (field, range) => {
    const patch = (value: number) => applySettingsPatch(DEFAULT_SETTINGS, { retry: { [field]: value } });
    expect(patch(range.min).ok).toBe(true);
    expect(patch(range.max).ok).toBe(true);
    expect(patch(range.min - 1).ok).toBe(false);
    expect(patch(range.max + 1).ok).toBe(false);
    const clamped = clampRetrySettings(withRetry({ [field]: range.max + 1 }));
    expect(clamped[field]).toBe(range.max);
    expect(clampRetrySettings(withRetry({ [field]: range.min - 1 }))[field]).toBe(range.min);
  });

  it('a row override is held to the same ranges by the schema and by resolveRow', () => {
    const { maxAttempts, delayMs } = ROW_OVERRIDE_RANGES;
    const patch = (override: object) =>
      applySettingsPatch(DEFAULT_SETTINGS, { retry: { policy: { timeout: override } } });
    expect(patch({ maxAttempts: maxAttempts.max }).ok).toBe(true);
    expect(patch({ maxAttempts: maxAttempts.max + 1 }).ok).toBe(false);
    expect(patch({ delayMs: delayMs.max }).ok).toBe(true);
    expect(patch({ delayMs: delayMs.max + 1 }).ok).toBe(false);
    const wild = withRetry({ policy: { timeout: { maxAttempts: 99, delayMs: delayMs.max * 10 } } });
    expect(resolveRow('timeout', wild)).toMatchObject({ maxAttempts: maxAttempts.max, delayMs: delayMs.max });
  });
});

describe('formatSeconds', () => {
  it.each([
    [120_000, '120 s'],
    [1500, '1.5 s'],
    [0, '0 s'],
  ])('%d ms → %s', (ms, text) => {
    expect(formatSeconds(ms)).toBe(text);
  });
});

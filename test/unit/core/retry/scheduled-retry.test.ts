// Scheduled retries in the core (docs/retry-policy.md, "Scheduled retries"): decideRetry's long-wait
// path with retry.scheduleLongWaits on and off and past 24 h; the sleep until a clock time, which
// reads the clock again (a clock that jumps, as after the machine slept); the RetryController's
// scheduled chain — one attempt for the wait, its time stored and cleared, Cancel, a quit — and
// "Retry at …" on a chain that stopped. Vitest's fake timers stand in for the clock.
import { describe, expect, it, vi } from 'vitest';
import { decideRetry, withNamedTime } from '../../../../src/main/core/retry/decide-retry';
import { sleepUntil } from '../../../../src/main/core/retry/retry-chain';
import { RetryController } from '../../../../src/main/core/retry/retry-controller';
import { findSchedulableRetry } from '../../../../src/main/core/retry/scheduled-retry';
import type { RetryDecisionRecord } from '../../../../src/shared/history';
import { rateLimitAbort } from '../../../fixtures/decision-records';
import { DEFAULT_SETTINGS, applySettingsPatch, validateSettings } from '../../../../src/shared/settings';
import { mergeSettings } from '../../../../src/shared/settings-values';
import { FakeHost, T0, assistant, rateLimit, useFakeClock } from './retry-host-fake';

const HOUR = 3_600_000;
const settings = (scheduleLongWaits: boolean) => ({ ...DEFAULT_SETTINGS.retry, scheduleLongWaits });

describe('decideRetry with a wait above the maximum delay', () => {
  it('off (the default): the chain ends at once, naming the wait', () => {
    const d = decideRetry(rateLimit(2 * HOUR), 1, DEFAULT_SETTINGS.retry);
    expect(d).toMatchObject({ action: 'abort', shouldRetry: false, exceedsMaxDelay: true, hintMs: 2 * HOUR });
    expect(d.scheduled).toBeUndefined();
  });

  it('on: a retry scheduled for the wait the provider named, one attempt', () => {
    const d = decideRetry(rateLimit(2 * HOUR), 1, settings(true));
    expect(d).toMatchObject({
      action: 'retry',
      shouldRetry: true,
      waitMs: 2 * HOUR,
      scheduled: true,
      maxDelayMs: 60_000,
    });
    expect(d.exceedsMaxDelay).toBeUndefined();
    expect(d.reason).toBe(
      'rate_limit: retry 1 of 4 scheduled in 7200 s, as the provider asked (above the 60 s maximum delay)',
    );
  });

  it('on, past 24 h: not scheduled, and the reason says so', () => {
    const d = decideRetry(rateLimit(25 * HOUR), 1, settings(true));
    expect(d).toMatchObject({ action: 'abort', exceedsMaxDelay: true });
    expect(d.reason).toMatch(/waits above 24 h are not scheduled$/);
    expect(withNamedTime(d, T0).retryAt).toBeUndefined();
  });

  it('a stop for a wait up to 24 h names the time "Retry at …" would use', () => {
    const d = decideRetry(rateLimit(2 * HOUR), 1, DEFAULT_SETTINGS.retry);
    expect(withNamedTime(d, T0).retryAt).toBe(T0 + 2 * HOUR);
  });
});

describe('sleepUntil', () => {
  useFakeClock();

  it('ends within a second of its time when the clock jumps ahead (the machine slept)', async () => {
    let offset = 0;
    const now = () => Date.now() + offset;
    let woke = false;
    void sleepUntil(T0 + 2 * HOUR, now, new AbortController().signal).promise.then(() => (woke = true));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(woke).toBe(false);
    offset = 2 * HOUR; // the timers did not run for those hours; the clock did
    await vi.advanceTimersByTimeAsync(1000);
    expect(woke).toBe(true);
  });

  it('aborts and skips', async () => {
    const controller = new AbortController();
    const sleep = sleepUntil(T0 + HOUR, () => Date.now(), controller.signal);
    controller.abort();
    await expect(sleep.promise).rejects.toThrow('sleep aborted');
    expect(sleep.skip()).toBe(false);
  });
});

describe('a scheduled chain in the RetryController', () => {
  useFakeClock();

  function scheduled() {
    const host = new FakeHost();
    host.retry = { ...host.retry, scheduleLongWaits: true };
    const retry = new RetryController(host);
    expect(retry.handleRetryableError(assistant('error', '429'), rateLimit(2 * HOUR), T0)).toBe(true);
    return { host, retry };
  }

  it('announces the wait, stores its time, retries once at that time and clears it', async () => {
    const { host, retry } = scheduled();
    expect(host.starts()).toEqual([
      expect.objectContaining({ attempt: 1, delayMs: 2 * HOUR, retryAt: T0 + 2 * HOUR, scheduled: true }),
    ]);
    const chainId = host.starts()[0].chainId;
    expect(host.schedules.get(chainId)).toBe(T0 + 2 * HOUR);
    expect(host.decisions[0].decision).toMatchObject({ scheduled: true, retryAt: T0 + 2 * HOUR });
    expect(retry.isRetrying).toBe(true);
    await vi.advanceTimersByTimeAsync(2 * HOUR - 1000);
    expect(host.continueCalls).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(host.continueCalls).toBe(1);
    expect(host.schedules.get(chainId)).toBeNull();
    expect(retry.attempt).toBe(1);
  });

  it('Cancel ends it, nothing is sent, and the stored time goes', async () => {
    const { host, retry } = scheduled();
    const chainId = host.starts()[0].chainId;
    expect(retry.abortRetry()).toBe(true);
    await vi.advanceTimersByTimeAsync(3 * HOUR);
    expect(host.continueCalls).toBe(0);
    expect(host.ends()).toEqual([expect.objectContaining({ outcome: 'cancelled' })]);
    expect(host.schedules.get(chainId)).toBeNull();
  });

  it('a quit keeps the stored time (the chain is interrupted) for the next start', () => {
    const { host, retry } = scheduled();
    const chainId = host.starts()[0].chainId;
    expect(retry.interrupt()).toBe(true);
    expect(host.ends()).toEqual([expect.objectContaining({ outcome: 'interrupted' })]);
    expect(host.schedules.get(chainId)).toBe(T0 + 2 * HOUR);
  });

  it('a schedule taken up again waits for what is left of it; one already past runs at once', async () => {
    const host = new FakeHost();
    const retry = new RetryController(host);
    const offer = { chainId: 'c1', attempt: 2, maxAttempts: 4, category: 'rate_limit' as const, errorMessage: '429' };
    retry.resumeChain({ ...offer, retryAt: T0 + 10_000 }, 'restart');
    expect(host.starts()).toEqual([
      expect.objectContaining({ attempt: 2, delayMs: 10_000, scheduled: true, resumed: true, chainId: 'c1' }),
    ]);
    expect(host.decisions[0].decision.reason).toBe(
      `schedule kept across a restart: retry 2 of 4 at ${new Date(T0 + 10_000).toISOString()}`,
    );
    await vi.advanceTimersByTimeAsync(10_000);
    expect(host.continueCalls).toBe(1);

    const later = new FakeHost();
    new RetryController(later).resumeChain({ ...offer, retryAt: T0 - 1 }, 'person');
    expect(later.starts()[0]).toMatchObject({ delayMs: 0 });
    expect(later.starts()[0].scheduled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(0);
    expect(later.continueCalls).toBe(1);
  });
});

describe('findSchedulableRetry ("Retry at …")', () => {
  const decision = (over: Partial<RetryDecisionRecord>): RetryDecisionRecord =>
    rateLimitAbort({
      id: 'd1',
      timestamp: new Date(T0).toISOString(),
      reason: 'provider asked to wait 7200 s, above the 60 s maximum delay',
      errorMessage: '429 slow down',
      hintMs: 2 * HOUR,
      maxDelayMs: 60_000,
      retryAt: T0 + 2 * HOUR,
      context: { taskType: 'chat', modelId: 'm', provider: 'p', sessionId: 's', turnId: 't2' },
      chainId: 'c1',
      ...over,
    });
  const stored = (d: RetryDecisionRecord, outcome: 'exhausted' | 'cancelled' = 'exhausted') => ({
    turns: [
      { seq: 1, chainId: null },
      { seq: 2, chainId: 'c1' },
    ],
    chains: [{ id: 'c1', outcome }],
    decisions: [d],
  });

  it('offers the chain that stopped for a long wait, with the time the provider named', () => {
    expect(findSchedulableRetry(stored(decision({})), 'c1', DEFAULT_SETTINGS.retry)).toEqual({
      chainId: 'c1',
      attempt: 1,
      maxAttempts: 4,
      category: 'rate_limit',
      errorMessage: '429 slow down',
      retryAt: T0 + 2 * HOUR,
    });
  });

  it('refuses a chain without a named time (past 24 h), another outcome, or another chain', () => {
    const { retryAt: _at, ...beyond } = decision({ hintMs: 25 * HOUR });
    expect(findSchedulableRetry(stored(beyond), 'c1', DEFAULT_SETTINGS.retry)).toBeNull();
    expect(findSchedulableRetry(stored(decision({}), 'cancelled'), 'c1', DEFAULT_SETTINGS.retry)).toBeNull();
    expect(findSchedulableRetry(stored(decision({})), 'c2', DEFAULT_SETTINGS.retry)).toBeNull();
  });
});

describe('the retry.scheduleLongWaits setting', () => {
  it('is off by default, takes a boolean, and refuses anything else with a message naming it', () => {
    expect(DEFAULT_SETTINGS.retry.scheduleLongWaits).toBe(false);
    const on = applySettingsPatch(DEFAULT_SETTINGS, { retry: { scheduleLongWaits: true } });
    expect(on).toMatchObject({ ok: true, value: { retry: { scheduleLongWaits: true } } });
    const bad = applySettingsPatch(DEFAULT_SETTINGS, { retry: { scheduleLongWaits: 'yes' } });
    expect(bad.ok).toBe(false);
    expect(bad.ok ? '' : bad.error).toMatch(/retry\.scheduleLongWaits/);
  });

  it('a settings file written before it existed reads as off', () => {
    const { scheduleLongWaits: _s, ...older } = DEFAULT_SETTINGS.retry;
    const read = validateSettings(mergeSettings(DEFAULT_SETTINGS, { ...DEFAULT_SETTINGS, retry: older }));
    // Whole, not `read.ok && …`: a file refused would make that false too.
    expect(read).toMatchObject({ ok: true, value: { retry: { scheduleLongWaits: false } } });
  });
});

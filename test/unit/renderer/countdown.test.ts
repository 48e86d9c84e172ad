// The retry banner's countdown: whole seconds left (rounded up, never negative), ticks on second
// boundaries, stops at zero and on demand. Driven with vitest's fake clock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { msUntilNextTick, secondsLeft, startCountdown } from '../../../src/renderer/src/retry/RetryBanner';

describe('secondsLeft', () => {
  it.each([
    [10_000, 8_000, 2],
    [10_000, 8_001, 2],
    [10_000, 8_999, 2],
    [10_000, 9_000, 1],
    [10_000, 9_999, 1],
    [10_000, 10_000, 0],
    [10_000, 12_000, 0],
  ])('retryAt %i at %i → %i s', (retryAt, now, expected) => {
    expect(secondsLeft(retryAt, now)).toBe(expected);
  });
});

describe('msUntilNextTick', () => {
  it('waits until the displayed second changes', () => {
    expect(msUntilNextTick(10_000, 8_000)).toBe(1000);
    expect(msUntilNextTick(10_000, 8_250)).toBe(750);
    expect(msUntilNextTick(10_000, 9_999)).toBe(1);
    expect(msUntilNextTick(10_000, 10_000)).toBe(0);
  });
});

describe('startCountdown', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ticks 3, 2, 1, 0 for a 3 s wait, once per second, then stops', () => {
    const ticks: number[] = [];
    startCountdown(3_000, (s) => ticks.push(s));
    expect(ticks).toEqual([3]);
    vi.advanceTimersByTime(999);
    expect(ticks).toEqual([3]);
    vi.advanceTimersByTime(1);
    expect(ticks).toEqual([3, 2]);
    vi.advanceTimersByTime(2_000);
    expect(ticks).toEqual([3, 2, 1, 0]);
    vi.advanceTimersByTime(10_000);
    expect(ticks).toEqual([3, 2, 1, 0]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('aligns to second boundaries when started mid-second (e.g. the event arrived late)', () => {
    vi.setSystemTime(700);
    const ticks: number[] = [];
    startCountdown(3_000, (s) => ticks.push(s));
    expect(ticks).toEqual([3]);
    vi.advanceTimersByTime(300);
    expect(ticks).toEqual([3, 2]);
    vi.advanceTimersByTime(1_000);
    expect(ticks).toEqual([3, 2, 1]);
  });

  it('shows 0 at once when retryAt is already past (delayMs 0)', () => {
    const ticks: number[] = [];
    startCountdown(0, (s) => ticks.push(s));
    expect(ticks).toEqual([0]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stop() cancels the pending tick and is idempotent', () => {
    const ticks: number[] = [];
    const stop = startCountdown(5_000, (s) => ticks.push(s));
    vi.advanceTimersByTime(1_000);
    stop();
    stop();
    vi.advanceTimersByTime(10_000);
    expect(ticks).toEqual([5, 4]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('uses injected clock and timers when given', () => {
    let now = 0;
    const timers: { cb: () => void; ms: number }[] = [];
    const ticks: number[] = [];
    startCountdown(2_000, (s) => ticks.push(s), {
      now: () => now,
      setTimer: (cb, ms) => timers.push({ cb, ms }),
      clearTimer: () => undefined,
    });
    expect(timers[0].ms).toBe(1_000);
    now = 1_000;
    timers[0].cb();
    expect(ticks).toEqual([2, 1]);
  });
});

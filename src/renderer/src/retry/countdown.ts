// The retry banner's countdown (and the rate-limit notice's): whole seconds left until `retryAt`,
// a ticker that fires on each second boundary (not every 1000 ms from mount, which would drift
// against the main process's clock), pure apart from the injected timer functions, and the React
// hook over them, useCountdown, which RetryBanner and PacingNotice use.
import { useEffect, useState } from 'react';

/** Whole seconds left until `retryAtMs`, rounded up so "in 1s" shows until the very end; never below 0. */
export function secondsLeft(retryAtMs: number, nowMs: number): number {
  return Math.max(0, Math.ceil((retryAtMs - nowMs) / 1000));
}

/** Ms until `secondsLeft` next changes (the next whole-second boundary before `retryAtMs`). */
export function msUntilNextTick(retryAtMs: number, nowMs: number): number {
  const remainingMs = retryAtMs - nowMs;
  if (remainingMs <= 0) return 0;
  return remainingMs % 1000 || 1000;
}

export interface CountdownOptions {
  /** Clock, ms since epoch. Default Date.now. */
  now?: () => number;
  setTimer?: (callback: () => void, delayMs: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/**
 * Call `onTick(seconds)` now and whenever the whole-second value changes, until it reaches 0.
 * Returns a stop function; stopping twice is harmless.
 */
export function startCountdown(
  retryAtMs: number,
  onTick: (seconds: number) => void,
  options: CountdownOptions = {},
): () => void {
  const now = options.now ?? (() => Date.now());
  const setTimer = options.setTimer ?? ((cb: () => void, ms: number) => setTimeout(cb, ms));
  const clearTimer = options.clearTimer ?? ((handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  let handle: unknown = null;
  let isStopped = false;

  const tick = (): void => {
    handle = null;
    if (isStopped) return;
    const at = now();
    const seconds = secondsLeft(retryAtMs, at);
    onTick(seconds);
    if (seconds > 0) handle = setTimer(tick, msUntilNextTick(retryAtMs, at));
  };
  tick();

  return () => {
    isStopped = true;
    if (handle !== null) clearTimer(handle);
    handle = null;
  };
}

/** The whole seconds left until `retryAtMs`, re-rendering once per second boundary. */
export function useCountdown(retryAtMs: number): number {
  const [seconds, setSeconds] = useState(() => secondsLeft(retryAtMs, Date.now()));
  useEffect(() => startCountdown(retryAtMs, setSeconds), [retryAtMs]);
  return seconds;
}

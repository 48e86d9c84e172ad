// An abortable, skippable sleep for the retry backoff (docs/retry-policy.md, lifecycle step 8), and
// one until a clock time for a scheduled retry, which reads the clock again every second.
// `abort` rejects with an AbortError-like error; `skip` resolves early (the banner's "Retry now").
// The retry controller owns one per backoff (through retry-wait.ts); nothing else sleeps.

class SleepAbortedError extends Error {
  constructor() {
    super('sleep aborted');
    this.name = 'SleepAbortedError';
  }
}

export interface Sleep {
  readonly promise: Promise<void>;
  /** Resolve now (skip the rest of the wait). Returns false when the sleep already ended. */
  skip(): boolean;
}

/** Sleep `ms`, rejecting with SleepAbortedError as soon as `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Sleep {
  let settled = false;
  let finish: (error?: Error) => void = () => undefined;
  const promise = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => finish(), Math.max(0, ms));
    const onAbort = () => finish(new SleepAbortedError());
    finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve();
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return {
    promise,
    skip: () => {
      if (settled) return false;
      finish();
      return true;
    },
  };
}

/** How often a sleep until a clock time looks at the clock again, ms. */
export const CLOCK_CHECK_MS = 1000;

/**
 * Sleep until the clock `now()` reaches `at` (a scheduled retry, docs/retry-policy.md, "Scheduled
 * retries"), rejecting as soon as `signal` aborts. One long setTimeout would run late after the
 * machine slept (its timer does not count the sleep) and knows nothing of a clock that jumped, so
 * the clock is read again at least every `checkMs`: the sleep ends within that of its time.
 */
export function sleepUntil(at: number, now: () => number, signal: AbortSignal, checkMs = CLOCK_CHECK_MS): Sleep {
  let settled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let finish: (error?: Error) => void = () => undefined;
  const promise = new Promise<void>((resolve, reject) => {
    const onAbort = () => finish(new SleepAbortedError());
    const check = (): void => {
      const left = at - now();
      if (!(left > 0)) finish();
      else timer = setTimeout(check, Math.min(left, checkMs));
    };
    finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve();
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    check();
  });
  return {
    promise,
    skip: () => {
      if (settled) return false;
      finish();
      return true;
    },
  };
}

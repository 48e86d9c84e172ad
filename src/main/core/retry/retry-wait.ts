// The retry wing's waits (docs/retry-policy.md, "The retry lifecycle", steps 8–9): an abortable,
// skippable sleep (also the offline pause's and rate-limit pacing's), one until a clock time for a
// scheduled retry, and one retry's wait, RetryWait, whose end starts the retried run (agent.continue()
// once the run that failed has settled). The controller keeps the phase and the generation that make
// a cancel race safe; this keeps the timers. `abort` rejects, `skip` resolves early ("Retry now").
import type { RetryRun } from './retry-host';

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

/**
 * Both sleeps: settle once — when `arm`'s timer calls `done`, on a skip, or as `signal` aborts
 * (rejecting). `arm` starts the timer and returns what stops it.
 */
function sleeper(signal: AbortSignal, arm: (done: () => void) => () => void): Sleep {
  let settled = false;
  let finish: (error?: Error) => void = () => undefined;
  const promise = new Promise<void>((resolve, reject) => {
    let disarm: () => void = () => undefined;
    const onAbort = () => finish(new SleepAbortedError());
    finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      disarm();
      signal.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve();
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    disarm = arm(() => finish());
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

/** Sleep `ms`, rejecting with SleepAbortedError as soon as `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Sleep {
  return sleeper(signal, (done) => {
    const timer = setTimeout(done, Math.max(0, ms));
    return () => clearTimeout(timer);
  });
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
  return sleeper(signal, (done) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = (): void => {
      const left = at - now();
      if (!(left > 0)) done();
      else timer = setTimeout(check, Math.min(left, checkMs));
    };
    check();
    return () => clearTimeout(timer);
  });
}

export interface WaitEnd {
  /** The wait ran out, or "Retry now" cut it short. */
  woke: () => void;
  /** Its signal aborted it (a cancel, a quit). */
  aborted: () => void;
}

export class RetryWait {
  private sleep: Sleep | undefined;

  constructor(private readonly run: Pick<RetryRun, 'continue'>) {}

  /** Wait `delayMs` until `signal` aborts; exactly one of `end`'s calls follows. */
  start(delayMs: number, signal: AbortSignal, end: WaitEnd): void {
    this.sleep = abortableSleep(delayMs, signal);
    this.sleep.promise.then(end.woke, end.aborted);
  }

  /** Wait until the clock `now()` reaches `at` (a scheduled retry: hours, across a sleep of the machine). */
  startUntil(at: number, now: () => number, signal: AbortSignal, end: WaitEnd): void {
    this.sleep = sleepUntil(at, now, signal);
    this.sleep.promise.then(end.woke, end.aborted);
  }

  /** The wait is over: start the retried run. Settles like the run. */
  send(): Promise<void> {
    this.sleep = undefined;
    return this.run.continue();
  }

  /** "Retry now": end the wait at once; false when no wait runs. */
  skip(): boolean {
    return this.sleep?.skip() ?? false;
  }

  /** The chain ended: no wait. */
  clear(): void {
    this.sleep = undefined;
  }
}

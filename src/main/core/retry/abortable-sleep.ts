// An abortable, skippable sleep for the retry backoff (docs/retry-policy.md, lifecycle step 8).
// `abort` rejects with an AbortError-like error; `skip` resolves early (the banner's "Retry now").
// The retry controller owns one per backoff; nothing else sleeps.

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

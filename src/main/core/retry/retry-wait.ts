// One retry's wait, for the RetryController (docs/retry-policy.md, "The retry lifecycle", steps
// 8–9): an abortable timer — or, for a scheduled retry, a wait until a clock time — that "Retry now" can cut short; when it ends the retried run starts
// (agent.continue() once the run that failed has settled). The controller keeps the phase and the
// generation that make a cancel race safe; this keeps the timer.
import { abortableSleep, sleepUntil, type Sleep } from './abortable-sleep';
import type { RetryRun } from './retry-host';

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

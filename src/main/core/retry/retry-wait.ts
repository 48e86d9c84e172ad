// One retry's wait, for the RetryController (docs/retry-policy.md, "The retry lifecycle", steps
// 8–9): an abortable timer that "Retry now" can cut short, and the retried run built before it
// ends (retry-prelaunch.ts) — sent when the wait ends, withdrawn when it ends otherwise or when what
// the run was built from changes. The controller keeps the phase and the generation that make a
// cancel race safe; this keeps the timer and the run.
import { abortableSleep, type Sleep } from './abortable-sleep';
import type { RetryHost } from './retry-host';
import type { PreparedRetry } from '../retry-prelaunch';

export interface WaitEnd {
  /** The wait ran out, or "Retry now" cut it short. */
  woke: () => void;
  /** Its signal aborted it (a cancel, a quit). */
  aborted: () => void;
}

export class RetryWait {
  private sleep: Sleep | undefined;
  private prepared: PreparedRetry | undefined;

  constructor(private readonly host: Pick<RetryHost, 'continueAgent' | 'prepareRetry'>) {}

  /** Wait `delayMs` until `signal` aborts; exactly one of `end`'s calls follows. */
  start(delayMs: number, signal: AbortSignal, end: WaitEnd): void {
    this.withdraw();
    this.sleep = abortableSleep(delayMs, signal);
    this.prepared = this.host.prepareRetry?.(delayMs);
    this.sleep.promise.then(end.woke, end.aborted);
  }

  /**
   * The wait is over: the run built during it sends its request now; without one, continueAgent
   * waits for the agent to be idle before continue(). Settles like the run.
   */
  send(): Promise<void> {
    this.sleep = undefined;
    const prepared = this.prepared;
    this.prepared = undefined;
    return prepared?.release() ?? this.host.continueAgent();
  }

  /** "Retry now": end the wait at once; false when no wait runs. */
  skip(): boolean {
    return this.sleep?.skip() ?? false;
  }

  /** What the retried run is built from changed (another model): it is built when the wait ends instead. */
  withdraw(): void {
    this.prepared?.withdraw();
    this.prepared = undefined;
  }

  /** The chain ended: no wait, no run built ahead. */
  clear(): void {
    this.withdraw();
    this.sleep = undefined;
  }
}

// The life of one retry chain (docs/retry-policy.md, "The retry lifecycle"): its promise, id and
// counters, the history writes of each of its events (the chain's row with its first), the
// announcement of each retry (auto_retry_start), the wait and the retried run at its end (steps
// 8–9), and every way it ends — recovered, exhausted, cancelled, interrupted by a quit, abandoned
// — with auto_retry_end. RetryController extends it with the ways in (retry-controller.ts).
// The waits live here too: an abortable, skippable sleep (also the offline pause's and rate-limit
// pacing's), one until a clock time for a scheduled retry, and RetryWait, which keeps one retry's
// timer while the chain keeps the phase and the generation that make a cancel race safe.
import { INTERRUPTED_OUTCOME, type ChainOutcome } from '../../../shared/error-category';
import type { AutoRetryStartEvent, PendingRetry } from '../../../shared/events';
import { errorText } from '../../../shared/text';
import type { Classification } from './classify-error';
import type { RetryHost, RetryRun } from './retry-host';

/** The final error of a chain the app closed while it waited (it can be continued on the next start). */
export const INTERRUPTED_FINAL_ERROR = 'Interrupted: the app stopped while retrying';

export type Phase = 'idle' | 'probing' | 'offline' | 'sleeping' | 'running';

/** What auto_retry_start announces, before the chain adds when and which chain. */
export type Announcement = Omit<AutoRetryStartEvent, 'type' | 'retryAt' | 'chainId'>;

/** How a chain ends: what auto_retry_end says and the chain's row keeps. */
export interface ChainEnd {
  success: boolean;
  attempt: number;
  finalError?: string;
  outcome: ChainOutcome;
}

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

export class RetryChain {
  // The lifecycle's four pieces of state, plus the bookkeeping that makes cancel races safe.
  protected retryAttempt = 0;
  protected retryPromise: Promise<void> | undefined;
  private retryResolve: (() => void) | undefined;
  protected retryAbortController: AbortController | undefined;

  protected phase: Phase = 'idle';
  protected chainId: string | undefined;
  protected generation = 0;
  protected retriesStarted = 0;
  /** The wait of the current retry. */
  protected readonly wait: RetryWait;
  protected pending: PendingRetry | null = null;
  protected lastClassification: Classification | undefined;
  /** While paused offline: send the held retry now (the network is back, or "Retry now"). */
  protected goOnline: (() => void) | undefined;
  /** The open chain's row is not written yet: it goes with the chain's first event (writeChainRow). */
  private chainRowDue = false;
  /** The time a scheduled retry waits for, while it waits (stored, so that a restart runs it). */
  private scheduledAt: number | undefined;

  constructor(protected readonly host: RetryHost) {
    this.wait = new RetryWait(host.run);
  }

  get attempt(): number {
    return this.retryAttempt;
  }

  /** A retry chain's promise is active. */
  get isRetrying(): boolean {
    return this.retryPromise !== undefined;
  }

  get pendingRetry(): PendingRetry | null {
    return this.pending;
  }

  get activeChainId(): string | undefined {
    return this.chainId;
  }

  /** Resolves when the current chain (if any) has ended: success, failure or cancel. */
  waitForRetry(): Promise<void> {
    return this.retryPromise ?? Promise.resolve();
  }

  /** A new chain: its id now, its row with its first event. */
  protected openChain(): void {
    this.retryPromise = new Promise<void>((resolve) => {
      this.retryResolve = resolve;
    });
    this.chainId = this.host.records.newChainId();
    this.retriesStarted = 0;
    this.chainRowDue = true;
  }

  /** A stored chain goes on (after a restart, or scheduled by the person): same id and counter. */
  protected continueChain(chainId: string, attempt: number): void {
    this.retryPromise = new Promise<void>((resolve) => {
      this.retryResolve = resolve;
    });
    this.chainId = chainId;
    this.retryAttempt = attempt;
    this.retriesStarted = attempt - 1;
  }

  /**
   * Steps 6–7: emit auto_retry_start and drop the failed message from the runtime context — both
   * before the wake (step 9) can run, since the timer that ends the wait cannot fire in between.
   */
  protected announce(fields: Announcement, retryAt: number): void {
    const start: AutoRetryStartEvent = {
      type: 'auto_retry_start',
      ...fields,
      retryAt,
      chainId: this.chainId as string,
    };
    const { type: _type, ...pending } = start;
    this.pending = pending;
    this.retriesStarted += 1;
    this.host.emit(start);
    this.host.run.trimTrailingError();
  }

  /** The history writes of one event in one transaction, the chain's row first if it is not written yet. */
  protected record(writes: () => void): void {
    this.host.records.batch(() => {
      this.writeChainRow();
      writes();
    });
  }

  /** A chain's row is written with its first event, inside that event's transaction. */
  private writeChainRow(): void {
    if (!this.chainRowDue || this.chainId === undefined) return;
    this.chainRowDue = false;
    this.host.records.opened(this.chainId);
  }

  /** Arm the wait: `delayMs` from now, or — a scheduled retry — until the clock reaches `until`. */
  protected startBackoff(delayMs: number, until?: number): void {
    const generation = ++this.generation;
    this.retryAbortController = new AbortController();
    this.phase = 'sleeping';
    this.scheduledAt = until;
    const signal = this.retryAbortController.signal;
    const end = { woke: () => this.onWake(generation), aborted: () => this.onSleepAborted(generation) };
    if (until === undefined) this.wait.start(delayMs, signal, end);
    else this.wait.startUntil(until, () => this.host.now(), signal, end);
  }

  private onWake(generation: number): void {
    // A cancel that won the race already ended the chain: never retry after it.
    if (generation !== this.generation || this.phase !== 'sleeping') return;
    // The schedule has run: a crash from here on is an ordinary interrupted retry.
    if (this.scheduledAt !== undefined && this.chainId !== undefined) this.host.records.scheduled(this.chainId, null);
    this.scheduledAt = undefined;
    // Lifecycle step 9: straight on, no extra timer — the wait is itself a timer, so the run that
    // ended has settled.
    this.phase = 'running';
    this.wait.send().catch((error: unknown) => {
      if (generation !== this.generation) return;
      const finalError = errorText(error);
      this.finishChain({ success: false, attempt: this.retryAttempt, finalError, outcome: 'not_retryable' });
    });
  }

  private onSleepAborted(generation: number): void {
    if (generation !== this.generation || this.phase !== 'sleeping') return;
    this.cancelChain();
  }

  /**
   * Cancel the chain while it waits, during the backoff.
   * Once the retried request is on its way the retry has happened, so a cancel that loses the
   * race changes nothing (exactly one of "cancelled" or "retried", never both); Stop (abort())
   * still stops that request like any other.
   */
  abortRetry(): boolean {
    if (!this.retryPromise || this.phase === 'running') return false;
    this.retryAbortController?.abort();
    this.cancelChain();
    return true;
  }

  /** An internal error broke the chain: end it (failure) so nobody waits on it forever. */
  abandon(finalError: string): void {
    if (!this.retryPromise) return;
    this.retryAbortController?.abort();
    this.finishChain({
      success: false,
      attempt: Math.max(0, this.retryAttempt - 1),
      finalError,
      outcome: 'not_retryable',
    });
  }

  /**
   * The app is quitting: close the open chain as interrupted rather than cancelled, so the next
   * start can offer to continue it. Returns false when no chain was open.
   */
  interrupt(): boolean {
    if (!this.retryPromise) return false;
    this.retryAbortController?.abort();
    this.finishChain({
      success: false,
      attempt: this.retryAttempt,
      finalError: INTERRUPTED_FINAL_ERROR,
      outcome: INTERRUPTED_OUTCOME,
    });
    return true;
  }

  private cancelChain(): void {
    this.finishChain({
      success: false,
      attempt: this.retryAttempt,
      finalError: 'Retry cancelled',
      outcome: 'cancelled',
    });
  }

  /** End the chain: `before` (the final decision, if any) and the chain row are written in one transaction. */
  protected finishChain(end: ChainEnd, before?: () => void): void {
    const chainId = this.chainId ?? this.host.records.newChainId();
    // A schedule outlives only a stop of the app (interrupted), which the next start takes up again.
    const dropSchedule = this.scheduledAt !== undefined && end.outcome !== INTERRUPTED_OUTCOME;
    this.record(() => {
      before?.();
      if (dropSchedule) this.host.records.scheduled(chainId, null);
      this.host.records.closed(chainId, {
        outcome: end.outcome,
        attempts: this.retriesStarted,
        finalError: end.finalError ?? null,
      });
    });
    this.host.emit({
      type: 'auto_retry_end',
      success: end.success,
      attempt: end.attempt,
      ...(end.finalError !== undefined ? { finalError: end.finalError } : {}),
      outcome: end.outcome,
      chainId,
    });
    this.reset();
  }

  private reset(): void {
    this.wait.clear();
    this.generation += 1;
    this.retryAttempt = 0;
    this.retryAbortController = undefined;
    this.phase = 'idle';
    this.pending = null;
    this.chainId = undefined;
    this.retriesStarted = 0;
    this.lastClassification = undefined;
    this.goOnline = undefined;
    this.chainRowDue = false;
    this.scheduledAt = undefined;
    const resolve = this.retryResolve;
    this.retryPromise = undefined;
    this.retryResolve = undefined;
    resolve?.();
  }
}

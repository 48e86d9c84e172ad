// The retry lifecycle (docs/retry-policy.md, "The retry lifecycle"), step by step, for one
// AgentSession: the attempt counter, the chain promise, the abortable backoff and the
// auto_retry_start/end events. The decision itself comes from the decision table (decideRetry);
// this module only carries it out. AgentSession owns one RetryController and calls it from its
// agent_end / message_end handlers.
import type { ChainOutcome } from '../../shared/error-category';
import type { AssistantChatMessage } from '../../shared/messages';
import type { AutoRetryStartEvent, PendingRetry, RetryEvent } from '../../shared/events';
import type { RetrySettings } from '../../shared/settings';
import { abortableSleep, type Sleep } from './abortable-sleep';
import type { Classification } from './classify-error';
import { decideRetry, settledDecision, type DecisionContext, type RetryDecision } from './decide-retry';
import type { UsageLimitResult } from './ports';

/** What the controller needs from its session. */
export interface RetryHost {
  retrySettings(): RetrySettings;
  emit(event: RetryEvent): void;
  /** Lifecycle step 7: drop the trailing assistant error from the runtime context (history keeps it). */
  trimTrailingError(): void;
  /** Run agent.continue() once the current run has settled; rejects if it cannot start. */
  continueAgent(): Promise<void>;
  markUsageLimitReached(options: { retryAfterMs?: number }): UsageLimitResult;
  decisionContext(): DecisionContext;
  chainOpened(chainId: string): void;
  chainClosed(chainId: string, end: { outcome: ChainOutcome; attempts: number; finalError: string | null }): void;
  decisionMade(entry: {
    decision: RetryDecision;
    classification: Classification;
    errorMessage: string;
    chainId: string | null;
    finalDecision: 'abort' | 'success' | null;
    /** The attempt this record is about, 1-based (the first try is 1). */
    attempt: number;
  }): void;
  newId(): string;
  now(): number;
  /** Run the history writes of one event (chain, link, decision) as one transaction. */
  batch(writes: () => void): void;
}

type Phase = 'idle' | 'sleeping' | 'running';

export class RetryController {
  // The lifecycle's four pieces of state, plus the bookkeeping that makes cancel races safe.
  private retryAttempt = 0;
  private retryPromise: Promise<void> | undefined;
  private retryResolve: (() => void) | undefined;
  private retryAbortController: AbortController | undefined;

  private phase: Phase = 'idle';
  private chainId: string | undefined;
  private generation = 0;
  private retriesStarted = 0;
  private sleep: Sleep | undefined;
  private pending: PendingRetry | null = null;
  private lastClassification: Classification | undefined;

  constructor(private readonly host: RetryHost) {}

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

  /**
   * handleRetryableError, steps 1–9 of the lifecycle. Returns true when a retry was started (the
   * session then skips the compaction check for this turn). `arrivedAt` is when the error reached
   * us: the wait runs from then, so the time spent storing the turn and deciding is not added to it.
   */
  handleRetryableError(
    message: AssistantChatMessage,
    classification: Classification,
    arrivedAt: number = this.host.now(),
  ): boolean {
    const settings = this.host.retrySettings();
    if (!settings.enabled) return false; // step 1
    this.retryAttempt += 1; // step 2: increment before the max check
    const opening = !this.retryPromise;
    if (opening) this.openChain();
    const chainId = this.chainId as string;
    const errorMessage = message.errorMessage ?? '';
    this.lastClassification = classification;

    let decision = decideRetry(classification, this.retryAttempt, this.host.decisionContext(), settings); // steps 3–4
    if (decision.shouldRetry || decision.exceedsMaxDelay)
      decision = this.tryCredentialSwitch(decision, classification, settings); // step 5
    const record = (finalDecision: 'abort' | null) => () => {
      if (opening) this.host.chainOpened(chainId);
      this.host.decisionMade({
        decision,
        classification,
        errorMessage,
        chainId,
        finalDecision,
        attempt: this.retryAttempt,
      });
    };
    if (!decision.shouldRetry) {
      const finalError = decision.exceedsMaxDelay ? `${decision.reason}. ${errorMessage}` : errorMessage;
      this.finishChain(
        { success: false, attempt: this.retryAttempt - 1, finalError, outcome: 'exhausted' },
        record('abort'),
      );
      return false;
    }

    const delayMs = decision.waitMs;
    const retryAt = arrivedAt + delayMs;
    // The timer is armed first: the bookkeeping below (one transaction, the log line, the events)
    // runs inside the wait instead of before it.
    this.startBackoff(Math.max(0, retryAt - this.host.now())); // step 8
    this.host.batch(record(null));
    const start: AutoRetryStartEvent = {
      type: 'auto_retry_start',
      attempt: this.retryAttempt,
      maxAttempts: decision.maxAttempts - 1,
      delayMs,
      errorMessage,
      category: classification.category,
      retryAt,
      chainId,
    };
    const { type: _type, ...pending } = start;
    this.pending = pending;
    this.retriesStarted += 1;
    this.host.emit(start); // step 6
    this.host.trimTrailingError(); // step 7, done before the wake (step 9) can run
    return true;
  }

  /** Lifecycle step 5: a usage limit first tries another credential; a switch makes the delay 0. */
  private tryCredentialSwitch(
    decision: RetryDecision,
    classification: Classification,
    settings: RetrySettings,
  ): RetryDecision {
    if (classification.category !== 'usage_limit') return decision;
    if (this.retryAttempt >= decision.maxAttempts) return decision;
    const result = this.host.markUsageLimitReached({ retryAfterMs: classification.retryAfterMs });
    if (!result.switched) return decision;
    return decideRetry(
      classification,
      this.retryAttempt,
      { ...this.host.decisionContext(), credentialSwitched: true },
      settings,
    );
  }

  private openChain(): void {
    this.retryPromise = new Promise<void>((resolve) => {
      this.retryResolve = resolve;
    });
    this.chainId = this.host.newId();
    this.retriesStarted = 0;
  }

  private startBackoff(delayMs: number): void {
    const generation = ++this.generation;
    this.retryAbortController = new AbortController();
    this.phase = 'sleeping';
    this.sleep = abortableSleep(delayMs, this.retryAbortController.signal);
    this.sleep.promise.then(
      () => this.onWake(generation),
      () => this.onSleepAborted(generation),
    );
  }

  private onWake(generation: number): void {
    // A cancel that won the race already ended the chain: never retry after it.
    if (generation !== this.generation || this.phase !== 'sleeping') return;
    this.sleep = undefined;
    // Lifecycle step 9: straight on, no extra timer — the wait is itself a timer, so the run that
    // ended has settled, and continueAgent waits for the agent to be idle before continue().
    this.phase = 'running';
    this.host.continueAgent().catch((error: unknown) => {
      if (generation !== this.generation) return;
      const finalError = error instanceof Error ? error.message : String(error);
      this.finishChain({ success: false, attempt: this.retryAttempt, finalError, outcome: 'not_retryable' });
    });
  }

  private onSleepAborted(generation: number): void {
    if (generation !== this.generation || this.phase !== 'sleeping') return;
    this.cancelChain();
  }

  /** The first good assistant message after a retry began ends the chain with success. */
  onAssistantMessageEnd(message: AssistantChatMessage): void {
    if (this.retryAttempt === 0 || this.phase !== 'running') return;
    if (message.stopReason === 'error' || message.stopReason === 'aborted') return;
    // The success record names the error the chain recovered from (its finalDecision is "success").
    const recovered = this.lastClassification ?? {
      category: 'unexpected',
      errorType: 'Unclassifiable',
      source: 'fallback',
    };
    const attempt = this.retryAttempt + 1;
    const decision = settledDecision(
      recovered.category,
      'retry',
      `recovered after ${this.retryAttempt} ${this.retryAttempt === 1 ? 'retry' : 'retries'}`,
      attempt,
    );
    const chainId = this.chainId ?? null;
    this.finishChain({ success: true, attempt: this.retryAttempt, outcome: 'recovered' }, () =>
      this.host.decisionMade({
        decision,
        classification: recovered,
        errorMessage: '',
        chainId,
        finalDecision: 'success',
        attempt,
      }),
    );
  }

  /**
   * A retried run ended with an error that does not retry (or retry was switched off, or it
   * overflowed): end the chain so no banner is left behind.
   */
  endChainWithoutRetry(message: AssistantChatMessage, outcome: ChainOutcome): void {
    if (!this.retryPromise || this.phase !== 'running') return;
    const finalError =
      message.errorMessage ?? (message.stopReason === 'aborted' ? 'Request was aborted' : 'Retry stopped');
    this.finishChain({ success: false, attempt: this.retryAttempt, finalError, outcome });
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

  /** Skip the rest of the backoff ("Retry now"). */
  retryNow(): boolean {
    return this.phase === 'sleeping' && this.sleep !== undefined && this.sleep.skip();
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
  private finishChain(
    end: { success: boolean; attempt: number; finalError?: string; outcome: ChainOutcome },
    before?: () => void,
  ): void {
    const chainId = this.chainId ?? this.host.newId();
    this.host.batch(() => {
      before?.();
      this.host.chainClosed(chainId, {
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
    this.generation += 1;
    this.retryAttempt = 0;
    this.retryAbortController = undefined;
    this.phase = 'idle';
    this.sleep = undefined;
    this.pending = null;
    this.chainId = undefined;
    this.retriesStarted = 0;
    this.lastClassification = undefined;
    const resolve = this.retryResolve;
    this.retryPromise = undefined;
    this.retryResolve = undefined;
    resolve?.();
  }
}

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
}

type Phase = 'idle' | 'sleeping' | 'scheduled' | 'running';

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
  private continueTimer: ReturnType<typeof setTimeout> | undefined;
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
   * session then skips the compaction check for this turn).
   */
  handleRetryableError(message: AssistantChatMessage, classification: Classification): boolean {
    const settings = this.host.retrySettings();
    if (!settings.enabled) return false; // step 1
    this.retryAttempt += 1; // step 2: increment before the max check
    if (!this.retryPromise) this.openChain();
    const chainId = this.chainId ?? null;
    const errorMessage = message.errorMessage ?? '';
    this.lastClassification = classification;

    let decision = decideRetry(classification, this.retryAttempt, this.host.decisionContext(), settings); // steps 3–4
    if (decision.shouldRetry || decision.exceedsMaxDelay)
      decision = this.tryCredentialSwitch(decision, classification, settings); // step 5
    if (!decision.shouldRetry) {
      this.host.decisionMade({
        decision,
        classification,
        errorMessage,
        chainId,
        finalDecision: 'abort',
        attempt: this.retryAttempt,
      });
      const finalError = decision.exceedsMaxDelay ? `${decision.reason}. ${errorMessage}` : errorMessage;
      this.finishChain({ success: false, attempt: this.retryAttempt - 1, finalError, outcome: 'exhausted' });
      return false;
    }
    this.host.decisionMade({
      decision,
      classification,
      errorMessage,
      chainId,
      finalDecision: null,
      attempt: this.retryAttempt,
    });

    const delayMs = decision.waitMs;
    const start: AutoRetryStartEvent = {
      type: 'auto_retry_start',
      attempt: this.retryAttempt,
      maxAttempts: decision.maxAttempts - 1,
      delayMs,
      errorMessage,
      category: classification.category,
      retryAt: this.host.now() + delayMs,
      chainId: this.chainId as string,
    };
    const { type: _type, ...pending } = start;
    this.pending = pending;
    this.retriesStarted += 1;
    this.host.emit(start); // step 6
    this.host.trimTrailingError(); // step 7
    this.startBackoff(delayMs); // steps 8–9
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
    this.host.chainOpened(this.chainId);
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
    this.phase = 'scheduled';
    this.sleep = undefined;
    // setTimeout(…, 0) (lifecycle step 9): the agent_end run must have settled before continue().
    this.continueTimer = setTimeout(() => {
      this.continueTimer = undefined;
      if (generation !== this.generation || this.phase !== 'scheduled') return;
      this.phase = 'running';
      this.host.continueAgent().catch((error: unknown) => {
        if (generation !== this.generation) return;
        const finalError = error instanceof Error ? error.message : String(error);
        this.finishChain({ success: false, attempt: this.retryAttempt, finalError, outcome: 'not_retryable' });
      });
    }, 0);
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
    this.host.decisionMade({
      decision: settledDecision(
        recovered.category,
        'retry',
        `recovered after ${this.retryAttempt} ${this.retryAttempt === 1 ? 'retry' : 'retries'}`,
        this.retryAttempt + 1,
      ),
      classification: recovered,
      errorMessage: '',
      chainId: this.chainId ?? null,
      finalDecision: 'success',
      attempt: this.retryAttempt + 1,
    });
    this.finishChain({ success: true, attempt: this.retryAttempt, outcome: 'recovered' });
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
   * Cancel the chain while it waits: during the backoff or before the scheduled continue().
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
    if (this.continueTimer) clearTimeout(this.continueTimer);
    this.continueTimer = undefined;
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
    if (this.continueTimer) clearTimeout(this.continueTimer);
    this.continueTimer = undefined;
    this.finishChain({
      success: false,
      attempt: this.retryAttempt,
      finalError: 'Retry cancelled',
      outcome: 'cancelled',
    });
  }

  private finishChain(end: { success: boolean; attempt: number; finalError?: string; outcome: ChainOutcome }): void {
    const chainId = this.chainId ?? this.host.newId();
    this.host.emit({
      type: 'auto_retry_end',
      success: end.success,
      attempt: end.attempt,
      ...(end.finalError !== undefined ? { finalError: end.finalError } : {}),
      outcome: end.outcome,
      chainId,
    });
    this.host.chainClosed(chainId, {
      outcome: end.outcome,
      attempts: this.retriesStarted,
      finalError: end.finalError ?? null,
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

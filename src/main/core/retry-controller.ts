// The retry lifecycle (docs/retry-policy.md, "The retry lifecycle"), step by step, for one
// AgentSession: the attempt counter, the chain promise, the abortable backoff and the
// auto_retry_start/end events. The decision itself comes from the decision table (decideRetry);
// this module only carries it out — with the step-5 switches (another key, the next fallback
// model), the offline pause of `connection` failures and the continuation of an interrupted
// chain, whose rules live in model-fallback.ts, offline-pause.ts and resume-state.ts.
// AgentSession owns one RetryController and calls it from its agent_end / message_end handlers.
import { INTERRUPTED_OUTCOME, type ChainOutcome } from '../../shared/error-category';
import type { AssistantChatMessage } from '../../shared/messages';
import type { AutoRetryStartEvent, InterruptedRetry, PendingRetry } from '../../shared/events';
import type { RetrySettings } from '../../shared/settings';
import { abortableSleep, type Sleep } from './abortable-sleep';
import type { Classification } from './classify-error';
import { decideRetry, settledDecision, type RetryDecision } from './decide-retry';
import { attemptAfterConnectionFailure, isReachable, offlineReason, waitUntilOnline } from './offline-pause';
import { interruptedDecision } from './resume-state';
import type { RetryHost } from './retry-host';
import { usageLimitStep } from './usage-limit-step';

/** The final error of a chain the app closed while it waited (it can be continued on the next start). */
export const INTERRUPTED_FINAL_ERROR = 'Interrupted: the app stopped while retrying';

export type { RetryHost };

type Phase = 'idle' | 'probing' | 'offline' | 'sleeping' | 'scheduled' | 'running';

/** What auto_retry_start announces, before the controller adds when and which chain. */
type Announcement = Omit<AutoRetryStartEvent, 'type' | 'retryAt' | 'chainId'>;

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
  /** While paused offline: send the held retry now (the network is back, or "Retry now"). */
  private goOnline: (() => void) | undefined;

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
   * session then skips the compaction check for this turn) — or, for a `connection` failure with a
   * network check, when the check runs first: then the chain pauses offline or goes on as usual.
   */
  handleRetryableError(message: AssistantChatMessage, classification: Classification): boolean {
    const settings = this.host.retrySettings();
    if (!settings.enabled) return false; // step 1
    const check = this.host.checkNetwork;
    if (classification.category === 'connection' && check) {
      this.probeBeforeCounting(message, classification, check);
      return true;
    }
    this.retryAttempt += 1; // step 2: increment before the max check
    return this.decideAndStart(message, classification, settings);
  }

  private decideAndStart(
    message: AssistantChatMessage,
    classification: Classification,
    settings: RetrySettings,
  ): boolean {
    if (!this.retryPromise) this.openChain();
    const chainId = this.chainId ?? null;
    const errorMessage = message.errorMessage ?? '';
    this.lastClassification = classification;

    const first = decideRetry(classification, this.retryAttempt, this.host.decisionContext(), settings); // steps 3–4
    const { decision, switchedModel, finalReason } = usageLimitStep({
      decision: first,
      classification,
      attempt: this.retryAttempt,
      settings,
      host: this.host,
    }); // step 5
    const attempt = this.retryAttempt;
    if (!decision.shouldRetry) {
      this.host.decisionMade({ decision, classification, errorMessage, chainId, finalDecision: 'abort', attempt });
      const finalError = finalReason ? `${finalReason}. ${errorMessage}` : errorMessage;
      this.finishChain({ success: false, attempt: attempt - 1, finalError, outcome: 'exhausted' });
      return false;
    }
    this.host.decisionMade({
      decision,
      classification,
      errorMessage,
      chainId,
      finalDecision: null,
      attempt,
      switchedModel,
    });
    this.announce({
      attempt,
      maxAttempts: decision.maxAttempts - 1,
      delayMs: decision.waitMs,
      errorMessage,
      category: classification.category,
      ...(switchedModel ? { switchedModel } : {}),
    });
    this.startBackoff(decision.waitMs); // steps 8–9
    return true;
  }

  /** Steps 6–7: emit auto_retry_start and drop the failed message from the runtime context. */
  private announce(fields: Announcement): void {
    const start: AutoRetryStartEvent = {
      type: 'auto_retry_start',
      ...fields,
      retryAt: this.host.now() + fields.delayMs,
      chainId: this.chainId as string,
    };
    const { type: _type, ...pending } = start;
    this.pending = pending;
    this.retriesStarted += 1;
    this.host.emit(start);
    this.host.trimTrailingError();
  }

  /**
   * A `connection` failure: ask whether the provider can be reached before counting it. Online,
   * the failure counts and the table decides as usual; offline, the chain pauses.
   */
  private probeBeforeCounting(
    message: AssistantChatMessage,
    classification: Classification,
    check: () => Promise<boolean>,
  ): void {
    if (!this.retryPromise) this.openChain();
    const previous = this.retryAttempt;
    const generation = ++this.generation;
    this.phase = 'probing';
    void isReachable(check).then((online) => {
      if (generation !== this.generation || this.phase !== 'probing') return;
      this.phase = 'idle';
      this.retryAttempt = attemptAfterConnectionFailure(previous, !online);
      const settings = this.host.retrySettings();
      const decision = decideRetry(classification, this.retryAttempt, this.host.decisionContext(), settings);
      if (online || !decision.shouldRetry) this.decideAndStart(message, classification, settings);
      else this.pauseOffline(message, classification, decision, check);
    });
  }

  /** Offline: keep the due retry, stop the countdown, and send it as soon as the network is back. */
  private pauseOffline(
    message: AssistantChatMessage,
    classification: Classification,
    decision: RetryDecision,
    check: () => Promise<boolean>,
  ): void {
    const attempt = this.retryAttempt;
    const maxAttempts = decision.maxAttempts - 1;
    const errorMessage = message.errorMessage ?? '';
    const chainId = this.chainId as string;
    const reason = offlineReason(attempt, maxAttempts);
    this.lastClassification = classification;
    this.host.decisionMade({
      decision: { ...decision, waitMs: 0, reason },
      classification,
      errorMessage,
      chainId,
      finalDecision: null,
      attempt,
    });
    const fields = { attempt, maxAttempts, errorMessage, category: classification.category, chainId };
    this.pending = { ...fields, delayMs: 0, retryAt: this.host.now(), offline: true };
    this.host.emit({ type: 'auto_retry_paused', reason: 'offline', ...fields });
    this.host.trimTrailingError();

    const generation = ++this.generation;
    this.phase = 'offline';
    this.retryAbortController = new AbortController();
    this.goOnline = () => {
      if (generation !== this.generation || this.phase !== 'offline') return;
      this.goOnline = undefined;
      this.announce({ attempt, maxAttempts, delayMs: 0, errorMessage, category: classification.category });
      this.startBackoff(0);
    };
    waitUntilOnline(check, this.retryAbortController.signal, this.host.offlinePollMs).then(
      () => this.goOnline?.(),
      () => undefined, // cancelled: abortRetry() has ended the chain already
    );
  }

  /**
   * Continue a chain that a quit or a crash interrupted (docs/retry-policy.md, "Resume after a
   * restart"): the same chain id and counter, a decision record that says so, the retry at once.
   */
  resumeChain(offer: InterruptedRetry): void {
    if (this.retryPromise) throw new Error('A retry chain is already running.');
    this.retryPromise = new Promise<void>((resolve) => {
      this.retryResolve = resolve;
    });
    this.chainId = offer.chainId;
    this.retryAttempt = offer.attempt;
    this.retriesStarted = offer.attempt - 1;
    const entry = interruptedDecision(offer, 'resume');
    this.lastClassification = entry.classification;
    this.host.chainReopened(offer.chainId);
    this.host.decisionMade(entry);
    const { attempt, maxAttempts, errorMessage, category } = offer;
    this.announce({ attempt, maxAttempts, delayMs: 0, errorMessage, category, resumed: true });
    this.startBackoff(0);
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

  /** Skip the rest of the backoff ("Retry now"); while offline, try the held retry now. */
  retryNow(): boolean {
    if (this.phase === 'offline' && this.goOnline) {
      this.goOnline();
      return true;
    }
    return this.phase === 'sleeping' && this.sleep !== undefined && this.sleep.skip();
  }

  /**
   * The app is quitting: close the open chain as interrupted rather than cancelled, so the next
   * start can offer to continue it. Returns false when no chain was open.
   */
  interrupt(): boolean {
    if (!this.retryPromise) return false;
    this.retryAbortController?.abort();
    if (this.continueTimer) clearTimeout(this.continueTimer);
    this.continueTimer = undefined;
    this.finishChain({
      success: false,
      attempt: this.retryAttempt,
      finalError: INTERRUPTED_FINAL_ERROR,
      outcome: INTERRUPTED_OUTCOME,
    });
    return true;
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
    this.goOnline = undefined;
    const resolve = this.retryResolve;
    this.retryPromise = undefined;
    this.retryResolve = undefined;
    resolve?.();
  }
}

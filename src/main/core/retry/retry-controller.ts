// The retry lifecycle (docs/retry-policy.md, "The retry lifecycle"), step by step, for one
// AgentSession: the attempt counter, the chain promise, the abortable backoff and the
// auto_retry_start/end events. The decision comes from the decision table (decideRetry), taken
// once per failure; this module carries it out — with the step-5 switches (another key, the next
// fallback model, which usageLimitStep returns and this applies), the offline pause of
// `connection` failures and the continuation of an interrupted chain, whose rules live in
// usage-limit-step.ts, offline-pause.ts, resume-state.ts and scheduled-retry.ts (a wait above the
// maximum delay scheduled for the time the provider named); the wait itself is retry-wait.ts.
// AgentSession owns one RetryController and calls it from its agent_end / message_end handlers.
import { INTERRUPTED_OUTCOME, type ChainOutcome } from '../../../shared/error-category';
import type { AssistantChatMessage } from '../../../shared/messages';
import type { AutoRetryStartEvent, InterruptedRetry, PendingRetry, ScheduledRetry } from '../../../shared/events';
import type { Classification } from './classify-error';
import { decideRetry, recoveredEntry, type RetryDecision } from './decide-retry';
import { attemptAfterConnectionFailure, isReachable, offlineReason, waitUntilOnline } from './offline-pause';
import { interruptedDecision } from './resume-state';
import { scheduledDecision, withNamedTime } from './scheduled-retry';
import type { NetworkProbe, RetryHost } from './retry-host';
import { RetryWait } from './retry-wait';
import { usageLimitStep } from './usage-limit-step';
import { errorText } from '../../../shared/text';

/** The final error of a chain the app closed while it waited (it can be continued on the next start). */
export const INTERRUPTED_FINAL_ERROR = 'Interrupted: the app stopped while retrying';

export type { RetryHost };

type Phase = 'idle' | 'probing' | 'offline' | 'sleeping' | 'running';

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
  /** The wait of the current retry. */
  private readonly wait: RetryWait;
  private pending: PendingRetry | null = null;
  private lastClassification: Classification | undefined;
  /** While paused offline: send the held retry now (the network is back, or "Retry now"). */
  private goOnline: (() => void) | undefined;
  /** The open chain's row is not written yet: it goes with the chain's first event (writeChainRow). */
  private chainRowDue = false;
  /** The time a scheduled retry waits for, while it waits (stored, so that a restart runs it). */
  private scheduledAt: number | undefined;

  constructor(private readonly host: RetryHost) {
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

  /**
   * handleRetryableError, steps 1–9 of the lifecycle. Returns true when a retry was started (the
   * session then skips the compaction check for this turn) — or, for a `connection` failure with a
   * network check, when the check runs first: then the chain pauses offline or goes on as usual.
   * `arrivedAt` is when the error reached us: the wait runs from then, so the time spent storing the
   * turn, checking the network and deciding is not added to it.
   */
  handleRetryableError(
    message: AssistantChatMessage,
    classification: Classification,
    arrivedAt: number = this.host.now(),
  ): boolean {
    if (!this.host.settings().enabled) return false; // step 1
    const network = this.host.network;
    if (classification.category === 'connection' && network) {
      this.probeBeforeCounting(message, classification, network, arrivedAt);
      return true;
    }
    if (!this.retryPromise) this.openChain();
    this.retryAttempt += 1; // step 2: increment before the max check
    return this.start(message, classification, this.decide(classification), arrivedAt);
  }

  /** Steps 3–4: the table's one decision for this failure (settings read, and clamped, once). */
  private decide(classification: Classification): RetryDecision {
    return decideRetry(classification, this.retryAttempt, this.host.settings());
  }

  /** Steps 5–8 on the failure's decision: the usage-limit switch, then the retry or the chain's end. */
  private start(
    message: AssistantChatMessage,
    classification: Classification,
    tableDecision: RetryDecision,
    arrivedAt: number,
  ): boolean {
    const chainId = this.chainId ?? null;
    const errorMessage = message.errorMessage ?? '';
    this.lastClassification = classification;
    const attempt = this.retryAttempt;
    const step = usageLimitStep({ decision: tableDecision, classification, attempt, limits: this.host.limits });
    const { decision, switchedModel, finalReason } = step;
    // Decided: only now does the session move to the fallback model (its model_changed comes first).
    if (switchedModel) this.host.limits.switchModel(switchedModel);
    // A stop for a wait above the maximum delay, or a scheduled retry, records the time named.
    const entry = { decision: withNamedTime(decision, arrivedAt), classification, errorMessage, chainId, attempt };
    if (!decision.shouldRetry) {
      const finalError = finalReason ? `${finalReason}. ${errorMessage}` : errorMessage;
      this.finishChain({ success: false, attempt: attempt - 1, finalError, outcome: 'exhausted' }, () =>
        this.host.records.decided({ ...entry, finalDecision: 'abort' }),
      );
      return false;
    }
    const retryAt = arrivedAt + decision.waitMs;
    // The timer is armed first (step 8): the bookkeeping below — one transaction, the log line, the
    // events — runs inside the wait instead of before it.
    this.startBackoff(Math.max(0, retryAt - this.host.now()), decision.scheduled ? retryAt : undefined);
    this.record(() => {
      this.host.records.decided({ ...entry, finalDecision: null, switchedModel });
      if (decision.scheduled && chainId !== null) this.host.records.scheduled(chainId, retryAt);
    });
    this.announce(
      {
        attempt,
        maxAttempts: decision.maxAttempts - 1,
        delayMs: decision.waitMs,
        errorMessage,
        category: classification.category,
        ...(switchedModel ? { switchedModel } : {}),
        ...(decision.scheduled ? { scheduled: true } : {}),
      },
      retryAt,
    );
    return true;
  }

  /**
   * Steps 6–7: emit auto_retry_start and drop the failed message from the runtime context — both
   * before the wake (step 9) can run, since the timer that ends the wait cannot fire in between.
   */
  private announce(fields: Announcement, retryAt: number): void {
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
  private record(writes: () => void): void {
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

  /**
   * A `connection` failure: ask whether the provider can be reached before counting it. Online,
   * the failure counts and the table decides as usual; offline, the chain pauses on that same
   * decision, unless it ends the chain.
   */
  private probeBeforeCounting(
    message: AssistantChatMessage,
    classification: Classification,
    network: NetworkProbe,
    arrivedAt: number,
  ): void {
    if (!this.retryPromise) this.openChain();
    const previous = this.retryAttempt;
    const generation = ++this.generation;
    this.phase = 'probing';
    const check = () => network.isReachable();
    void isReachable(check).then((online) => {
      if (generation !== this.generation || this.phase !== 'probing') return;
      this.phase = 'idle';
      this.retryAttempt = attemptAfterConnectionFailure(previous, !online);
      const decision = this.decide(classification);
      if (online || !decision.shouldRetry) this.start(message, classification, decision, arrivedAt);
      else this.pauseOffline(message, classification, decision, network);
    });
  }

  /** Offline: keep the due retry, stop the countdown, and send it as soon as the network is back. */
  private pauseOffline(
    message: AssistantChatMessage,
    classification: Classification,
    decision: RetryDecision,
    network: NetworkProbe,
  ): void {
    const attempt = this.retryAttempt;
    const maxAttempts = decision.maxAttempts - 1;
    const errorMessage = message.errorMessage ?? '';
    const chainId = this.chainId as string;
    const reason = offlineReason(attempt, maxAttempts);
    this.lastClassification = classification;
    this.record(() =>
      this.host.records.decided({
        decision: { ...decision, waitMs: 0, reason },
        classification,
        errorMessage,
        chainId,
        finalDecision: null,
        attempt,
      }),
    );
    const fields = { attempt, maxAttempts, errorMessage, category: classification.category, chainId };
    this.pending = { ...fields, delayMs: 0, retryAt: this.host.now(), offline: true };
    this.host.emit({ type: 'auto_retry_paused', reason: 'offline', ...fields });
    this.host.run.trimTrailingError();

    const generation = ++this.generation;
    this.phase = 'offline';
    this.retryAbortController = new AbortController();
    this.goOnline = () => {
      if (generation !== this.generation || this.phase !== 'offline') return;
      this.goOnline = undefined;
      this.startBackoff(0);
      this.announce(
        { attempt, maxAttempts, delayMs: 0, errorMessage, category: classification.category },
        this.host.now(),
      );
    };
    waitUntilOnline(() => network.isReachable(), this.retryAbortController.signal, network.pollMs).then(
      () => this.goOnline?.(),
      () => undefined, // cancelled: abortRetry() has ended the chain already
    );
  }

  /**
   * Continue a chain that a quit or a crash interrupted (docs/retry-policy.md, "Resume after a
   * restart"): the same chain id and counter, a decision record that says so, the retry at once —
   * or, for a schedule (`retryAt`; "Scheduled retries"), at its time, which may already have passed.
   * `by`: a restart continues it, or the person scheduled a chain that stopped ("Retry at …").
   */
  resumeChain(offer: InterruptedRetry | ScheduledRetry, by: 'restart' | 'person' = 'restart'): void {
    if (this.retryPromise) throw new Error('A retry chain is already running.');
    this.retryPromise = new Promise<void>((resolve) => {
      this.retryResolve = resolve;
    });
    this.chainId = offer.chainId;
    this.retryAttempt = offer.attempt;
    this.retriesStarted = offer.attempt - 1;
    const now = this.host.now();
    const at = 'retryAt' in offer && offer.retryAt > now ? offer.retryAt : undefined;
    const entry = 'retryAt' in offer ? scheduledDecision(offer, by, now) : interruptedDecision(offer, 'resume');
    this.lastClassification = entry.classification;
    this.startBackoff(0, at);
    this.host.records.batch(() => {
      this.host.records.reopened(offer.chainId);
      this.host.records.decided(entry);
      if (at !== undefined) this.host.records.scheduled(offer.chainId, at);
    });
    const { attempt, maxAttempts, errorMessage, category } = offer;
    const fields = { attempt, maxAttempts, errorMessage, category, delayMs: at === undefined ? 0 : at - now };
    const how = { ...(by === 'restart' ? { resumed: true } : {}), ...(at === undefined ? {} : { scheduled: true }) };
    this.announce({ ...fields, ...how }, at ?? now);
  }

  private openChain(): void {
    this.retryPromise = new Promise<void>((resolve) => {
      this.retryResolve = resolve;
    });
    this.chainId = this.host.records.newChainId();
    this.retriesStarted = 0;
    this.chainRowDue = true;
  }

  /** Arm the wait: `delayMs` from now, or — a scheduled retry — until the clock reaches `until`. */
  private startBackoff(delayMs: number, until?: number): void {
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

  /** The first good assistant message after a retry began ends the chain with success. */
  onAssistantMessageEnd(message: AssistantChatMessage): void {
    if (this.retryAttempt === 0 || this.phase !== 'running') return;
    if (message.stopReason === 'error' || message.stopReason === 'aborted') return;
    const entry = recoveredEntry(this.lastClassification, this.retryAttempt, this.chainId ?? null);
    this.finishChain({ success: true, attempt: this.retryAttempt, outcome: 'recovered' }, () =>
      this.host.records.decided(entry),
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

  /** Skip the rest of the backoff ("Retry now"); while offline, try the held retry now. */
  retryNow(): boolean {
    if (this.phase === 'offline' && this.goOnline) {
      this.goOnline();
      return true;
    }
    return this.phase === 'sleeping' && this.wait.skip();
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
  private finishChain(
    end: { success: boolean; attempt: number; finalError?: string; outcome: ChainOutcome },
    before?: () => void,
  ): void {
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

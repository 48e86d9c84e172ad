// The ways into a retry chain (docs/retry-policy.md, "The retry lifecycle"): a run's end on a
// failure (onRunEnd: retried, or stopped and recorded), a retryable failure — counted, decided once
// by the table (decideRetry), step 5's switches (usageLimitStep, below) — or first the offline pause
// of a `connection` failure, a chain continued after a restart or scheduled, and the reply that
// recovers it. The chain's own life is RetryChain (retry-chain.ts). AgentSession owns one
// RetryController; its turn events call onRunEnd at agent_end and the recovery hooks as replies end.
import type { ChainOutcome } from '../../../shared/error-category';
import type { AssistantChatMessage, ChatMessage } from '../../../shared/messages';
import type { InterruptedRetry, ScheduledRetry } from '../../../shared/events';
import { resolveRow } from '../../../shared/retry-policy/decision-table';
import type { Classification, Failure } from './classify-error';
import { afterUsageLimitSwitch, decideRetry, recoveredEntry, withNamedTime, type RetryDecision } from './decide-retry';
import { failoverStep } from './failover';
import { modelPath } from './model-fallback';
import { attemptAfterConnectionFailure, isReachable, offlineReason, waitUntilOnline } from './offline-pause';
import { interruptedDecision } from './resume-state';
import { RetryChain } from './retry-chain';
import { recordInternalError, recordStop } from './run-stops';
import { scheduledDecision } from './scheduled-retry';
import type { ModelSwitch } from './decide-retry';
import type { NetworkProbe, RetryHost, UsageLimits } from './retry-host';

export type { RetryHost };

/** A run that ended on a failed message (stopReason error or aborted), judged once by the session. */
export interface RunEnd {
  message: AssistantChatMessage;
  failure: Failure;
  /** classifyFailure(failure), taken once when the failed message ended. */
  classification: Classification;
  /** When the error reached the app: the retry's wait runs from then. */
  arrivedAt: number;
  /** The run's context holds something before its last prompt, which compaction could summarise. */
  canCompact: () => boolean;
}

/** What the session does next: nothing (a retry or a stop is under way), or the compaction path. */
export type RunEndVerdict = 'retrying' | 'stopped' | 'compact';

/** A reply that called tools; it succeeds only once its calls ran without a tool fault. */
export function isToolUse(message: ChatMessage): message is AssistantChatMessage {
  return message.role === 'assistant' && message.stopReason === 'toolUse';
}

export class RetryController extends RetryChain {
  /** The open chain retries a tool fault (invalid_output…): a retried reply that calls tools is judged once they ran. */
  private toolFaultChain = false;
  /** Failed attempts of the open chain made before a failover: each model gets its row's attempts. */
  private attemptsBeforeModel = 0;

  protected override openChain(): void {
    super.openChain();
    this.attemptsBeforeModel = 0;
  }

  /**
   * A run ended on a failure: retry it (the retry check runs first; if a retry started, the
   * compaction check is skipped), or stop — the stop's record is the controller's — and, for an
   * overflow with something older to summarise, send the session to the compaction path.
   */
  onRunEnd(end: RunEnd): RunEndVerdict {
    const { message, classification } = end;
    if (this.isRetryable(message, classification)) {
      if (!this.retryPromise) this.toolFaultChain = false;
      this.toolFaultChain ||= end.failure.kind === 'tool';
      if (this.handleRetryableError(message, classification, end.arrivedAt)) return 'retrying';
      if (!this.host.settings().enabled) this.stop(message, classification, 'disabled');
      return 'stopped';
    }
    // An overflow with nothing older to summarise (a first message too long for the model) cannot
    // be compacted: it stops here, so the card says so and the person's text goes back.
    const compact = classification.category === 'context_overflow' && end.canCompact();
    const outcome = compact ? 'compacted' : message.stopReason === 'aborted' ? 'cancelled' : 'not_retryable';
    this.stop(message, classification, outcome);
    return compact ? 'compact' : 'stopped';
  }

  /** Retryable: an error with a message, not an overflow, whose category's row retries (docs/retry-policy.md). */
  private isRetryable(message: AssistantChatMessage, classification: Classification): boolean {
    if (message.stopReason !== 'error' || !message.errorMessage) return false;
    if (classification.category === 'context_overflow') return false;
    return resolveRow(classification.category, this.host.settings()).action === 'retry';
  }

  /** A failed run that is not retried: its decision logged, and any chain it was part of ended. */
  private stop(message: AssistantChatMessage, classification: Classification, outcome: ChainOutcome): void {
    const chain = this.retryPromise && this.chainId ? { id: this.chainId, attempt: this.retryAttempt } : null;
    recordStop({ records: this.host.records, settings: this.host.settings(), chain }, message, classification, outcome);
    if (chain) this.endChainWithoutRetry(message, outcome);
  }

  /** An exception of our own while handling a turn: logged at ERROR, and any open chain is ended. */
  onInternalError(text: string): void {
    recordInternalError(this.host.records, text, this.chainId ?? null, this.retryAttempt);
    this.abandon(`Internal error: ${text}`);
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
    return decideRetry(classification, this.retryAttempt - this.attemptsBeforeModel, this.host.settings());
  }

  /** Steps 5–8 on the failure's decision: the usage-limit switch, then the retry or the chain's end. */
  private start(
    message: AssistantChatMessage,
    classification: Classification,
    tableDecision: RetryDecision,
    arrivedAt: number,
    online = true,
  ): boolean {
    const chainId = this.chainId ?? null;
    const errorMessage = message.errorMessage ?? '';
    this.lastClassification = classification;
    const attempt = this.retryAttempt;
    const attemptOnModel = attempt - this.attemptsBeforeModel;
    const limits = this.host.limits;
    const step = usageLimitStep({ decision: tableDecision, classification, attempt: attemptOnModel, limits });
    const failover = failoverStep({ decision: step.decision, attemptOnModel, online, port: this.host.failover });
    const { decision } = failover;
    const switchedModel = step.switchedModel ?? failover.switchedModel;
    const { finalReason } = step;
    // Decided: only now does the session move to the fallback model (its model_changed comes first).
    if (step.switchedModel) limits.switchModel(step.switchedModel);
    if (failover.switchedModel) this.failOver(failover.switchedModel, attempt);
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
        maxAttempts: this.attemptsBeforeModel + decision.maxAttempts - 1,
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
   * The session moves to the fallback model, which gets its row's attempts afresh, and the words
   * the failed attempt streamed go with the retry (before step 7 could drop them).
   */
  private failOver(change: ModelSwitch, attempt: number): void {
    this.host.failover?.use(change);
    this.attemptsBeforeModel = attempt;
    this.host.run.carryPartial?.();
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
      if (online || !decision.shouldRetry) this.start(message, classification, decision, arrivedAt, online);
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
    const maxAttempts = this.attemptsBeforeModel + decision.maxAttempts - 1;
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
    this.continueChain(offer.chainId, offer.attempt);
    this.attemptsBeforeModel = 0;
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

  /**
   * A reply ended (message_end). A provider failure is recovered once the retried attempt streams
   * a reply, tool calls included: an approval it waits for is no longer that retry. A chain
   * retrying a tool fault judges a reply that called tools once its calls ran (onToolsRan).
   */
  onAssistantMessageEnd(message: AssistantChatMessage): void {
    if (this.toolFaultChain && isToolUse(message)) return;
    this.recoverOn(message);
  }

  /** A reply's tool calls ran without a tool fault (turn_end): it has succeeded. */
  onToolsRan(message: AssistantChatMessage): void {
    this.recoverOn(message);
  }

  /** The first good assistant message after a retry began ends the chain with success. */
  private recoverOn(message: AssistantChatMessage): void {
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

  /** Skip the rest of the backoff ("Retry now"); while offline, try the held retry now. */
  retryNow(): boolean {
    if (this.phase === 'offline' && this.goOnline) {
      this.goOnline();
      return true;
    }
    return this.phase === 'sleeping' && this.wait.skip();
  }
}

// ---- lifecycle step 5 ----
// A usage limit first tries another credential, then — when the provider has no other usable key —
// the next model of the fallback list; either switch makes the delay 0, and a used-up fallback list
// ends the chain with a message naming what was tried. Called by start() with the table's one
// decision for the failure; it returns the model to switch to, which start() applies afterwards.

interface UsageLimitStep {
  decision: RetryDecision;
  /** The fallback model to switch to; the controller applies it (UsageLimits.switchModel). */
  switchedModel?: ModelSwitch;
  /** When the chain ends: why, put before the provider's words in the final error. */
  finalReason?: string;
}

export function usageLimitStep(args: {
  decision: RetryDecision;
  classification: Classification;
  /** The attempt that just failed, 1-based. */
  attempt: number;
  limits: Pick<UsageLimits, 'reached'>;
}): UsageLimitStep {
  const { decision, classification, attempt } = args;
  const over = decision.exceedsMaxDelay ? decision.reason : undefined;
  const applies = decision.shouldRetry || decision.exceedsMaxDelay;
  if (!applies || classification.category !== 'usage_limit' || attempt >= decision.maxAttempts)
    return { decision, finalReason: over };
  const result = args.limits.reached({ retryAfterMs: classification.retryAfterMs });
  if (result.exhausted) {
    // The chain ends for the used-up fallback list, not for the wait: the record says so.
    const { exceedsMaxDelay: _over, maxDelayMs: _max, ...rest } = decision;
    const reason = result.exhausted;
    return { decision: { ...rest, action: 'abort', shouldRetry: false, waitMs: 0, reason }, finalReason: reason };
  }
  if (!result.switched) return { decision, finalReason: over };
  const model = result.model;
  const named = model ? { from: modelPath(model.from), to: modelPath(model.to) } : undefined;
  return { decision: afterUsageLimitSwitch(decision, attempt, named), switchedModel: model };
}

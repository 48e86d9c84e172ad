// What the RetryController needs from its session (AgentSession builds one): settings, events,
// the runtime context, the credential and fallback switch of lifecycle step 5, the network check of
// the offline pause, and the history's chain and decision records (each event's in one
// transaction). Kept apart from the controller
// so that tests can fake it without the controller's internals.
import type { ChainOutcome } from '../../../shared/error-category';
import type { RetryEvent } from '../../../shared/events';
import type { ModelRef, RetrySettings } from '../../../shared/settings';
import type { Classification } from './classify-error';
import type { DecisionContext, RetryDecision } from './decide-retry';
import type { UsageLimitResult } from '../ports';

export type ModelSwitch = { from: ModelRef; to: ModelRef };

/** One decision to record (docs/retry-policy.md, "The observability record"). */
export interface DecisionEntry {
  decision: RetryDecision;
  classification: Classification;
  errorMessage: string;
  chainId: string | null;
  finalDecision: 'abort' | 'success' | null;
  /** The attempt this record is about, 1-based (the first try is 1). */
  attempt: number;
  /** A usage limit switched models: the record is about `from` and names `to`. */
  switchedModel?: ModelSwitch;
}

/** What the controller needs from its session. */
export interface RetryHost {
  retrySettings(): RetrySettings;
  emit(event: RetryEvent): void;
  /** Lifecycle step 7: drop the trailing assistant error from the runtime context (history keeps it). */
  trimTrailingError(): void;
  /** Run agent.continue() once the current run has settled; rejects if it cannot start. */
  continueAgent(): Promise<void>;
  markUsageLimitReached(options: { retryAfterMs?: number }): UsageLimitResult;
  /** Offline-aware backoff: can the provider be reached? Absent = always assumed online. */
  checkNetwork?: () => Promise<boolean>;
  /** How often a chain paused offline asks again, ms (default OFFLINE_POLL_MS). */
  offlinePollMs?: number;
  decisionContext(): DecisionContext;
  chainOpened(chainId: string): void;
  /** An interrupted chain is continued (its stored row is pending again). */
  chainReopened(chainId: string): void;
  chainClosed(chainId: string, end: { outcome: ChainOutcome; attempts: number; finalError: string | null }): void;
  decisionMade(entry: DecisionEntry): void;
  newId(): string;
  now(): number;
  /** Run the history writes of one event (chain, link, decision) as one transaction. */
  batch(writes: () => void): void;
}

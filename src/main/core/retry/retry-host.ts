// What the RetryController needs from its session (core/session/session-parts.ts builds it; its
// TurnRecorder is the records): the settings and the clock, the events, the agent's run (drop the
// failed reply, start the retry), lifecycle step 5's usage-limit switch, the failover of an outage,
// the network probe of the offline pause, and the history's chain and decision records (each
// event's in one transaction). Kept apart from the controller so that tests can fake it.
import type { ChainOutcome } from '../../../shared/error-category';
import type { RetryEvent } from '../../../shared/events';
import type { RetrySettings } from '../../../shared/settings';
import type { UsageLimitResult } from '../ports';
import type { DecisionEntry, ModelSwitch } from './decide-retry';
import type { FailoverPort } from './failover';

/** The agent's side of a retry. */
export interface RetryRun {
  /** Lifecycle step 7: drop the trailing assistant error from the runtime context (history keeps it). */
  trimTrailingError(): void;
  /** Run agent.continue() once the current run has settled; rejects if it cannot start. */
  continue(): Promise<void>;
  /**
   * Failover: the trailing failed reply's words go back as the model's own message with the
   * instruction to go on (continue-partial.ts); a reply with no words is left for step 7 to drop.
   */
  carryPartial?(): void;
}

/** Lifecycle step 5: another key of the provider, else the next model of the fallback list. */
export interface UsageLimits {
  /**
   * Block the key in use and take another; without one, choose the next fallback model — chosen,
   * not applied: the controller applies it with switchModel once the decision is taken.
   */
  reached(options: { retryAfterMs?: number }): UsageLimitResult;
  /** Point the session at the fallback model `reached` chose. */
  switchModel(change: ModelSwitch): void;
}

/** Offline-aware backoff: can the provider be reached? */
export interface NetworkProbe {
  isReachable(): Promise<boolean>;
  /** How often a chain paused offline asks again, ms (default OFFLINE_POLL_MS). */
  pollMs?: number;
}

/** The history's records of the chain and its decisions. */
export interface ChainRecords {
  newChainId(): string;
  opened(chainId: string): void;
  /** An interrupted chain is continued (its stored row is pending again). */
  reopened(chainId: string): void;
  closed(chainId: string, end: { outcome: ChainOutcome; attempts: number; finalError: string | null }): void;
  /** The time a scheduled retry goes at (kept across a restart), or null once it went or ended. */
  scheduled(chainId: string, at: number | null): void;
  decided(entry: DecisionEntry): void;
  /** Run the history writes of one event (chain, link, decision) as one transaction. */
  batch(writes: () => void): void;
}

/** What the controller needs from its session. */
export interface RetryHost {
  settings(): RetrySettings;
  now(): number;
  emit(event: RetryEvent): void;
  run: RetryRun;
  limits: UsageLimits;
  /** Failover after an outage (failover.ts); absent: the chain ends as the table says. */
  failover?: FailoverPort;
  /** Absent: always assumed online. */
  network?: NetworkProbe;
  records: ChainRecords;
}

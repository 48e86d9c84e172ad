// Resume after a restart (docs/retry-policy.md, "Resume after a restart"): which retry chain of a
// session was cut by a quit or a crash and can be continued, read from what the history stored —
// the chain's `interrupted` outcome and its decision records. Pure; AgentSession puts the offer in
// its snapshot, and resumes or discards it when the person answers the card.
import { INTERRUPTED_DISCARDED_REASON, INTERRUPTED_OUTCOME } from '../../../shared/error-category';
import type { InterruptedRetry } from '../../../shared/events';
import type { RetryChainRecord, RetryDecisionRecord, TurnRecord } from '../../../shared/history';
import { DECISION_TABLE, resolveRow } from '../../../shared/retry-policy/decision-table';
import type { RetrySettings } from '../../../shared/settings';
import { settledDecision } from './decide-retry';
import type { DecisionEntry } from './decide-retry';

export interface StoredSession {
  turns: readonly Pick<TurnRecord, 'seq' | 'chainId'>[];
  chains: readonly Pick<RetryChainRecord, 'id' | 'outcome'>[];
  decisions: readonly RetryDecisionRecord[];
}

/** The reason of the record that continues an interrupted chain (the decision log shows it). */
const RESUMED_REASON = 'resumed after a restart';

/**
 * The chain to offer: the session's newest turn belongs to it, it was interrupted, and its newest
 * decision is a retry nobody has answered — not a final one, which a discard writes. The retry that
 * was waiting (or in flight) is the one "Retry now" runs; the budget is the row's under the
 * current settings. Null when there is nothing to continue.
 */
export function findInterruptedRetry(stored: StoredSession, settings: RetrySettings): InterruptedRetry | null {
  const newest = stored.turns.reduce<Pick<TurnRecord, 'seq' | 'chainId'> | null>(
    (best, turn) => (best === null || turn.seq > best.seq ? turn : best),
    null,
  );
  const chain = newest?.chainId ? stored.chains.find((c) => c.id === newest.chainId) : undefined;
  if (!chain || chain.outcome !== INTERRUPTED_OUTCOME) return null;
  const last = stored.decisions.filter((d) => d.chainId === chain.id).at(-1);
  if (!last || last.action !== 'retry' || last.finalDecision !== null) return null;
  const row = resolveRow(last.category, settings);
  if (row.action !== 'retry' || last.attempt < 1 || last.attempt >= row.maxAttempts) return null;
  return {
    chainId: chain.id,
    attempt: last.attempt,
    maxAttempts: row.maxAttempts - 1,
    category: last.category,
    errorMessage: last.errorMessage,
  };
}

/**
 * The record of the person's answer to the card, about the retry that was waiting: "Retry now"
 * continues the chain (a retry, not final); "Discard" ends it for good (a final abort).
 */
export function interruptedDecision(offer: InterruptedRetry, answer: 'resume' | 'discard'): DecisionEntry {
  const resume = answer === 'resume';
  const reason = resume
    ? `${RESUMED_REASON}: retry ${offer.attempt} of ${offer.maxAttempts} now`
    : INTERRUPTED_DISCARDED_REASON;
  return {
    decision: settledDecision(offer.category, resume ? 'retry' : 'abort', reason, offer.maxAttempts + 1),
    classification: {
      category: offer.category,
      errorType: DECISION_TABLE[offer.category].exceptionClass,
      source: 'fallback',
    },
    errorMessage: offer.errorMessage,
    chainId: offer.chainId,
    finalDecision: resume ? null : 'abort',
    attempt: offer.attempt,
  };
}

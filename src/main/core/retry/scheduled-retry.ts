// Scheduled retries (docs/retry-policy.md, "Scheduled retries"): a wait above retry.maxDelayMs, up
// to 24 h, waited out until the time the provider named — with retry.scheduleLongWaits on, or when
// the person presses "Retry at …" on a chain that stopped for it. Pure: the decision record of a
// schedule, and which chain of a stored session "Retry at …" may schedule (the time a decision
// names is decide-retry.ts' withNamedTime).
// The RetryController records and waits; AgentSession and AppServices find the offers.
import type { InterruptedRetry, ScheduledRetry } from '../../../shared/events';
import type { RetryDecisionRecord } from '../../../shared/history';
import { resolveRow } from '../../../shared/retry-policy/decision-table';
import type { RetrySettings } from '../../../shared/settings';
import type { RetryHost } from './retry-host';
import { interruptedDecision, type StoredSession } from './resume-state';

type DecisionEntry = Parameters<RetryHost['records']['decided']>[0];

/**
 * The record of a schedule taken up again: by a restart (the app stopped while it waited) or by the
 * person ("Retry at …"). A retry, not final; its time is kept in the record.
 */
export function scheduledDecision(offer: ScheduledRetry, by: 'restart' | 'person', now: number): DecisionEntry {
  const base = interruptedDecision(offer, 'resume');
  const at = offer.retryAt > now ? `at ${new Date(offer.retryAt).toISOString()}` : 'now (its time has passed)';
  const who = by === 'person' ? 'scheduled by the person' : 'schedule kept across a restart';
  const reason = `${who}: retry ${offer.attempt} of ${offer.maxAttempts} ${at}`;
  const waitMs = Math.max(0, offer.retryAt - now);
  return { ...base, decision: { ...base.decision, reason, waitMs, retryAt: offer.retryAt, scheduled: true } };
}

/**
 * The chain of a stored session that "Retry at …" can schedule: the session's newest turn belongs
 * to it, it stopped (`exhausted`) on a wait above the maximum delay of at most 24 h, and its row
 * still has the retry. Null otherwise, with nothing changed.
 */
export function findSchedulableRetry(
  stored: StoredSession,
  chainId: string,
  settings: RetrySettings,
): ScheduledRetry | null {
  const newest = stored.turns.reduce<StoredSession['turns'][number] | null>(
    (best, turn) => (best === null || turn.seq > best.seq ? turn : best),
    null,
  );
  const chain = stored.chains.find((c) => c.id === chainId);
  if (!chain || chain.outcome !== 'exhausted' || newest?.chainId !== chainId) return null;
  const last: RetryDecisionRecord | undefined = stored.decisions.filter((d) => d.chainId === chainId).at(-1);
  if (!last || last.finalDecision !== 'abort' || last.retryAt === undefined) return null;
  const row = resolveRow(last.category, settings);
  if (row.action !== 'retry' || last.attempt < 1 || last.attempt >= row.maxAttempts) return null;
  const offer: InterruptedRetry = {
    chainId,
    attempt: last.attempt,
    maxAttempts: row.maxAttempts - 1,
    category: last.category,
    errorMessage: last.errorMessage,
  };
  return { ...offer, retryAt: last.retryAt };
}

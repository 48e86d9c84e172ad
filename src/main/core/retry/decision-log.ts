// Builds the structured record of one retry decision (docs/retry-policy.md, "The observability
// record") that the retry
// controller hands to the history store and the JSON-lines decision log. Pure: ids and the time
// come in as arguments, so the same inputs always give the same record.
import type { LogLevel, RetryDecisionRecord } from '../../../shared/history';
import type { Classification } from './classify-error';
import { UNCLASSIFIABLE } from './classify-error';
import type { RetryDecision } from './decide-retry';

/** What the record says of where the decision was taken: built once, by TurnRecorder.recordDecision. */
export type DecisionRecordContext = RetryDecisionRecord['context'];

/** An exception of our own (a bug), logged at ERROR. */
export const UNEXPECTED_EXCEPTION = 'UnexpectedSystemError';

interface RecordIds {
  /** The record's id, made by the caller. */
  id: string;
  /** The retry chain this decision belongs to, or null outside a chain. */
  chainId: string | null;
  /** When the decision was made, epoch ms. */
  now: number;
  context: DecisionRecordContext;
  /** The error that was handled, as the provider worded it. */
  errorMessage: string;
}

export interface DecisionRecordArgs extends RecordIds {
  decision: Pick<
    RetryDecision,
    'action' | 'reason' | 'waitMs' | 'category' | 'attempt' | 'hintMs' | 'maxDelayMs' | 'retryAt' | 'scheduled'
  >;
  classification: Pick<Classification, 'errorType'>;
  /** The attempt that failed, 1-based. Default decision.attempt, else 1 (the first try failed). */
  attempt?: number;
  /** Default: 'abort' when the decision aborts, else null; the caller sets 'success' or overrides. */
  finalDecision?: RetryDecisionRecord['finalDecision'];
}

/** INFO for a retry; WARNING for a final abort or an unclassifiable error; ERROR for an exception of ours. */
export function decisionLevel(action: RetryDecision['action'], errorType: string): LogLevel {
  if (errorType === UNEXPECTED_EXCEPTION) return 'ERROR';
  if (action === 'abort' || errorType === UNCLASSIFIABLE) return 'WARNING';
  return 'INFO';
}

// A bad clock value must not make logging throw: it is written as the epoch instead.
function isoTimestamp(now: number): string {
  return new Date(typeof now === 'number' && Number.isFinite(now) && Math.abs(now) <= 8.64e15 ? now : 0).toISOString();
}

/** A copy of the context, so that the record shares no object with its caller. */
function recordContext(c: DecisionRecordContext): DecisionRecordContext {
  return {
    taskType: c.taskType,
    modelId: c.modelId,
    provider: c.provider,
    sessionId: c.sessionId,
    turnId: c.turnId,
    ...(c.switchedTo ? { switchedTo: { provider: c.switchedTo.provider, modelId: c.switchedTo.modelId } } : {}),
  };
}

/** The record of one decision; finalDecision is 'abort' when this decision ends the chain in abort. */
export function buildDecisionRecord(args: DecisionRecordArgs): RetryDecisionRecord {
  const { decision, classification } = args;
  return {
    id: args.id,
    timestamp: isoTimestamp(args.now),
    level: decisionLevel(decision.action, classification.errorType),
    errorType: classification.errorType,
    category: decision.category,
    attempt: args.attempt ?? decision.attempt ?? 1,
    action: decision.action,
    waitSeconds: decision.action === 'retry' ? decision.waitMs / 1000 : 0,
    reason: decision.reason,
    errorMessage: String(args.errorMessage ?? ''),
    ...(decision.hintMs !== undefined ? { hintMs: decision.hintMs } : {}),
    ...(decision.maxDelayMs !== undefined ? { maxDelayMs: decision.maxDelayMs } : {}),
    ...(decision.retryAt !== undefined ? { retryAt: decision.retryAt } : {}),
    ...(decision.scheduled ? { scheduled: true } : {}),
    context: recordContext(args.context),
    finalDecision: args.finalDecision !== undefined ? args.finalDecision : decision.action === 'abort' ? 'abort' : null,
    chainId: args.chainId,
  };
}

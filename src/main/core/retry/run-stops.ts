// The record of a failed run that will not be retried — auto-retry off, a category that never
// retries, a user abort, an overflow handed to compaction, an internal error of ours: the decision
// is logged and any retry chain it belonged to is ended, so every errored turn has an outcome
// (docs/retry-policy.md lists the stops). The RetryController's onRunEnd calls these.
import type { ChainOutcome } from '../../../shared/error-category';
import type { AssistantChatMessage } from '../../../shared/messages';
import { resolveRow } from '../../../shared/retry-policy/decision-table';
import type { RetrySettings } from '../../../shared/settings';
import type { Classification } from './classify-error';
import { settledDecision } from './decide-retry';
import { UNEXPECTED_EXCEPTION } from './decision-log';
import type { ChainRecords } from './retry-host';

/** What a stop needs of the chain that may be running, and of the history's records. */
export interface StopScope {
  records: ChainRecords;
  settings: RetrySettings;
  /** The running chain, if one is: its id and the retries it has counted. */
  chain: { id: string; attempt: number } | null;
}

const STOP_REASONS: Partial<Record<ChainOutcome, string>> = {
  disabled: 'auto-retry is turned off',
  cancelled: 'the request was aborted by the user',
  compacted: 'context overflow goes to the compaction path, never to retry',
};

/**
 * Log the stop's decision. Inside a running chain the caller then ends the chain; alone, a one-off
 * chain row still gives this errored turn its outcome (one transaction).
 */
export function recordStop(
  scope: StopScope,
  message: AssistantChatMessage,
  classification: Classification,
  outcome: ChainOutcome,
): void {
  if (scope.chain) {
    logStop(scope, message, classification, scope.chain.id, outcome);
    return;
  }
  const { records } = scope;
  const standalone = records.newChainId();
  records.batch(() => {
    records.opened(standalone);
    logStop(scope, message, classification, standalone, outcome);
    records.closed(standalone, { outcome, attempts: 0, finalError: message.errorMessage ?? null });
  });
}

function logStop(
  scope: StopScope,
  message: AssistantChatMessage,
  classification: Classification,
  chainId: string,
  outcome: ChainOutcome,
): void {
  const row = resolveRow(classification.category, scope.settings);
  scope.records.decided({
    decision: settledDecision(
      classification.category,
      outcome === 'compacted' ? 'compact' : 'abort',
      STOP_REASONS[outcome] ?? `${classification.category} is not retried`,
      row.maxAttempts,
    ),
    classification,
    errorMessage: message.errorMessage ?? '',
    chainId,
    finalDecision: outcome === 'compacted' ? null : 'abort',
    // Inside a running chain this is the failure after `attempt` retries; alone it is the first try.
    attempt: scope.chain ? scope.chain.attempt + 1 : 1,
  });
}

/** The decision that records an exception of our own while handling a turn (logged at ERROR). */
export function recordInternalError(
  records: ChainRecords,
  text: string,
  chainId: string | null,
  attempt: number,
): void {
  records.decided({
    decision: settledDecision('unexpected', 'abort', `internal error: ${text}`),
    classification: { category: 'unexpected', errorType: UNEXPECTED_EXCEPTION, source: 'fallback' },
    errorMessage: text,
    chainId,
    finalDecision: 'abort',
    attempt: attempt + 1,
  });
}

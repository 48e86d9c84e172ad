// The record of an errored turn that will not be retried — auto-retry off, a category that never
// retries, a user abort, an overflow handed to compaction, an internal error of ours: the decision
// is logged and any retry chain it belonged to is ended, so every errored turn has an outcome.
// AgentSession calls these from its agent_end handling; docs/retry-policy.md lists the stops. Also
// what a stopped turn leaves for Continue.
import type { ChainOutcome } from '../../../shared/error-category';
import type { AssistantChatMessage, ChatMessage } from '../../../shared/messages';
import { resolveRow } from '../../../shared/retry-policy/decision-table';
import type { RetrySettings } from '../../../shared/settings';
import type { Classification } from './classify-error';
import { settledDecision } from './decide-retry';
import { UNEXPECTED_EXCEPTION } from './decision-log';
import type { RetryController } from './retry-controller';
import type { DecisionEntry, TurnRecorder } from '../session/turn-recorder';

/** What the stop records need from their session. */
export interface StopHost {
  retry: RetryController;
  recorder: TurnRecorder;
  retrySettings(): RetrySettings;
  newId(): string;
  recordDecision(entry: DecisionEntry): void;
}

const STOP_REASONS: Partial<Record<ChainOutcome, string>> = {
  disabled: 'auto-retry is turned off',
  cancelled: 'the request was aborted by the user',
  compacted: 'context overflow goes to the compaction path, never to retry',
};

/** An errored turn that will not be retried: log the decision and end any chain it was part of. */
export function recordStop(
  host: StopHost,
  message: AssistantChatMessage,
  classification: Classification,
  outcome: ChainOutcome,
): void {
  const chainId = host.retry.activeChainId;
  if (chainId && host.retry.isRetrying) {
    logStop(host, message, classification, chainId, outcome);
    host.retry.endChainWithoutRetry(message, outcome);
    return;
  }
  // No chain was running: a one-off chain row still gives this errored turn its outcome (one transaction).
  const standalone = host.newId();
  host.recorder.batch(() => {
    host.recorder.openChain(standalone);
    logStop(host, message, classification, standalone, outcome);
    host.recorder.closeChain(standalone, { outcome, attempts: 0, finalError: message.errorMessage ?? null });
  });
}

function logStop(
  host: StopHost,
  message: AssistantChatMessage,
  classification: Classification,
  chainId: string,
  outcome: ChainOutcome,
): void {
  const row = resolveRow(classification.category, host.retrySettings());
  host.recordDecision({
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
    // Inside a running chain this is the failure after retryAttempt retries; alone it is the first try.
    attempt: host.retry.isRetrying ? host.retry.attempt + 1 : 1,
  });
}

/** An exception of our own while handling a turn: logged at ERROR, and any open chain is ended. */
export function recordInternalError(host: StopHost, text: string): void {
  host.recordDecision({
    decision: settledDecision('unexpected', 'abort', `internal error: ${text}`),
    classification: { category: 'unexpected', errorType: UNEXPECTED_EXCEPTION, source: 'fallback' },
    errorMessage: text,
    chainId: host.retry.activeChainId ?? null,
    finalDecision: 'abort',
    attempt: host.retry.attempt + 1,
  });
  host.retry.abandon(`Internal error: ${text}`);
}

/** A reply that called tools; it succeeds only once its calls ran without a tool fault. */
export function isToolUse(message: ChatMessage): message is AssistantChatMessage {
  return message.role === 'assistant' && message.stopReason === 'toolUse';
}

/**
 * The runtime context for Continue after a stopped turn (docs/tools.md, "Continue"): without the
 * failed or stopped reply at its end. Throws when there is nothing to continue.
 */
export function contextToContinue(messages: readonly ChatMessage[]): ChatMessage[] {
  const last = messages[messages.length - 1];
  if (!last) throw new Error('Nothing to continue: the conversation is empty.');
  if (last.role !== 'assistant') return [...messages];
  if (last.stopReason !== 'error' && last.stopReason !== 'aborted')
    throw new Error('The last turn ended normally; send a message instead.');
  return messages.slice(0, -1);
}

// Lifecycle step 5 (docs/retry-policy.md, "The retry lifecycle"): a usage limit first tries
// another credential, then — when the provider has no other usable key — the next model of the
// fallback list; either switch makes the delay 0, and a used-up fallback list ends the chain with a
// message naming what was tried. Called by the RetryController after the table's decision.
import type { RetrySettings } from '../../../shared/settings';
import type { Classification } from './classify-error';
import { decideRetry, type RetryDecision } from './decide-retry';
import { modelPath } from './model-fallback';
import type { ModelSwitch, RetryHost } from './retry-host';

export interface UsageLimitStep {
  decision: RetryDecision;
  switchedModel?: ModelSwitch;
  /** When the chain ends: why, put before the provider's words in the final error. */
  finalReason?: string;
}

export function usageLimitStep(args: {
  decision: RetryDecision;
  classification: Classification;
  /** The attempt that just failed, 1-based. */
  attempt: number;
  settings: RetrySettings;
  host: Pick<RetryHost, 'markUsageLimitReached' | 'decisionContext'>;
}): UsageLimitStep {
  const { decision, classification, attempt, host } = args;
  const over = decision.exceedsMaxDelay ? decision.reason : undefined;
  const applies = decision.shouldRetry || decision.exceedsMaxDelay;
  if (!applies || classification.category !== 'usage_limit' || attempt >= decision.maxAttempts)
    return { decision, finalReason: over };
  const result = host.markUsageLimitReached({ retryAfterMs: classification.retryAfterMs });
  if (result.exhausted) {
    const reason = result.exhausted;
    return { decision: { ...decision, action: 'abort', shouldRetry: false, waitMs: 0, reason }, finalReason: reason };
  }
  if (!result.switched) return { decision, finalReason: over };
  const model = result.model;
  const context = {
    ...host.decisionContext(),
    credentialSwitched: true,
    ...(model ? { modelSwitch: { from: modelPath(model.from), to: modelPath(model.to) } } : {}),
  };
  return { decision: decideRetry(classification, attempt, context, args.settings), switchedModel: model };
}

// Lifecycle step 5 (docs/retry-policy.md, "The retry lifecycle"): a usage limit first tries
// another credential, then — when the provider has no other usable key — the next model of the
// fallback list; either switch makes the delay 0, and a used-up fallback list ends the chain with a
// message naming what was tried. Called by the RetryController with the table's one decision for
// the failure; it returns the model to switch to, which the controller applies afterwards.
import type { Classification } from './classify-error';
import { afterUsageLimitSwitch, type RetryDecision } from './decide-retry';
import { modelPath } from './model-fallback';
import type { ModelSwitch, UsageLimits } from './retry-host';

export interface UsageLimitStep {
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

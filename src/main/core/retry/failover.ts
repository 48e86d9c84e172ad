// Failover (docs/retry-policy.md, "Failover"): a chain that ran out of attempts on the current model
// for an outage — overloaded, server_error, a connection failure while the network is up, a
// timeout — goes on at once with the next model of the fallback list, by the rule a usage limit
// uses (selectFallback). RetryController.start calls failoverStep with the table's one decision;
// without a list, or with none of it left, that decision stands exactly as the table took it.
import { isFailoverCategory } from '../../../shared/error-category';
import type { ModelSwitch, RetryDecision } from './decide-retry';
import { modelPath } from './model-fallback';

/** The session's side: the next model after an outage, chosen; then used (for this prompt). */
export interface FailoverPort {
  /** The next usable model of the fallback list after the current one, or null (no list, none left). */
  next(): ModelSwitch | null;
  /** Point the session at the model `next` chose. */
  use(change: ModelSwitch): void;
}

export interface FailoverStep {
  decision: RetryDecision;
  switchedModel?: ModelSwitch;
}

/**
 * The table's decision after a failure, failed over when it ended the chain because the row's
 * attempts on this model are used up for an outage (not for a wait above the maximum delay, not
 * offline). `attemptOnModel` is the failed attempt counted on the current model, 1-based.
 */
export function failoverStep(args: {
  decision: RetryDecision;
  attemptOnModel: number;
  /** A connection failure with the network down pauses instead: it never fails over. */
  online: boolean;
  port: FailoverPort | undefined;
}): FailoverStep {
  const { decision, attemptOnModel, port } = args;
  const outOfAttempts =
    !decision.shouldRetry &&
    !decision.exceedsMaxDelay &&
    decision.maxAttempts > 0 &&
    attemptOnModel >= decision.maxAttempts &&
    isFailoverCategory(decision.category);
  if (!outOfAttempts || !args.online || !port) return { decision };
  const change = port.next();
  if (!change) return { decision };
  const { category, maxAttempts, backoff } = decision;
  const reason =
    `${category}: ${maxAttempts} of ${maxAttempts} attempts used on ${modelPath(change.from)}, ` +
    `failed over to ${modelPath(change.to)}, retry at once`;
  return {
    decision: {
      category,
      maxAttempts,
      backoff,
      attempt: attemptOnModel,
      action: 'retry',
      shouldRetry: true,
      waitMs: 0,
      reason,
    },
    switchedModel: change,
  };
}

// The retry wing's door (docs/architecture.md, "The retry wing"): everything the rest of the main
// process may use of src/main/core/retry, and nothing else — a lint rule refuses an import of any
// other file of the wing from outside it (tests may reach inside), and another keeps the wing a
// leaf: it imports only src/shared and core/ports. What comes in: the provider's facts from the
// HTTP layer and a run's Failure; what goes out: the controller that decides, waits and records,
// the decision record, and the RetryHost the session implements for it.

// From the wire: what the HTTP layer observed, attached to the stream the session reads.
export {
  attachProviderFacts,
  errorFactsFromBody,
  providerFactsOf,
  type BodyFacts,
  type HttpFactsSource,
  type HttpObservation,
  type ProviderFacts,
  type WireActivity,
} from './provider-facts';

// What ended a run, and its one judgement.
export { classifyFailure, type Classification, type Failure, type ToolFault } from './classify-error';

// The controller that decides, waits and retries, and what it needs from the session.
export { INTERRUPTED_FINAL_ERROR } from './retry-chain';
export { RetryController, isToolUse, type RunEnd } from './retry-controller';
export type { ChainRecords, RetryHost } from './retry-host';
export type { DecisionEntry } from './decide-retry';
export { PromptPacing, RatePacer } from './rate-pacing';
export { ModelRoute, sameModel, type FallbackPort } from './model-fallback';

// The record of each decision, and a chain a quit or a crash interrupted.
export { buildDecisionRecord } from './decision-log';
export { findInterruptedRetry, interruptedDecision } from './resume-state';
export { findSchedulableRetry } from './scheduled-retry';

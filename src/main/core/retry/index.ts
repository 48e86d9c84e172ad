// The retry wing's door (docs/architecture.md, "The retry wing"): everything the rest of the main
// process may use of src/main/core/retry, and nothing else — a lint rule refuses an import of any
// other file of the wing from outside it (tests may reach inside). What comes in: the provider's
// facts from the HTTP layer and the session's failed message; what goes out: the controller that
// decides and waits, the decision record, and the parts the session wires together.

// From the wire: what the HTTP layer observed, attached to the stream the session reads.
export {
  attachProviderFacts,
  errorFactsFromBody,
  providerFactsOf,
  type BodyFacts,
  type HttpFactsSource,
  type HttpObservation,
  type ProviderFacts,
} from './provider-facts';

// The judgement of one failed reply.
export { classifyAssistantMessage, type Classification } from './classify-error';

// The controller that decides, waits and retries, and what it needs from the session.
export { INTERRUPTED_FINAL_ERROR } from './retry-chain';
export { RetryController } from './retry-controller';
export { sessionRetryHost } from './session-retry-host';
export type { DecisionEntry } from './retry-host';
export { PromptPacing, RatePacer } from './rate-pacing';
export { ModelRoute, sameModel, type FallbackPort } from './model-fallback';

// The record of each decision, and a chain a quit or a crash interrupted.
export { buildDecisionRecord } from './decision-log';
export { findInterruptedRetry, interruptedDecision } from './resume-state';
export { findSchedulableRetry } from './scheduled-retry';

// How a turn stops: the errored turn of a bug of ours, a stop, what Continue sends.
export { contextToContinue, isToolUse, recordInternalError, recordStop, type StopHost } from './turn-stops';

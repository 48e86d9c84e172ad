// Structured facts about a failed provider request (HTTP status, retry headers, the provider's
// error type), which the classifier prefers to the error text (docs/retry-policy.md). pi-ai keeps only a
// message string, so the node layer observes the HTTP exchange (http-facts.ts) and the guarded
// stream attaches what it saw to the final assistant message; AgentSession reads it back here.
import type { AssistantMessage } from '@mariozechner/pi-ai';

export interface ProviderFacts {
  status?: number;
  /** Lower-cased names: retry-after, retry-after-ms, x-ratelimit-reset… */
  headers?: Record<string, string>;
  /** From the error body, e.g. "rate_limit_error", "usage_limit_reached". */
  errorType?: string;
  /** Epoch ms when the response's headers arrived. */
  receivedAt?: number;
  /**
   * Epoch ms when the failure reached the app: an error response's headers, else the moment the
   * stream broke. A retry's wait runs from here (docs/retry-policy.md, "The retry lifecycle").
   */
  errorAt?: number;
}

/** One request's observation: headers to send with it, then what was seen. */
export interface HttpObservation {
  headers: Record<string, string>;
  finish(): ProviderFacts | undefined;
}

export interface HttpFactsSource {
  begin(): HttpObservation;
}

const factsByMessage = new WeakMap<object, ProviderFacts>();

export function attachProviderFacts(message: AssistantMessage, facts: ProviderFacts | undefined): void {
  if (facts) factsByMessage.set(message, facts);
}

export function providerFactsOf(message: object): ProviderFacts | undefined {
  return factsByMessage.get(message);
}

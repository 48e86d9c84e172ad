// Structured facts about a failed provider request (HTTP status, retry headers, the codes of the
// error body or of an error event inside the stream), which the classifier prefers to the error
// text (docs/classification.md). The one shape of a failure's facts, from the HTTP layer to
// classifyError: pi-ai keeps only a message string, so the node layer observes the HTTP exchange
// (http-facts.ts, error-body.ts) and the guarded stream attaches what it saw to the final
// assistant message; classify-message.ts reads it back here and hands it on whole.
import type { AssistantMessage } from '@mariozechner/pi-ai';
import type { BodyFacts } from './error-body';

/** The body's facts (error-body.ts declares and reads them), and what the HTTP exchange adds. */
export interface ProviderFacts extends BodyFacts {
  status?: number;
  /** Lower-cased names: retry-after, retry-after-ms, x-ratelimit-*, anthropic-ratelimit-*. */
  headers?: Record<string, string>;
  /** The error came as an event inside a stream whose response was a 2xx. */
  inStream?: boolean;
  /** Epoch ms when an error response's headers arrived (status 400 and above). */
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

// Wraps the LLM stream function the Agent calls, so that every request goes out the same way:
// provider-SDK retries off (the decision table's are the only retries), a silence timeout that
// aborts the request and reports it as a timeout (retry.timeoutMs, 30 s by default; see
// docs/retry-policy.md, "Classification"), a function that never
// throws (a synchronous throw such as "No API key" becomes an error message, as the Agent's
// stream contract requires), and secrets taken out of every error text here, where provider text
// enters the app. Built by the composition root, used by AgentSession's Agent and compaction; it
// runs once pi-ai is loaded (src/main/core/llm/pi-runtime.ts), which the composition root's stream
// function awaits before its first call.
import type { AssistantMessage, AssistantMessageEventStream } from '@mariozechner/pi-ai';
import type { StreamFn } from '@mariozechner/pi-agent-core';
import { piRuntime } from './pi-runtime';
import { failedMessage } from './failed-message';
import { redactSecrets } from './redact-secrets';
import { attachProviderFacts, type HttpFactsSource } from '../retry';
import { errorText } from '../../../shared/text';

export interface GuardedStreamOptions {
  /** The real stream function (pi-ai's streamSimple, or a scripted one in tests). */
  base: StreamFn;
  /** Read per request: a stream silent this long is aborted and reported as a timeout, ms. */
  timeoutMs: () => number;
  /** Observes the HTTP exchange for structured facts (status, retry headers); optional. */
  facts?: HttpFactsSource;
  /** The secrets to take out of an error text before anything keeps or sends it (redact-secrets.ts). */
  secrets?: () => Iterable<string>;
}

export const TIMEOUT_MESSAGE_PREFIX = 'Request timed out';

/** The error text for a silent stream; the classifier reads it as `timeout`. */
export function timeoutMessage(timeoutMs: number): string {
  return `${TIMEOUT_MESSAGE_PREFIX}: the provider sent nothing for ${Math.round(timeoutMs / 100) / 10} s`;
}

export function createGuardedStreamFn(options: GuardedStreamOptions): StreamFn {
  return (model, context, streamOptions) => {
    const output = piRuntime().piAi.createAssistantMessageEventStream();
    const controller = new AbortController();
    const outer = streamOptions?.signal;
    const onOuterAbort = () => controller.abort(outer?.reason);
    if (outer?.aborted) controller.abort(outer.reason);
    else outer?.addEventListener('abort', onOuterAbort, { once: true });

    const timeoutMs = options.timeoutMs();
    let timedOut = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort(new Error(timeoutMessage(timeoutMs)));
      }, timeoutMs);
    };
    const cleanup = () => {
      if (timer) clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    };

    const observation = options.facts?.begin();
    const finishWithError = (failed: AssistantMessage) => {
      cleanup();
      const message = redacted(failed, options.secrets);
      // When the failure reached the app: an error response's headers, else now (the stream broke).
      const facts = observation?.finish();
      const failedResponse = facts?.status !== undefined && facts.status >= 400 ? facts.receivedAt : undefined;
      attachProviderFacts(message, facts && { ...facts, errorAt: failedResponse ?? Date.now() });
      output.push({ type: 'error', reason: message.stopReason === 'aborted' ? 'aborted' : 'error', error: message });
      output.end(message);
    };

    arm();
    void (async () => {
      try {
        const inner: AssistantMessageEventStream = await options.base(model, context, {
          ...streamOptions,
          headers: { ...streamOptions?.headers, ...observation?.headers },
          signal: controller.signal,
          maxRetries: 0,
        });
        for await (const event of inner) {
          arm();
          if (event.type === 'error' && timedOut) {
            finishWithError(asTimeout(event.error, timeoutMs));
            return;
          }
          if (event.type === 'error') {
            finishWithError(event.error);
            return;
          }
          output.push(event);
          if (event.type === 'done') {
            cleanup();
            // A success's rate-limit headers too: rate-limit pacing reads them (docs/retry-policy.md).
            attachProviderFacts(event.message, observation?.finish());
            output.end(event.message);
            return;
          }
        }
        // The inner stream ended without a final event: report it instead of hanging the Agent.
        finishWithError(
          failedMessage(model, timedOut ? timeoutMessage(timeoutMs) : 'The provider stream ended without a result'),
        );
      } catch (error) {
        const text = timedOut ? timeoutMessage(timeoutMs) : errorText(error);
        const aborted = controller.signal.aborted && !timedOut;
        finishWithError(failedMessage(model, aborted ? 'Request was aborted' : text, aborted ? 'aborted' : 'error'));
      }
    })();
    return output;
  };
}

function redacted(message: AssistantMessage, secrets: GuardedStreamOptions['secrets']): AssistantMessage {
  if (!secrets || message.errorMessage === undefined) return message;
  return { ...message, errorMessage: redactSecrets(message.errorMessage, secrets()) };
}

function asTimeout(message: AssistantMessage, timeoutMs: number): AssistantMessage {
  return { ...message, stopReason: 'error', errorMessage: timeoutMessage(timeoutMs) };
}

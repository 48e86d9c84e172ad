// Wraps the LLM stream function the Agent calls, so that every request goes out the same way:
// provider-SDK retries off (the decision table's are the only retries), liveness — every byte the
// HTTP layer sees keeps the request alive, silence (retry.timeoutMs, 30 s by default) or keep-alives
// without words abort it as a timeout, and a local server gets a first-token wait watched by a
// probe (liveness.ts; docs/retry-policy.md, "Liveness") — a function that never
// throws (a synchronous throw such as "No API key" becomes an error message, as the Agent's
// stream contract requires), and secrets taken out of every error text here, where provider text
// enters the app. Built by the composition root, used by AgentSession's Agent and compaction; it
// runs once pi-ai is loaded (src/main/core/llm/pi-runtime.ts), which the composition root's stream
// function awaits before its first call.
import type {
  Api,
  AssistantMessage,
  AssistantMessageEvent,
  AssistantMessageEventStream,
  Model,
  SimpleStreamOptions,
} from '@mariozechner/pi-ai';
import type { StreamFn } from '@mariozechner/pi-agent-core';
import { piRuntime } from './pi-runtime';
import { failedMessage } from './failed-message';
import { redactSecrets } from './redact-secrets';
import { attachProviderFacts, type HttpFactsSource } from '../retry';
import { errorText } from '../../../shared/text';
import type { PromptProcessingEvent } from '../../../shared/events';
import {
  LivenessWatch,
  TIMEOUT_MESSAGE_PREFIX,
  noBytesMessage,
  type LivenessFailure,
  type LocalServerLiveness,
  type PromptWaitUpdate,
} from './liveness';

export interface GuardedStreamOptions {
  /** The real stream function (pi-ai's streamSimple, or a scripted one in tests). */
  base: StreamFn;
  /** Read per request: a stream silent this long is aborted and reported as a timeout, ms. */
  timeoutMs: () => number;
  /** Read per request: keep-alives without words for this long end the request (default 10 min), ms. */
  keepAliveLimitMs?: () => number;
  /** A local server's first-token clock and probe, for a model served by one; undefined for a cloud provider. */
  localServer?: (model: Model<Api>) => LocalServerLiveness | undefined;
  /** Observes the HTTP exchange for structured facts (status, retry headers) and its bytes; optional. */
  facts?: HttpFactsSource;
  /** The secrets to take out of an error text before anything keeps or sends it (redact-secrets.ts). */
  secrets?: () => Iterable<string>;
}

/** The options of one call: the session passes its listener for the prompt-processing row (session-parts.ts). */
export type GuardedCallOptions = SimpleStreamOptions & { onPromptWait?: (update: PromptWaitUpdate) => void };

const DEFAULT_KEEP_ALIVE_LIMIT_MS = 10 * 60_000;
/** The SDK's own request timeout must not end a local server's first-token wait before it does, ms. */
const SDK_TIMEOUT_MARGIN_MS = 60_000;

export { TIMEOUT_MESSAGE_PREFIX };

/** The error text for a request that brought no bytes for `timeoutMs`; the classifier reads it as `timeout`. */
export const timeoutMessage = noBytesMessage;

export function createGuardedStreamFn(options: GuardedStreamOptions): StreamFn {
  return (model, context, streamOptions) => {
    const output = piRuntime().piAi.createAssistantMessageEventStream();
    const controller = new AbortController();
    const { onPromptWait, ...callOptions } = (streamOptions ?? {}) as GuardedCallOptions;
    const outer = callOptions.signal;
    const onOuterAbort = () => controller.abort(outer?.reason);
    if (outer?.aborted) controller.abort(outer.reason);
    else outer?.addEventListener('abort', onOuterAbort, { once: true });

    const local = options.localServer?.(model);
    let failure: LivenessFailure | undefined;
    const watch = new LivenessWatch(
      {
        idleMs: options.timeoutMs(),
        keepAliveLimitMs: options.keepAliveLimitMs?.() ?? DEFAULT_KEEP_ALIVE_LIMIT_MS,
        local,
      },
      (found) => {
        failure = found;
        controller.abort(new Error(found.message));
      },
      onPromptWait,
    );
    const cleanup = () => {
      watch.dispose();
      outer?.removeEventListener('abort', onOuterAbort);
    };

    const observation = options.facts?.begin();
    observation?.onActivity?.((activity) => {
      watch.bytes();
      if (activity.progress) watch.progress(activity.progress.processed, activity.progress.total);
    });
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

    void (async () => {
      try {
        const inner: AssistantMessageEventStream = await options.base(model, context, {
          ...callOptions,
          headers: { ...callOptions.headers, ...observation?.headers },
          signal: controller.signal,
          maxRetries: 0,
          ...(local && { timeoutMs: local.firstTokenWaitMs + SDK_TIMEOUT_MARGIN_MS }),
        });
        for await (const event of inner) {
          if (isWords(event)) watch.words();
          else watch.bytes();
          if (event.type === 'error') {
            finishWithError(failure ? asFailure(event.error, failure) : event.error);
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
        finishWithError(failedMessage(model, failure?.message ?? 'The provider stream ended without a result'));
      } catch (error) {
        const aborted = controller.signal.aborted && !failure;
        const text = failure?.message ?? (aborted ? 'Request was aborted' : errorText(error));
        finishWithError(failedMessage(model, text, aborted ? 'aborted' : 'error'));
      }
    })();
    return output;
  };
}

/**
 * The session's stream function: every call tells the session, as its events, while a local server
 * processes the prompt (the chat's "Processing the prompt… 45 s"). Set on the agent by session-parts.ts.
 */
export function reportingPromptWait(base: StreamFn, emit: (event: PromptProcessingEvent) => void): StreamFn {
  const onPromptWait = (update: PromptWaitUpdate): void => {
    if (update.state === 'start') emit({ type: 'prompt_processing_start', startedAt: update.startedAt });
    else if (update.state === 'progress')
      emit({ type: 'prompt_processing_progress', processed: update.processed, total: update.total });
    else emit({ type: 'prompt_processing_end' });
  };
  return (model, context, options) => base(model, context, { ...options, onPromptWait } as GuardedCallOptions);
}

/** The model's output began: a word of text or thinking, or a tool call (an empty delta is bytes only). */
function isWords(event: AssistantMessageEvent): boolean {
  switch (event.type) {
    case 'text_delta':
    case 'thinking_delta':
    case 'toolcall_delta':
      return event.delta !== '';
    case 'toolcall_start':
    case 'done':
      return true;
    default:
      return false;
  }
}

function redacted(message: AssistantMessage, secrets: GuardedStreamOptions['secrets']): AssistantMessage {
  if (!secrets || message.errorMessage === undefined) return message;
  return { ...message, errorMessage: redactSecrets(message.errorMessage, secrets()) };
}

/** The SDK's error after the watch aborted the request: the watch's words say what happened. */
function asFailure(message: AssistantMessage, failure: LivenessFailure): AssistantMessage {
  return { ...message, stopReason: 'error', errorMessage: failure.message };
}

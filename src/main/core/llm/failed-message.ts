// The failed message: the assistant message that stands in the transcript for a request that gave
// no reply — a provider's failure (the guarded stream), or a run the tool gate ended — and the typed
// Failure a provider's failed message becomes at the run's end (with pi-ai's overflow verdict and
// the HTTP facts the guarded stream attached). The one place besides the stream that needs pi-ai
// loaded: a message can only fail after a run, and a run loads pi-ai first (pi-runtime.ts).
import type { AssistantMessage, AssistantMessageEventStream } from '@mariozechner/pi-ai';
import type { AssistantChatMessage } from '../../../shared/messages';
import { providerFactsOf, type Failure } from '../retry';
import { piRuntime } from './pi-runtime';

/** An assistant message that reports a failure instead of a reply. */
export function failedMessage(
  model: { api: string; provider: string; id: string },
  errorMessage: string,
  stopReason: 'error' | 'aborted' = 'error',
): AssistantMessage {
  return {
    role: 'assistant',
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason,
    errorMessage,
    timestamp: Date.now(),
  };
}

/** A stream that sends no request and ends at once with `message` (the tool gate's answer, a stop at the spending cap). */
export function failedStream(message: AssistantMessage): AssistantMessageEventStream {
  const stream = piRuntime().piAi.createAssistantMessageEventStream();
  queueMicrotask(() => {
    stream.push({ type: 'error', reason: message.stopReason === 'aborted' ? 'aborted' : 'error', error: message });
    stream.end(message);
  });
  return stream;
}

/** A provider's failed message as the Failure the retry controller classifies. */
export function providerFailure(message: AssistantChatMessage, contextWindow: number | undefined): Failure {
  const { isContextOverflow } = piRuntime().piAi;
  let overflow = false;
  try {
    overflow = message.stopReason === 'error' && isContextOverflow(message as AssistantMessage, contextWindow);
  } catch {
    overflow = false;
  }
  return {
    kind: 'provider',
    facts: {
      ...providerFactsOf(message),
      message: message.errorMessage,
      stopReason: message.stopReason,
      isContextOverflow: overflow,
    },
  };
}

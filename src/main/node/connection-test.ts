// "Test connection" in Settings → Provider: one minimal request through the same path a chat turn
// takes (the guarded stream with its timeout and HTTP facts, the provider's SDK, the person's key)
// and the classifier's verdict on the answer. Nothing is stored in the history. Called by
// the providers domain (domains/provider-domain.ts) for the `providers.test` command.
import type { StreamFn } from '@mariozechner/pi-agent-core';
import type { Api, Model } from '@mariozechner/pi-ai';
import type { ConnectionTestResult } from '../../shared/contract';
import { messageText, type AssistantChatMessage } from '../../shared/messages';
import { providerFailure } from '../core/llm/failed-message';
import { classifyFailure } from '../core/retry';

const TEST_PROMPT = 'Reply with the single word: OK';
/** Enough for a one-word answer; keeps the test cheap on a paid API. */
const TEST_MAX_TOKENS = 16;
/** The reply's first words are shown; a chatty model's rest is not. */
const SHOWN_REPLY_CHARS = 120;

export interface ConnectionTestDeps {
  streamFn: StreamFn;
  model: Model<Api>;
  apiKey: string | undefined;
  now: () => number;
}

function hostOf(model: Model<Api>): string | undefined {
  try {
    return new URL(model.baseUrl).host;
  } catch {
    return undefined;
  }
}

export async function testConnection(deps: ConnectionTestDeps): Promise<ConnectionTestResult> {
  const { model } = deps;
  const started = deps.now();
  const stream = await deps.streamFn(
    model,
    { systemPrompt: '', messages: [{ role: 'user', content: TEST_PROMPT, timestamp: started }] },
    { apiKey: deps.apiKey, maxTokens: TEST_MAX_TOKENS },
  );
  const message = (await stream.result()) as AssistantChatMessage;
  const latencyMs = Math.max(0, deps.now() - started);
  const base = { provider: model.provider, model: model.id, latencyMs };
  if (message.stopReason === 'error' || message.stopReason === 'aborted') {
    const { category } = classifyFailure(providerFailure(message, model.contextWindow));
    return { ...base, ok: false, category, message: message.errorMessage ?? 'The request failed', host: hostOf(model) };
  }
  return { ...base, ok: true, category: null, message: messageText(message).trim().slice(0, SHOWN_REPLY_CHARS) };
}

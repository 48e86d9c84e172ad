// Classifies a finished assistant message: the error text, pi-ai's own overflow detection and
// the HTTP facts the guarded stream attached (provider-facts.ts), handed to classifyError.
// Used by AgentSession at message_end and agent_end, once pi-ai is loaded (pi-runtime.ts).
import type { AssistantMessage } from '@mariozechner/pi-ai';
import type { AssistantChatMessage } from '../../shared/messages';
import { classifyError, type Classification } from './classify-error';
import { piRuntime } from './pi-runtime';
import { providerFactsOf } from './provider-facts';

export function classifyAssistantMessage(
  message: AssistantChatMessage,
  contextWindow: number | undefined,
): Classification {
  // Outside the try: a message can only end after a run, and a run loads pi-ai first.
  const { isContextOverflow } = piRuntime().piAi;
  let overflow = false;
  try {
    overflow = message.stopReason === 'error' && isContextOverflow(message as AssistantMessage, contextWindow);
  } catch {
    overflow = false;
  }
  const facts = providerFactsOf(message);
  return classifyError({
    message: message.errorMessage,
    stopReason: message.stopReason,
    isContextOverflow: overflow,
    status: facts?.status,
    headers: facts?.headers,
    errorType: facts?.errorType,
  });
}

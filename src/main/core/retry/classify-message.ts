// Classifies a finished assistant message: the error text, pi-ai's own overflow detection and
// the HTTP facts the guarded stream attached (provider-facts.ts), handed to classifyError whole.
// Used by AgentSession at message_end and agent_end, once pi-ai is loaded (pi-runtime.ts).
import type { AssistantMessage } from '@mariozechner/pi-ai';
import type { ToolFailureCategory } from '../../../shared/error-category';
import type { AssistantChatMessage } from '../../../shared/messages';
import { classifyError, type Classification } from './classify-error';
import { piRuntime } from '../pi-runtime';
import { providerFactsOf } from './provider-facts';

/** `toolFault`: the tool failure this errored message stands for (tools/tool-gate.ts), if any. */
export function classifyAssistantMessage(
  message: AssistantChatMessage,
  contextWindow: number | undefined,
  toolFault?: ToolFailureCategory | 'invalid_output',
): Classification {
  // Outside the try: a message can only end after a run, and a run loads pi-ai first.
  const { isContextOverflow } = piRuntime().piAi;
  let overflow = false;
  try {
    overflow = message.stopReason === 'error' && isContextOverflow(message as AssistantMessage, contextWindow);
  } catch {
    overflow = false;
  }
  return classifyError({
    ...providerFactsOf(message),
    message: message.errorMessage,
    stopReason: message.stopReason,
    isContextOverflow: overflow,
    toolError: toolFault === 'invalid_output' ? undefined : toolFault,
    invalidOutput: toolFault === 'invalid_output',
  });
}

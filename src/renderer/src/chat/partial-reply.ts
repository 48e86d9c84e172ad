// What a failed attempt had streamed before it failed (docs/retry-policy.md, "Nothing streamed is
// lost"): its words, its thinking and the tools it had begun to call. chat-items.ts puts it on the
// failed card; live-items.ts asks whether a failed reply left words to continue from.
import type { ChatMessage } from '../../../shared/messages';
import { assistantText } from './tool-items';

export interface PartialReply {
  text: string;
  thinking: string;
  /** The tools it had begun to call. */
  toolCalls: string[];
}

export function partialOf(message: ChatMessage | undefined): PartialReply | null {
  if (message?.role !== 'assistant') return null;
  const text = assistantText(message);
  const thinking = message.content
    .flatMap((block) => (block.type === 'thinking' && block.thinking ? [block.thinking] : []))
    .join('\n');
  const toolCalls = message.content.flatMap((block) => (block.type === 'toolCall' ? [block.name] : []));
  return text.trim() || thinking.trim() || toolCalls.length > 0 ? { text, thinking, toolCalls } : null;
}

// One item of a transcript — a bubble, an errored-chain card or a tool card — for the live chat
// and the read-only history alike (buildChatItems decides which).
import type { ChatItem } from '../../chat/chat-items';
import { ToolCallCard } from '../tools/ToolCallCard';
import { ErroredChainCard } from './ErroredChainCard';
import { MessageBubble } from './MessageBubble';

export function TranscriptItem({ item, isReadOnly = false }: { item: ChatItem; isReadOnly?: boolean }) {
  switch (item.kind) {
    case 'message':
      return <MessageBubble item={item} />;
    case 'errored-chain':
      return <ErroredChainCard item={item} isExpanded={isReadOnly} />;
    case 'tool-call':
      return <ToolCallCard item={item} />;
  }
}

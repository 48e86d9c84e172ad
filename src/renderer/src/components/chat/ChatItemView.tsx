// One row of the chat, by item kind: a message bubble, a retry chain's card (or quiet note), or the
// divider of a compaction. The chat and the read-only history render their items through it, one
// component per row, so a virtualised list can render any slice of the same items.
import type { ChatItem } from '../../chat/chat-items';
import { CompactionDivider } from './CompactionDivider';
import { ErroredChainCard } from './ErroredChainCard';
import { MessageBubble } from './MessageBubble';

/** What a row may offer: actions only in the live chat, on what they apply to, while nothing runs. */
export interface ItemActions {
  canEdit: boolean;
  canRegenerate: boolean;
  canRetry: boolean;
}

export const READ_ONLY: ItemActions = { canEdit: false, canRegenerate: false, canRetry: false };

interface ChatItemViewProps {
  item: ChatItem;
  actions?: ItemActions;
  /** The history opens every card's timeline. */
  isExpanded?: boolean;
}

export function ChatItemView({ item, actions = READ_ONLY, isExpanded = false }: ChatItemViewProps) {
  switch (item.kind) {
    case 'message':
      return <MessageBubble item={item} canEdit={actions.canEdit} canRegenerate={actions.canRegenerate} />;
    case 'errored-chain':
      return <ErroredChainCard item={item} canRetry={actions.canRetry} isExpanded={isExpanded} />;
    case 'compaction':
      return <CompactionDivider compaction={item.compaction} />;
  }
}

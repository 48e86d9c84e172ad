// One row of the chat, by item kind: a message bubble, a tool call's card, a retry chain's card (or
// quiet note), a switch to a fallback model, the divider of a compaction, and the live chat's own
// rows (an approval, an interrupted turn, Continue, a prompt held for a rate limit). The chat and
// the read-only history render their items through it, one component per row, so a virtualised
// list can render any slice of the same items.
import { memo } from 'react';
import type { ChatItem } from '../../chat/chat-items';
import { ModelSwitchRow } from '../retry/ModelSwitchNotice';
import { ApprovalCard } from '../tools/ApprovalCard';
import { ContinueBar } from '../tools/ContinueBar';
import { ToolCallCard } from '../tools/ToolCallCard';
import { CompactionDivider } from './CompactionDivider';
import { ErroredChainCard } from './ErroredChainCard';
import { InterruptedTurnCard } from './InterruptedTurnCard';
import { MessageBubble } from './MessageBubble';
import { PacingNotice } from './PacingNotice';

/** What a row may offer: actions only in the live chat, on what they apply to, while nothing runs. */
export interface ItemActions {
  canEdit: boolean;
  canRegenerate: boolean;
  canRetry: boolean;
  /** The live chat's last card whose outcome has not arrived yet: it shows "…", not a guess. */
  isSettling?: boolean;
}

export const READ_ONLY: ItemActions = { canEdit: false, canRegenerate: false, canRetry: false };

interface ChatItemViewProps {
  item: ChatItem;
  actions?: ItemActions;
  /** The history opens every card's timeline. */
  isExpanded?: boolean;
}

/**
 * The items are built afresh on every change, so rows compare what they show: while a reply
 * streams, only its own row renders again, not every message above it.
 */
function isSameRow(a: ChatItemViewProps, b: ChatItemViewProps): boolean {
  const [x, y] = [a.item, b.item];
  if (x.kind !== 'message' || y.kind !== 'message') return false;
  const sameActions = (a.actions ?? READ_ONLY) === (b.actions ?? READ_ONLY) || sameFlags(a.actions, b.actions);
  return (
    sameActions &&
    a.isExpanded === b.isExpanded &&
    x.key === y.key &&
    x.text === y.text &&
    x.turnId === y.turnId &&
    x.isStreaming === y.isStreaming &&
    x.stopReason === y.stopReason &&
    x.model === y.model &&
    x.createdAt === y.createdAt &&
    x.versions?.index === y.versions?.index &&
    x.versions?.count === y.versions?.count
  );
}

function sameFlags(a: ItemActions = READ_ONLY, b: ItemActions = READ_ONLY): boolean {
  return a.canEdit === b.canEdit && a.canRegenerate === b.canRegenerate && a.canRetry === b.canRetry;
}

export const ChatItemView = memo(function ChatItemView({
  item,
  actions = READ_ONLY,
  isExpanded = false,
}: ChatItemViewProps) {
  switch (item.kind) {
    case 'message':
      return <MessageBubble item={item} canEdit={actions.canEdit} canRegenerate={actions.canRegenerate} />;
    case 'tool-call':
      return <ToolCallCard item={item} />;
    case 'errored-chain':
      return (
        <ErroredChainCard
          item={item}
          canRetry={actions.canRetry}
          isExpanded={isExpanded}
          isSettling={actions.isSettling}
        />
      );
    case 'model-switch':
      return <ModelSwitchRow switched={item} />;
    case 'compaction':
      return <CompactionDivider compaction={item.compaction} />;
    case 'approval':
      return <ApprovalCard request={item.request} />;
    case 'interrupted':
      return <InterruptedTurnCard offer={item.offer} />;
    case 'continue':
      return <ContinueBar />;
    case 'held-message':
      return <MessageBubble item={item.message} canEdit={false} canRegenerate={false} />;
    case 'pacing':
      return <PacingNotice pacing={item.pacing} />;
  }
}, isSameRow);

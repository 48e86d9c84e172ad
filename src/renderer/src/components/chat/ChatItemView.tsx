// One row of the chat, by item kind: a message bubble, a tool call's card, a retry chain's card (or
// quiet note), a switch to a fallback model, the divider of a compaction, and the live chat's own
// rows (an approval, an interrupted turn, Continue, a prompt held for a rate limit). The chat and
// the read-only history render their items through it, one component per row, so a virtualised
// list can render any slice of the same items.
import { memo } from 'react';
import { shallow } from 'zustand/shallow';
import type { ChatItem, MessageItem } from '../../chat/chat-items';
import { ModelSwitchRow } from '../retry/ModelSwitchNotice';
import { ApprovalCard } from '../tools/ApprovalCard';
import { ContinueBar } from '../tools/ContinueBar';
import { ToolCallCard } from '../tools/ToolCallCard';
import { CompactionDivider } from './CompactionDivider';
import { ErroredChainCard } from './ErroredChainCard';
import { InterruptedTurnCard } from './InterruptedTurnCard';
import { MessageBubble } from './MessageBubble';
import { READ_ONLY, sameRowState, type RowState } from './MessageActions';
import { PacingNotice } from './PacingNotice';

interface ChatItemViewProps {
  item: ChatItem;
  /** Where the row stands, which decides the actions it offers (MessageActions.tsx). */
  row?: RowState;
  /** The history opens every card's timeline. */
  isExpanded?: boolean;
}

/**
 * The items are built afresh on every change, so message rows compare what they show (a message
 * item holds plain values but its thinking blocks, so a shallow comparison of the rest is exact): while a reply streams, only its
 * own row renders again, not every message above it.
 */
function isSameRow(a: ChatItemViewProps, b: ChatItemViewProps): boolean {
  const [x, y] = [a.item, b.item];
  if (x.kind !== 'message' || y.kind !== 'message') return false;
  // The thinking blocks are an array built afresh: compared by what they show.
  const { thinking: xThinking, ...xRest } = x;
  const { thinking: yThinking, ...yRest } = y;
  return (
    sameRowState(a.row, b.row) &&
    a.isExpanded === b.isExpanded &&
    shallow(xRest, yRest) &&
    sameThinking(xThinking, yThinking)
  );
}

function sameThinking(a: MessageItem['thinking'], b: MessageItem['thinking']): boolean {
  return (
    a.length === b.length && a.every((block, i) => block.text === b[i].text && block.durationMs === b[i].durationMs)
  );
}

export const ChatItemView = memo(function ChatItemView({
  item,
  row = READ_ONLY,
  isExpanded = false,
}: ChatItemViewProps) {
  switch (item.kind) {
    case 'message':
      return <MessageBubble item={item} row={row} />;
    case 'tool-call':
      return <ToolCallCard item={item} />;
    case 'errored-chain':
      return <ErroredChainCard item={item} row={row} isExpanded={isExpanded} />;
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
      return <MessageBubble item={item.message} row={READ_ONLY} />;
    case 'pacing':
      return <PacingNotice pacing={item.pacing} />;
  }
}, isSameRow);

// One row of the chat, by item kind: a message bubble, a tool call's card, a retry chain's card (or
// quiet note), a switch to a fallback model, the divider of a compaction, and the live chat's own
// rows (an approval, an interrupted turn, Continue, a prompt held for a rate limit, a run's
// changed files, the away summary). The chat and the read-only history render their items through it, one component
// per row, so a virtualised list can render any slice of the same items.
import { memo } from 'react';
import { READ_ONLY, isSameRow, type RowProps } from '../../chat/same-row';
import { ModelSwitchRow } from '../../retry/ModelSwitchNotice';
import { ApprovalCard } from '../../tools/ApprovalCard';
import { ContinueBar } from '../../tools/ContinueBar';
import { FileChangesRow } from '../../tools/FileChangesRow';
import { ToolCallCard } from '../../tools/ToolCallCard';
import { AwaySummaryCard } from './AwaySummaryCard';
import { CompactionDivider } from './CompactionDivider';
import { ErroredChainCard } from './ErroredChainCard';
import { InterruptedTurnCard } from './InterruptedTurnCard';
import { MessageBubble } from './MessageBubble';
import { PacingNotice } from './PacingNotice';
import { PromptWaitNotice } from './PromptWaitNotice';

export const ChatItemView = memo(function ChatItemView({ item, row = READ_ONLY, isExpanded = false }: RowProps) {
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
    case 'prompt-wait':
      return <PromptWaitNotice wait={item.wait} />;
    case 'file-changes':
      return <FileChangesRow item={item} row={row} />;
    case 'away-summary':
      return <AwaySummaryCard item={item} row={row} />;
  }
}, isSameRow);

// The live chat's own rows, placed into the flat list buildChatItems made (ChatView), each rendered
// by its own component like every other item: the approval card after the tool call it asks about
// (docs/tools.md, "Approvals"), the interrupted-turn card after its chain's card (docs/retry-policy.md,
// "Resume after a restart"), and at the end Continue after a stopped turn that used tools
// (docs/tools.md, "Continue") and the notice of a prompt held for a rate limit ("Rate-limit
// pacing", shown under the held message's bubble), and a local server's "Processing the prompt…" ("Two
// clocks"). The read-only history has none of them. Pure.
import type { InterruptedRetry, PacingWait } from '../../../shared/events';
import { activePath } from '../../../shared/history';
import { toolDetailsOf, type ApprovalRequest } from '../../../shared/tools';
import type { AppState, PromptWaitView } from '../store/state';
import type { ChatItem, MessageItem } from './chat-items';
import { partialOf } from './partial-reply';
import type { FileChangesItem } from './file-change-items';
import type { AwaySummaryItem } from './away-summary';

export interface ApprovalItem {
  kind: 'approval';
  key: string;
  request: ApprovalRequest;
}

export interface InterruptedItem {
  kind: 'interrupted';
  key: string;
  offer: InterruptedRetry;
}

export interface ContinueItem {
  kind: 'continue';
  key: string;
}

export interface PacingItem {
  kind: 'pacing';
  key: string;
  pacing: PacingWait;
}

/** The prompt held for a rate limit, as the person's bubble (not stored yet: no actions on it). */
export interface HeldMessageItem {
  kind: 'held-message';
  key: string;
  message: MessageItem;
}

/** A local server processes the prompt before its first word (docs/retry-policy.md, "Two clocks"). */
export interface PromptWaitItem {
  kind: 'prompt-wait';
  key: string;
  wait: PromptWaitView;
}

export type LiveItem =
  | ApprovalItem
  | InterruptedItem
  | ContinueItem
  | HeldMessageItem
  | PacingItem
  | PromptWaitItem
  | FileChangesItem
  | AwaySummaryItem;

export interface LiveState {
  /** Only the oldest waiting request is asked at a time (its card takes the focus). */
  approval: ApprovalRequest | null;
  interrupted: InterruptedRetry | null;
  canContinue: boolean;
  pacing: PacingWait | null;
  promptWait?: PromptWaitView | null;
}

const LIVE_KINDS: ReadonlySet<ChatItem['kind']> = new Set([
  'approval',
  'interrupted',
  'continue',
  'held-message',
  'pacing',
  'prompt-wait',
  'file-changes',
  'away-summary',
]);

/** What the conversation holds, as opposed to the live chat's prompts about it (and dividers). */
export function isExchangeItem(item: ChatItem): boolean {
  return !LIVE_KINDS.has(item.kind) && item.kind !== 'compaction' && item.kind !== 'model-switch';
}

/** Put each live row after the item it is about (at the end when that item is not shown). */
export function withLiveItems(items: ChatItem[], live: LiveState): ChatItem[] {
  let out = items;
  if (live.interrupted) {
    const { chainId } = live.interrupted;
    const row: InterruptedItem = { kind: 'interrupted', key: `interrupted-${chainId}`, offer: live.interrupted };
    out = insertAfter(out, (i) => i.kind === 'errored-chain' && i.chainId === chainId, row);
  }
  if (live.approval) {
    const { toolCallId, id } = live.approval;
    const row: ApprovalItem = { kind: 'approval', key: `approval-${id}`, request: live.approval };
    out = insertAfter(out, (i) => i.kind === 'tool-call' && i.toolCallId === toolCallId, row);
  }
  // The notice takes the place of the reply's empty "Writing…" bubble: nothing is written yet.
  if (live.promptWait && isEmptyStreamingReply(out.at(-1))) out = out.slice(0, -1);
  const tail: LiveItem[] = [];
  if (live.canContinue) tail.push({ kind: 'continue', key: 'continue' });
  if (live.pacing)
    tail.push(heldMessage(live.pacing), { kind: 'pacing', key: `pacing-${live.pacing.until}`, pacing: live.pacing });
  if (live.promptWait)
    tail.push({ kind: 'prompt-wait', key: `prompt-wait-${live.promptWait.startedAt}`, wait: live.promptWait });
  return tail.length > 0 ? [...out, ...tail] : out;
}

/** The held prompt is the person's message already: its bubble, with the wait under it. */
function heldMessage(pacing: PacingWait): HeldMessageItem {
  const key = `held-${pacing.until}`;
  const message: MessageItem = {
    kind: 'message',
    key,
    turnId: null,
    role: 'user',
    text: pacing.text,
    isStreaming: false,
    stopReason: null,
    toolName: null,
    model: null,
    createdAt: pacing.until - pacing.waitMs,
    thinking: [],
  };
  return { kind: 'held-message', key, message };
}

function isEmptyStreamingReply(item: ChatItem | undefined): boolean {
  return (
    item?.kind === 'message' &&
    item.role === 'assistant' &&
    item.isStreaming &&
    item.text === '' &&
    item.thinking.length === 0
  );
}

function insertAfter(items: ChatItem[], isTarget: (item: ChatItem) => boolean, row: LiveItem): ChatItem[] {
  const at = items.findIndex(isTarget);
  return at < 0 ? [...items, row] : [...items.slice(0, at + 1), row, ...items.slice(at + 1)];
}

/**
 * Continue is offered when nothing runs and the newest turn failed or was stopped after the model
 * used tools in that exchange: the model may try again with what the tools did. Without tools the
 * card's Retry (or a stopped reply's Regenerate) asks for the same thing.
 */
export function canContinue(state: Pick<AppState, 'session' | 'retry'>): boolean {
  const { session, retry } = state;
  if (session.isStreaming || session.isRetrying || retry.banner?.kind === 'pending') return false;
  if (session.pendingMessages.length > 0 || session.pacing) return false;
  const path = activePath(session.turns);
  const last = path[path.length - 1];
  // A call a quit or a crash cut off: the model may go on, told it was cut (docs/tools.md).
  if (last?.message.role === 'toolResult') return toolDetailsOf(last.message.details).interrupted === true;
  if (last?.role !== 'assistant' || (last.stopReason !== 'error' && last.stopReason !== 'aborted')) return false;
  // A reply cut off after some words: its card offers Continue itself (ErroredChainCard).
  if (last.stopReason === 'error' && partialOf(last.message)?.text.trim()) return false;
  const exchange = path.slice(path.findLastIndex((t) => t.role === 'user') + 1);
  return exchange.some((t) => t.role === 'toolResult');
}

// Turns the session's transcript into the flat list the chat renders, one component per item kind
// (ChatItemView): message bubbles, one card per tool call (tool-items.ts), ONE card per retry chain
// for its errored turns (a quiet note when it recovered), a notice where a usage limit switched to
// a fallback model, and a divider where the conversation was summarised. One version shows at
// each fork — the newest unless another is chosen; its first message carries the switcher (an
// edited message or a regenerated reply replaces what it branched from; the history keeps all).
// Pure, so the chat and the read-only history share it and tests cover it; the live chat adds its
// own rows with live-items.ts.
import { INTERRUPTED_DISCARDED_REASON, INTERRUPTED_OUTCOME, type ErrorCategory } from '../../../shared/error-category';
import {
  branchPath,
  type BranchChoices,
  type BranchVersions,
  type ErroredTurn,
  type RetryDecisionRecord,
  type TurnRecord,
} from '../../../shared/history';
import {
  attachmentBlocks,
  messageText,
  type AttachmentBlock,
  type ChatMessage,
  type ChatUsage,
  type StopReason,
} from '../../../shared/messages';
import type { ChainView, CompactionView } from '../store/state';
import type { LiveItem } from './live-items';
import { partialOf, type PartialReply } from './partial-reply';
import {
  assistantText,
  orphanResultItem,
  resultsByCall,
  toolCallItem,
  toolCallsOf,
  type StoredResult,
  type ToolCallItem,
  type ToolContext,
} from './tool-items';

export interface MessageItem {
  kind: 'message';
  key: string;
  /** The stored turn, null while it is not stored yet (no actions on it then). */
  turnId: string | null;
  role: ChatMessage['role'];
  text: string;
  isStreaming: boolean;
  stopReason: StopReason | null;
  toolName: string | null;
  /** The model that answered (assistant turns), so the chat marks it. */
  model: string | null;
  createdAt: number;
  /** The first message of a version that has others (an edit, a resend, a regenerate): its switcher. */
  versions?: BranchVersions;
  /** The reply's thinking blocks, shown collapsible above its words (docs/thinking-and-context.md). */
  thinking: ThinkingView[];
  /** The files sent with the person's message (shown as chips; Edit can leave some out). */
  attachments?: AttachmentBlock[];
  /** An earlier message of the person whose run or a later one left file changes: Restore files to here (file-change-items.ts). */
  restoreFiles?: boolean;
}

/** One thinking block of a reply as the chat shows it. */
export interface ThinkingView {
  text: string;
  /** How long it took, ms; null when not known (a turn stored before it was timed, or still thinking). */
  durationMs: number | null;
  /** The provider withheld it (Anthropic's redacted thinking). */
  redacted: boolean;
}

/** The thinking blocks of a reply (none for other messages, or a block with nothing in it). */
export function thinkingOf(message: ChatMessage): ThinkingView[] {
  if (message.role !== 'assistant') return [];
  return message.content.flatMap((block) =>
    block.type === 'thinking' && (block.thinking.trim() || block.redacted)
      ? [{ text: block.thinking, durationMs: block.durationMs ?? null, redacted: block.redacted === true }]
      : [],
  );
}

export interface ErroredAttempt {
  key: string;
  errorMessage: string;
  /** Null when the attempt streamed nothing. */
  partial: PartialReply | null;
  /** When its reply started (the message's own time; a continuation names it). */
  startedAt: number | null;
  category: ErrorCategory | null;
  createdAt: number;
  /** What the attempt used and cost (null cost: unknown price, or not stored yet). */
  usage: ChatUsage | null;
  costUsd: number | null;
}

/**
 * Where a chain stands: still retrying, recovered, handed to compaction, failed for good (the
 * card offers Retry and Resend), or not known yet (its decision has not arrived).
 */
export type ChainStatus = 'retrying' | 'recovered' | 'compacted' | 'failed' | 'unknown';

export interface ErroredChainItem {
  kind: 'errored-chain';
  key: string;
  chainId: string | null;
  attempts: ErroredAttempt[];
  chain: ChainView | null;
  decisions: RetryDecisionRecord[];
  status: ChainStatus;
  /** Retries made: every failed attempt after the first, plus the one that recovered (docs/retry-policy.md, "Counting"). */
  retries: number;
  /** The person's message this chain answered (Resend sends it again), when stored; hadImages: it carried images. */
  prompt: { turnId: string; text: string; hadImages?: boolean } | null;
  /** The seq of its last stored attempt, to place what follows it (a compaction). */
  lastSeq: number | null;
  /** For an overflow handed to compaction: that compaction, when this window saw it. */
  compaction: CompactionView | null;
  /** Continue went on from its cut-off reply: the reply after it shows both as one. */
  continued: boolean;
  /**
   * An interrupted chain the person gave up with "Discard" after a restart (docs/retry-policy.md,
   * "Resume after a restart"): a quiet card that offers nothing again, not an error to retry.
   */
  discarded?: boolean;
  /** A failed chain's run changed these files before it failed (file-change-items.ts): the card says which. */
  changedFiles?: string[];
  /** Some of those changes are still in place: Resend offers "Undo those changes first". */
  changesInPlace?: boolean;
}

export interface CompactionItem {
  kind: 'compaction';
  key: string;
  compaction: CompactionView;
}

/** A usage limit switched the session to the next model of the fallback list (docs/retry-policy.md, "Fallback models"). */
export interface ModelSwitchItem {
  kind: 'model-switch';
  key: string;
  from: { provider: string; model: string };
  to: { provider: string; model: string };
  /** What the switch was for: a usage limit, or the outage a failover left (docs/retry-policy.md, "Failover"). */
  category: ErrorCategory;
}

export type ChatItem = MessageItem | ErroredChainItem | ToolCallItem | CompactionItem | ModelSwitchItem | LiveItem;
export type { ToolCallItem } from './tool-items';

export interface ChatItemsInput extends ToolContext {
  turns: TurnRecord[];
  pendingMessages?: ChatMessage[];
  streamingMessage?: ChatMessage | null;
  chains: Record<string, ChainView>;
  decisions: RetryDecisionRecord[];
  compactions?: CompactionView[];
  /** Which version to show at each fork (the newest where none is chosen). */
  branchChoices?: BranchChoices;
}

const isErrored = (turn: TurnRecord): boolean =>
  turn.stopReason === 'error' ||
  (turn.role === 'assistant' && Boolean(turn.errorMessage) && turn.stopReason !== 'aborted');

/** Where the tool cards find their results, and which calls already have a card. */
interface ToolLookup {
  results: Map<string, StoredResult>;
  calledIds: Set<string>;
  context: ToolContext;
}

/**
 * A message as items: a bubble, or — for a reply that called tools — its words (if any) and one
 * card per call; a tool result is shown inside its call's card, alone only when its call is missing.
 */
function messageItems(key: string, turnId: string | null, message: ChatMessage, tools: ToolLookup): ChatItem[] {
  if (message.role === 'toolResult') {
    const result = tools.results.get(message.toolCallId);
    return tools.calledIds.has(message.toolCallId) || !result ? [] : [orphanResultItem(result)];
  }
  const calls = toolCallsOf(message);
  if (calls.length === 0) return [messageItem(key, turnId, message, false)];
  for (const call of calls) tools.calledIds.add(call.id);
  const bubble =
    assistantText(message) || thinkingOf(message).length > 0 ? [messageItem(key, turnId, message, false)] : [];
  return [...bubble, ...calls.map((call) => toolCallItem(call, tools.results.get(call.id), tools.context))];
}

/** The words, thinking and begun tool calls of a failed reply; null when it streamed none. */
function attemptOf(
  key: string,
  turn: { errorMessage?: string | null; createdAt: number; usage: ChatUsage | null; message?: ChatMessage },
): ErroredAttempt {
  return {
    key,
    errorMessage: turn.errorMessage ?? '',
    partial: partialOf(turn.message),
    startedAt: turn.message?.timestamp ?? null,
    category: null,
    createdAt: turn.createdAt,
    usage: turn.usage,
    costUsd: null,
  };
}

export function buildChatItems(input: ChatItemsInput): ChatItem[] {
  const items: ChatItem[] = [];
  const cardByChain = new Map<string, ErroredChainItem>();
  const tools: ToolLookup = {
    results: resultsByCall(input.turns, input.pendingMessages),
    calledIds: new Set<string>(),
    context: input,
  };
  let prompt: ErroredChainItem['prompt'] = null;
  const shown = branchPath(input.turns, input.branchChoices);
  // A version's switcher goes on its first message (a reply that only called tools: the next one).
  let versions: BranchVersions | undefined;

  for (const turn of shown.path) {
    versions = shown.versions.get(turn.seq) ?? versions;
    if (!isErrored(turn)) {
      if (turn.role === 'user') prompt = { turnId: turn.id, text: turn.text, ...imagesFlag(turn.message) };
      const made = messageItems(turn.id, turn.id, turn.message, tools);
      const first = made[0];
      if (versions && first?.kind === 'message') [first.versions, versions] = [versions, undefined];
      items.push(...made);
      continue;
    }
    const attempt = { ...attemptOf(turn.id, turn), category: turn.errorCategory, costUsd: turn.costUsd ?? null };
    const existing = turn.chainId ? cardByChain.get(turn.chainId) : undefined;
    if (existing) {
      existing.attempts.push(attempt);
      existing.lastSeq = turn.seq;
      continue;
    }
    const card = newCard(`chain-${turn.chainId ?? turn.id}`, turn.chainId, attempt, input, turn.id);
    card.prompt = prompt;
    card.lastSeq = turn.seq;
    if (turn.chainId) cardByChain.set(turn.chainId, card);
    items.push(card);
  }

  (input.pendingMessages ?? []).forEach((message, i) => {
    const key = `pending-${message.role}-${message.timestamp}-${i}`;
    if (message.role === 'assistant' && message.stopReason === 'error') {
      const attempt = attemptOf(key, { ...message, createdAt: message.timestamp, message });
      // During a chain the failed attempts are consecutive: join the card just above, so the
      // attempt does not flash as a separate card before its turn_persisted arrives.
      const last = items[items.length - 1];
      if (last?.kind === 'errored-chain') last.attempts.push(attempt);
      else items.push(newCard(key, null, attempt, input, null));
      return;
    }
    items.push(...messageItems(key, null, message, tools));
  });

  if (input.streamingMessage) items.push(messageItem('streaming', null, input.streamingMessage, true));
  markContinued(
    items,
    [...input.turns.map((t) => t.message), ...(input.pendingMessages ?? [])],
    input.streamingMessage,
  );
  stableKeys(items);
  const compactions = input.compactions ?? [];
  for (const item of items) if (item.kind === 'errored-chain') settle(item, compactions);
  return placeCompactions(withModelSwitches(items), input.turns, compactions);
}

/** The card of a cut-off reply that Continue went on from becomes a quiet note: the reply after it holds its words. */
function markContinued(items: ChatItem[], messages: ChatMessage[], streaming: ChatMessage | null | undefined): void {
  const continued = new Set<number>();
  for (const message of streaming ? [...messages, streaming] : messages)
    if (message.role === 'assistant' && message.continues) continued.add(message.continues.timestamp);
  if (continued.size === 0) return;
  for (const item of items)
    if (item.kind === 'errored-chain' && item.attempts.some((a) => a.startedAt !== null && continued.has(a.startedAt)))
      item.continued = true;
}

/**
 * A message keeps one key from its first streamed token to its stored turn (its role and start
 * time), so React updates the same row instead of mounting a new one, and its finished Markdown
 * blocks are not parsed again when it is stored.
 */
function stableKeys(items: ChatItem[]): void {
  const seen = new Map<string, number>();
  for (const item of items) {
    if (item.kind !== 'message') continue;
    const base = `message-${item.role}-${item.createdAt}`;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    item.key = n === 0 ? base : `${base}-${n}`;
  }
}

/** After a chain's card, a notice for each switch to a fallback model its decisions record. */
function withModelSwitches(items: ChatItem[]): ChatItem[] {
  return items.flatMap((item): ChatItem[] => {
    if (item.kind !== 'errored-chain') return [item];
    const switches = item.decisions.flatMap((d): ModelSwitchItem[] => {
      const to = d.context.switchedTo;
      if (!to) return [];
      return [
        {
          kind: 'model-switch',
          key: `switch-${d.id}`,
          from: { provider: d.context.provider, model: d.context.modelId },
          to: { provider: to.provider, model: to.modelId },
          category: d.category,
        },
      ];
    });
    return [item, ...switches];
  });
}

/** A divider after the turn each compaction followed (at the end when that turn is not shown). */
function placeCompactions(items: ChatItem[], turns: TurnRecord[], compactions: CompactionView[]): ChatItem[] {
  if (compactions.length === 0) return items;
  const seqOf = new Map(turns.map((t) => [t.id, t.seq]));
  const out: ChatItem[] = [];
  const left = compactions.map((compaction, i) => ({
    kind: 'compaction' as const,
    key: `compaction-${i}`,
    compaction,
  }));
  const itemSeq = (item: ChatItem): number | null =>
    item.kind === 'message'
      ? item.turnId
        ? (seqOf.get(item.turnId) ?? null)
        : null
      : item.kind === 'errored-chain'
        ? item.lastSeq
        : null;
  for (const item of items) {
    const seq = itemSeq(item);
    while (seq !== null && left.length > 0 && left[0].compaction.afterSeq < seq) out.push(left.shift()!);
    out.push(item);
  }
  return [...out, ...left];
}

function newCard(
  key: string,
  chainId: string | null,
  attempt: ErroredAttempt,
  input: ChatItemsInput,
  turnId: string | null,
): ErroredChainItem {
  const decisions = chainId
    ? input.decisions.filter((d) => d.chainId === chainId)
    : input.decisions.filter((d) => turnId !== null && d.context.turnId === turnId);
  return {
    kind: 'errored-chain',
    key,
    chainId,
    attempts: [attempt],
    chain: chainId ? (input.chains[chainId] ?? null) : null,
    decisions,
    status: 'unknown',
    retries: 0,
    prompt: null,
    lastSeq: null,
    compaction: null,
    continued: false,
  };
}

/** Fill in the status and the retry count once all of the chain's attempts are in. */
function settle(card: ErroredChainItem, compactions: CompactionView[]): void {
  card.status = chainStatus(card);
  card.discarded =
    card.chain?.outcome === INTERRUPTED_OUTCOME &&
    card.decisions.some((d) => d.finalDecision === 'abort' && d.reason === INTERRUPTED_DISCARDED_REASON);
  card.retries = Math.max(0, card.attempts.length - (card.status === 'recovered' ? 0 : 1));
  if (card.status === 'compacted' && card.lastSeq !== null) {
    const after = card.lastSeq;
    card.compaction = compactions.find((c) => c.afterSeq >= after) ?? null;
  }
}

function chainStatus(card: ErroredChainItem): ChainStatus {
  const outcome = card.chain?.outcome;
  if (outcome === 'recovered' || outcome === 'compacted') return outcome;
  if (outcome === 'pending') return 'retrying';
  if (outcome) return 'failed';
  const last = card.decisions[card.decisions.length - 1];
  if (!last) return card.chainId ? 'retrying' : 'unknown';
  if (last.finalDecision === 'success') return 'recovered';
  if (last.action === 'compact') return 'compacted';
  return last.action === 'abort' || last.finalDecision === 'abort' ? 'failed' : 'retrying';
}

function messageItem(key: string, turnId: string | null, message: ChatMessage, isStreaming: boolean): MessageItem {
  return {
    kind: 'message',
    key,
    turnId,
    role: message.role,
    // A reply's tool calls are cards of their own: its bubble holds only its words — a continued
    // reply's own after those of the reply it continues.
    text:
      message.role === 'assistant' ? (message.continues?.text ?? '') + assistantText(message) : messageText(message),
    isStreaming,
    ...(message.role === 'user' ? attachmentsOf(message) : {}),
    stopReason: message.role === 'assistant' ? message.stopReason : null,
    toolName: message.role === 'toolResult' ? message.toolName : null,
    model: message.role === 'assistant' ? message.model : null,
    createdAt: message.timestamp,
    thinking: thinkingOf(message),
  };
}

/**
 * The cards of the failed chains on versions not shown (the history lists them under the
 * transcript, so every errored exchange it counts can be seen).
 */
export function otherVersionCards(input: ChatItemsInput): ErroredChainItem[] {
  const shown = new Set(branchPath(input.turns, input.branchChoices).path.map((t) => t.seq));
  // Each off-path failure as it was stored, outside the tree: one card per chain.
  const off = input.turns.filter((t) => !shown.has(t.seq) && isErrored(t)).map((t) => ({ ...t, branchFrom: null }));
  return buildChatItems({ turns: off, chains: input.chains, decisions: input.decisions }).filter(
    (i): i is ErroredChainItem => i.kind === 'errored-chain',
  );
}

/** The card of one entry of the history's errored filter: a whole chain, as the chat shows it. */
export function erroredTurnItem(entry: ErroredTurn): ErroredChainItem {
  const { chain } = entry;
  const chains: Record<string, ChainView> = chain
    ? { [chain.id]: { outcome: chain.outcome, attempts: chain.attempts, finalError: chain.finalError } }
    : {};
  const item = buildChatItems({ turns: entry.attempts, chains, decisions: entry.decisions }).find(
    (i): i is ErroredChainItem => i.kind === 'errored-chain',
  );
  if (!item) throw new Error(`errored entry ${entry.turn.id} holds no failed attempt`);
  return item;
}

/** The latest attempt of a card (the one whose error and category the card headlines). */
export function latestAttempt(item: ErroredChainItem): ErroredAttempt {
  return item.attempts[item.attempts.length - 1];
}

/** The categories a chain met, in order, each once (a chain can change category mid-way). */
export function chainCategories(item: ErroredChainItem): ErrorCategory[] {
  const seen: ErrorCategory[] = [];
  for (const category of [...item.attempts.map((a) => a.category), ...item.decisions.map((d) => d.category)]) {
    if (category && !seen.includes(category)) seen.push(category);
  }
  return seen;
}

function attachmentsOf(message: ChatMessage): { attachments?: AttachmentBlock[] } {
  const blocks = attachmentBlocks(message);
  return blocks.length ? { attachments: blocks } : {};
}

/** Set only when the message had images (a server that refuses them gets a hint on the card). */
function imagesFlag(message: ChatMessage): { hadImages?: true } {
  return attachmentBlocks(message).some((block) => block.type === 'image') ? { hadImages: true } : {};
}

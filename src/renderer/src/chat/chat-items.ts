// Turns the session's transcript into what the chat renders: user/assistant bubbles, ONE card per
// retry chain for errored turns (grouped by chainId) instead of one bubble per failed attempt, and
// one card per tool call (tool-items.ts). Pure, so the chat view and the read-only history view
// share it and tests cover it.
import type { ErrorCategory } from '../../../shared/error-category';
import type { RetryDecisionRecord, TurnRecord } from '../../../shared/history';
import { messageText, type ChatMessage, type ChatUsage, type StopReason } from '../../../shared/messages';
import type { ChainView } from '../store/state';
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
  role: ChatMessage['role'];
  text: string;
  isStreaming: boolean;
  stopReason: StopReason | null;
  toolName: string | null;
  /** The model that answered (assistant turns), so the chat marks it. */
  model: string | null;
}

export interface ErroredAttempt {
  key: string;
  errorMessage: string;
  category: ErrorCategory | null;
  createdAt: number;
  /** What the attempt used and cost (null cost: unknown price, or not stored yet). */
  usage: ChatUsage | null;
  costUsd: number | null;
}

export interface ErroredChainItem {
  kind: 'errored-chain';
  key: string;
  chainId: string | null;
  attempts: ErroredAttempt[];
  chain: ChainView | null;
  decisions: RetryDecisionRecord[];
}

export type ChatItem = MessageItem | ErroredChainItem | ToolCallItem;
export type { ToolCallItem } from './tool-items';

export interface ChatItemsInput extends ToolContext {
  turns: TurnRecord[];
  pendingMessages?: ChatMessage[];
  streamingMessage?: ChatMessage | null;
  chains: Record<string, ChainView>;
  decisions: RetryDecisionRecord[];
}

/**
 * A message as items: a bubble, or — for a reply that called tools — its words (if any) and one
 * card per call; a tool result is shown inside its call's card, alone only when its call is missing.
 */
function messageItems(
  key: string,
  message: ChatMessage,
  results: Map<string, StoredResult>,
  calledIds: Set<string>,
  input: ChatItemsInput,
): ChatItem[] {
  if (message.role === 'toolResult') {
    const result = results.get(message.toolCallId);
    return calledIds.has(message.toolCallId) || !result ? [] : [orphanResultItem(result)];
  }
  const calls = toolCallsOf(message);
  if (calls.length === 0) return [messageItem(key, message, false)];
  for (const call of calls) calledIds.add(call.id);
  const bubble = assistantText(message) ? [messageItem(key, message, false)] : [];
  return [...bubble, ...calls.map((call) => toolCallItem(call, results.get(call.id), input))];
}

export function buildChatItems(input: ChatItemsInput): ChatItem[] {
  const items: ChatItem[] = [];
  const cardByChain = new Map<string, ErroredChainItem>();
  const results = resultsByCall(input.turns, input.pendingMessages);
  const calledIds = new Set<string>();

  for (const turn of input.turns) {
    if (
      turn.stopReason === 'error' ||
      (turn.role === 'assistant' && turn.errorMessage && turn.stopReason !== 'aborted')
    ) {
      const attempt: ErroredAttempt = {
        key: turn.id,
        errorMessage: turn.errorMessage ?? '',
        category: turn.errorCategory,
        createdAt: turn.createdAt,
        usage: turn.usage,
        costUsd: turn.costUsd ?? null,
      };
      const existing = turn.chainId ? cardByChain.get(turn.chainId) : undefined;
      if (existing) {
        existing.attempts.push(attempt);
        continue;
      }
      const card = newCard(`chain-${turn.chainId ?? turn.id}`, turn.chainId, attempt, input, turn.id);
      if (turn.chainId) cardByChain.set(turn.chainId, card);
      items.push(card);
      continue;
    }
    items.push(...messageItems(turn.id, turn.message, results, calledIds, input));
  }

  (input.pendingMessages ?? []).forEach((message, i) => {
    const key = `pending-${message.role}-${message.timestamp}-${i}`;
    if (message.role === 'assistant' && message.stopReason === 'error') {
      const attempt: ErroredAttempt = {
        key,
        errorMessage: message.errorMessage ?? '',
        category: null,
        createdAt: message.timestamp,
        usage: message.usage,
        costUsd: null,
      };
      // During a chain the failed attempts are consecutive: join the card just above, so the
      // attempt does not flash as a separate card before its turn_persisted arrives.
      const last = items[items.length - 1];
      if (last?.kind === 'errored-chain') last.attempts.push(attempt);
      else items.push(newCard(key, null, attempt, input, null));
      return;
    }
    items.push(...messageItems(key, message, results, calledIds, input));
  });

  if (input.streamingMessage) items.push(messageItem('streaming', input.streamingMessage, true));
  return items;
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
  };
}

function messageItem(key: string, message: ChatMessage, isStreaming: boolean): MessageItem {
  return {
    kind: 'message',
    key,
    role: message.role,
    // A reply's tool calls are cards of their own: its bubble holds only its words.
    text: message.role === 'assistant' ? assistantText(message) : messageText(message),
    isStreaming,
    stopReason: message.role === 'assistant' ? message.stopReason : null,
    toolName: message.role === 'toolResult' ? message.toolName : null,
    model: message.role === 'assistant' ? message.model : null,
  };
}

/** The latest attempt of a card (the one whose error and category the card headlines). */
export function latestAttempt(item: ErroredChainItem): ErroredAttempt {
  return item.attempts[item.attempts.length - 1];
}

export type ChainVerdict =
  | { kind: 'outcome'; outcome: ChainView['outcome']; attempts: number; finalError: string | null }
  | { kind: 'decision'; decision: RetryDecisionRecord }
  | { kind: 'unknown' };

/** What the app decided for a card: the chain's outcome if known, else the last decision record. */
export function chainVerdict(item: ErroredChainItem): ChainVerdict {
  if (item.chain)
    return {
      kind: 'outcome',
      outcome: item.chain.outcome,
      attempts: item.chain.attempts,
      finalError: item.chain.finalError,
    };
  const last = item.decisions[item.decisions.length - 1];
  return last ? { kind: 'decision', decision: last } : { kind: 'unknown' };
}

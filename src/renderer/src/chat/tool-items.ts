// Tool calls as the chat and the history show them (docs/tools.md, "In the chat"): one card per
// call, made from the assistant message that called it, its stored result (or, while it runs, its
// live events) and any approval it waits for. Pure; buildChatItems (chat-items.ts) places the cards.
import type { ErrorCategory } from '../../../shared/error-category';
import type { TurnRecord } from '../../../shared/history';
import type { ChatMessage, ImageBlock, ToolCallBlock, ToolResultChatMessage } from '../../../shared/messages';
import { contentText } from '../../../shared/text';
import { DENIED_RESULT, toolDetailsOf, type ApprovalRequest, type ToolResultDetails } from '../../../shared/tools';
import type { LiveToolRun } from '../store/state';

export interface ToolCallItem {
  kind: 'tool-call';
  key: string;
  toolCallId: string;
  toolName: string;
  args: Record<string, unknown>;
  /**
   * waiting: for the person's approval; running: its events say so; done / error / denied: its
   * result; interrupted: a quit or a crash cut it off, and it was not run again.
   */
  status: 'waiting' | 'running' | 'done' | 'error' | 'denied' | 'interrupted';
  output: string;
  /** Images the tool returned (an MCP server's), shown under its output. */
  images: ImageBlock[];
  details: ToolResultDetails;
  /** The failure that ended the turn, when this call was it. */
  errorCategory: ErrorCategory | null;
}

/** What the cards need besides the transcript: live runs and waiting approvals. */
export interface ToolContext {
  toolRuns?: Record<string, LiveToolRun>;
  pendingApprovals?: ApprovalRequest[];
}

/** A stored (or pending) tool result, with the category of the failure it ended its turn with. */
export interface StoredResult {
  message: ToolResultChatMessage;
  errorCategory: ErrorCategory | null;
}

export function toolCallsOf(message: ChatMessage): ToolCallBlock[] {
  if (message.role !== 'assistant') return [];
  return message.content.filter((block): block is ToolCallBlock => block.type === 'toolCall');
}

/** An assistant message's own words, without its tool calls (the cards show those). */
export function assistantText(message: ChatMessage): string {
  if (message.role !== 'assistant') return '';
  return message.content
    .map((block) => (block.type === 'text' ? block.text : ''))
    .filter(Boolean)
    .join('\n');
}

function resultOutput(message: ToolResultChatMessage): string {
  return contentText(message.content);
}

/** Results by the call they answer: stored turns first, then results not stored yet. */
export function resultsByCall(turns: TurnRecord[], pending: ChatMessage[] = []): Map<string, StoredResult> {
  const results = new Map<string, StoredResult>();
  for (const turn of turns) {
    if (turn.message.role === 'toolResult')
      results.set(turn.message.toolCallId, { message: turn.message, errorCategory: turn.errorCategory });
  }
  for (const message of pending) {
    if (message.role === 'toolResult' && !results.has(message.toolCallId))
      results.set(message.toolCallId, { message, errorCategory: null });
  }
  return results;
}

export function toolCallItem(
  call: ToolCallBlock,
  result: StoredResult | undefined,
  context: ToolContext,
): ToolCallItem {
  const base = { kind: 'tool-call' as const, key: `tool-${call.id}`, toolCallId: call.id, toolName: call.name };
  const args = typeof call.arguments === 'object' && call.arguments !== null ? call.arguments : {};
  if (result) {
    const output = resultOutput(result.message);
    const details = toolDetailsOf(result.message.details);
    return {
      ...base,
      args,
      status: resultStatus(output, result.message.isError, details),
      output,
      images: result.message.content.filter((block): block is ImageBlock => block.type === 'image'),
      details,
      errorCategory: result.errorCategory,
    };
  }
  const live = context.toolRuns?.[call.id];
  const waiting = context.pendingApprovals?.some((request) => request.toolCallId === call.id) ?? false;
  return {
    ...base,
    args,
    status: waiting ? 'waiting' : (live?.status ?? 'running'),
    output: live?.output ?? '',
    images: [],
    details: live?.details ?? {},
    errorCategory: null,
  };
}

function resultStatus(output: string, isError: boolean, details: ToolResultDetails): ToolCallItem['status'] {
  if (details.interrupted) return 'interrupted';
  if (output === DENIED_RESULT) return 'denied';
  return isError ? 'error' : 'done';
}

/** A result whose call is not in the transcript (a history cut short): a card of its own. */
export function orphanResultItem(result: StoredResult): ToolCallItem {
  const { message } = result;
  return toolCallItem({ type: 'toolCall', id: message.toolCallId, name: message.toolName, arguments: {} }, result, {});
}

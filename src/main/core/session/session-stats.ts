// Counts over a session's runtime context: messages by role, tool calls, tokens and cost, as
// AgentSession.stats() reports them (the RPC mode's get_session_stats answers with this). Pure.
import type { ChatMessage } from '../../../shared/messages';

export interface SessionStats {
  sessionId: string;
  userMessages: number;
  assistantMessages: number;
  toolCalls: number;
  toolResults: number;
  totalMessages: number;
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
  /** The sum of usage.cost.total as pi-ai reports it; 0 when the provider gives no cost. */
  cost: number;
}

export function sessionStats(sessionId: string, messages: readonly ChatMessage[]): SessionStats {
  const tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
  let cost = 0;
  let toolCalls = 0;
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    toolCalls += message.content.filter((block) => block.type === 'toolCall').length;
    tokens.input += message.usage.input;
    tokens.output += message.usage.output;
    tokens.cacheRead += message.usage.cacheRead;
    tokens.cacheWrite += message.usage.cacheWrite;
    tokens.total += message.usage.totalTokens;
    cost += message.usage.cost?.total ?? 0;
  }
  const count = (role: ChatMessage['role']) => messages.filter((m) => m.role === role).length;
  return {
    sessionId,
    userMessages: count('user'),
    assistantMessages: count('assistant'),
    toolCalls,
    toolResults: count('toolResult'),
    totalMessages: messages.length,
    tokens,
    cost,
  };
}

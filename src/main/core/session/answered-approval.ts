// An approval asked before a restart and answered after it (docs/tools.md, "Approvals"): the run
// stopped at the question, so the call is run here as the agent's loop would have — its card
// events, its stored result (the denial when denied) — and the agent goes on from the result.
// AgentSession calls it, as a run of the person's, when a restored approval card is answered; a new
// prompt instead of an answer denies the card first (runAnsweredCall), so every call has a result.
import type { AgentEvent, AgentMessage } from '@mariozechner/pi-agent-core';
import type { ToolResultChatMessage } from '../../../shared/messages';
import type { ApprovalChoice, ApprovalRequest } from '../../../shared/tools';
import type { AgentPort } from '../ports';
import type { ToolCoordinator } from '../tools/tool-coordinator';
import type { TurnEvents } from './turn-events';

export interface AnsweredApprovalParts {
  agent: AgentPort;
  tools: ToolCoordinator;
  turnEvents: TurnEvents;
  now: () => number;
}

/**
 * Whether `request` is the question the conversation stopped at: a call of its newest reply with
 * no result yet. Calls before it in that reply may have run (one at a time): only their results may
 * follow the reply.
 */
export function stoppedAt(messages: readonly AgentMessage[], request: ApprovalRequest): boolean {
  const at = messages.findLastIndex((m) => m.role === 'assistant');
  const reply = messages[at] as { content?: unknown } | undefined;
  if (!reply || !Array.isArray(reply.content)) return false;
  const calls = reply.content as { type?: string; id?: string }[];
  if (!calls.some((block) => block.type === 'toolCall' && block.id === request.toolCallId)) return false;
  return messages
    .slice(at + 1)
    .every((m) => m.role === 'toolResult' && (m as { toolCallId?: string }).toolCallId !== request.toolCallId);
}

/** Run the answered call (a denied one is given the denial), then the agent goes on from its result. */
export async function goOnAfterApproval(
  parts: AnsweredApprovalParts,
  request: ApprovalRequest,
  choice: ApprovalChoice,
  signal: AbortSignal,
): Promise<void> {
  parts.tools.startRun();
  await runAnsweredCall(parts, request, choice, signal);
  if (!signal.aborted) await parts.agent.continue();
}

/** The call's card events and its stored result, added to the conversation; the agent is not asked. */
export async function runAnsweredCall(
  parts: AnsweredApprovalParts,
  request: ApprovalRequest,
  choice: ApprovalChoice,
  signal: AbortSignal,
): Promise<void> {
  const { agent, tools, turnEvents } = parts;
  const handle = (event: object) => turnEvents.handle(event as AgentEvent);
  const call = { id: request.toolCallId, name: request.toolName, args: request.args, requestedAt: request.requestedAt };
  const base = { toolCallId: call.id, toolName: call.name };
  handle({ type: 'tool_execution_start', ...base, args: call.args });
  const { result, isError } = await tools.runAnswered(call, choice, signal, (partialResult) =>
    handle({ type: 'tool_execution_update', ...base, args: call.args, partialResult }),
  );
  handle({ type: 'tool_execution_end', ...base, result, isError });
  const message: ToolResultChatMessage = {
    role: 'toolResult',
    ...base,
    content: result.content,
    details: result.details,
    isError,
    timestamp: parts.now(),
  };
  handle({ type: 'message_start', message });
  handle({ type: 'message_end', message });
  agent.state.messages = [...agent.state.messages, message as AgentMessage];
}

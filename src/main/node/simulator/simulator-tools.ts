// The simulator's tool calls (README, "Scripting the simulator"): a `tool:NAME:ARGS` step streams
// an OpenAI tool call — the name, then the arguments in two pieces, then finish_reason
// "tool_calls" — and the next reply, once the tool's result is the newest message, says what the
// tool returned, so a test can see that the model received it. Pure; used by SimulatorServer.
import {
  completion,
  completionChunk,
  messageText,
  type ChunkContext,
  type Usage,
  type WireMessage,
} from './simulator-replies';

const QUOTE_CHARS = 120;

/** The text of the last message when it is a tool result, else null. */
export function lastToolResult(messages: readonly WireMessage[]): string | null {
  const last = messages[messages.length - 1];
  return last?.role === 'tool' ? messageText(last.content) : null;
}

/** The reply after a tool result: it quotes what the tool returned. */
export function toolResultReply(messages: readonly WireMessage[]): string | null {
  const result = lastToolResult(messages);
  if (result === null) return null;
  const quoted = result.replace(/\s+/g, ' ').trim().slice(0, QUOTE_CHARS);
  return `Simulated reply: the tool returned "${quoted}". This answer comes from Resolute's built-in simulator.`;
}

/** The stream chunks of one tool call, after the role chunk; `callId` must be unique per call. */
export function toolCallChunks(context: ChunkContext, callId: string, name: string, args: string): object[] {
  const half = Math.ceil(args.length / 2);
  const pieces = args.length > 1 ? [args.slice(0, half), args.slice(half)] : [args];
  return [
    completionChunk(context, {
      tool_calls: [{ index: 0, id: callId, type: 'function', function: { name, arguments: '' } }],
    }),
    ...pieces.map((piece) => completionChunk(context, { tool_calls: [{ index: 0, function: { arguments: piece } }] })),
    completionChunk(context, {}, 'tool_calls'),
  ];
}

/** The same tool call as a non-streaming completion. */
export function toolCallCompletion(
  context: ChunkContext,
  callId: string,
  name: string,
  args: string,
  usage: Usage,
): object {
  const message = {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: callId, type: 'function', function: { name, arguments: args } }],
  };
  return {
    ...completion(context, '', usage),
    choices: [{ index: 0, message, logprobs: null, finish_reason: 'tool_calls' }],
  };
}

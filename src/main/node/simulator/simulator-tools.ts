// The simulator's tool calls (README, "Scripting the simulator"): a `tool:NAME:ARGS` step makes
// the model call a tool (each wire format renders the call, wire.ts `toolCall`), and the next
// reply, once the tool's result is the newest message, says what the tool returned, so a test can
// see that the model received it. Pure; used by SimulatorServer and exchange.ts.
import { contentText } from '../../../shared/text';
import type { WireMessage } from './simulator-replies';

const QUOTE_CHARS = 120;

/** The text of the last message when it is a tool result, else null. */
export function lastToolResult(messages: readonly WireMessage[]): string | null {
  const last = messages[messages.length - 1];
  return last?.role === 'tool' ? contentText(last.content) : null;
}

/** The reply after a tool result: it quotes what the tool returned. */
export function toolResultReply(messages: readonly WireMessage[]): string | null {
  const result = lastToolResult(messages);
  if (result === null) return null;
  const quoted = result.replace(/\s+/g, ' ').trim().slice(0, QUOTE_CHARS);
  return `Simulated reply: the tool returned "${quoted}". This answer comes from Resolute's built-in simulator.`;
}

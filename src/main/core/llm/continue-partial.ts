// Continue a reply that an error cut off (docs/retry-policy.md, "Nothing streamed is lost"): the
// words it had streamed go back to the model as its own message, and it is asked to go on from
// there. On Anthropic's Messages API the cut-off reply is a prefill — the request ends with it, so
// the model writes the next words itself; elsewhere an instruction follows it. The reply that
// comes back carries `continues` (what it continues), so the history links the two and the chat
// shows them as one. AgentSession builds the context; the stream wrapper is installed by the
// composition root around the guarded stream.
import type { AssistantMessage, AssistantMessageEvent, Context } from '@mariozechner/pi-ai';
import type { StreamFn } from '@mariozechner/pi-agent-core';
import type { AssistantChatMessage, ChatMessage, UserChatMessage } from '../../../shared/messages';
import { piRuntime } from './pi-runtime';

/** What the model is told after its cut-off reply (not on Anthropic, where the reply is a prefill). */
export const CONTINUE_INSTRUCTION =
  'Your previous reply was cut off by a connection error. Continue it exactly where it stopped, ' +
  'without repeating what you already wrote and without any preamble.';

/** The words a reply streamed (its text blocks), '' when it streamed none. */
export function streamedText(message: AssistantChatMessage): string {
  return message.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('');
}

/** The instruction message, marked so that the stream wrapper knows it (it is never stored). */
function instruction(now: number): UserChatMessage {
  return {
    role: 'user',
    content: [{ type: 'text', text: CONTINUE_INSTRUCTION }],
    timestamp: now,
    isContinuation: true,
  };
}

/**
 * The runtime context that continues the failed reply at the end of `messages`, or null when that
 * reply streamed no words (then Continue asks again from the person's message). The cut-off reply
 * goes back as a finished one: its words only — begun tool calls and thinking are left out, as
 * their arguments and signatures are incomplete — without the whitespace at its end, which
 * Anthropic refuses at the end of a prefill.
 */
export function contextToContinuePartial(messages: readonly ChatMessage[], now: number): ChatMessage[] | null {
  const last = messages[messages.length - 1];
  if (last?.role !== 'assistant' || (last.stopReason !== 'error' && last.stopReason !== 'aborted')) return null;
  const text = streamedText(last).trimEnd();
  if (!text) return null;
  const { errorMessage: _dropped, ...finished } = last;
  void _dropped;
  const partial: AssistantChatMessage = { ...finished, content: [{ type: 'text', text }], stopReason: 'stop' };
  return [...messages.slice(0, -1), partial, instruction(now)];
}

/**
 * The runtime context for Continue after a stopped turn that streamed no words (docs/tools.md,
 * "Continue"): without the failed or stopped reply at its end. Throws when there is nothing to continue.
 */
export function contextToContinue(messages: readonly ChatMessage[]): ChatMessage[] {
  const last = messages[messages.length - 1];
  if (!last) throw new Error('Nothing to continue: the conversation is empty.');
  if (last.role !== 'assistant') return [...messages];
  if (last.stopReason !== 'error' && last.stopReason !== 'aborted')
    throw new Error('The last turn ended normally; send a message instead.');
  return messages.slice(0, -1);
}

const isInstruction = (message: Context['messages'][number] | undefined): boolean =>
  message?.role === 'user' && (message as { isContinuation?: boolean }).isContinuation === true;

/**
 * Wrap a stream function: a request whose context ends with the continue instruction goes out as
 * a prefill on Anthropic (the instruction dropped), as it is elsewhere, and every message of its
 * reply is marked with what it continues.
 */
export function continuingStream(base: StreamFn): StreamFn {
  return async (model, context, options) => {
    const messages = context.messages;
    if (!isInstruction(messages[messages.length - 1])) return base(model, context, options);
    const partial = messages[messages.length - 2] as AssistantMessage;
    const sent = model.api === 'anthropic-messages' ? { ...context, messages: messages.slice(0, -1) } : context;
    const continues = { timestamp: partial.timestamp, text: streamedText(partial as AssistantChatMessage) };
    const mark = (message: AssistantMessage): AssistantMessage => Object.assign(message, { continues });
    const inner = await base(model, sent, options);
    const output = piRuntime().piAi.createAssistantMessageEventStream();
    void (async () => {
      for await (const event of inner) output.push(marked(event, mark));
      output.end(mark(await inner.result()));
    })();
    return output;
  };
}

function marked(event: AssistantMessageEvent, mark: (message: AssistantMessage) => AssistantMessage) {
  if (event.type === 'done') return { ...event, message: mark(event.message) };
  if (event.type === 'error') return { ...event, error: mark(event.error) };
  return { ...event, partial: mark(event.partial) };
}

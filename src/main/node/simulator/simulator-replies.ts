// What the simulator says: reading an OpenAI chat/completions request body, the deterministic
// reply text (or a "Summary:" line when asked to summarise), and the JSON shapes of the
// chat.completion.chunk stream and the non-streaming completion. Pure; used by SimulatorServer.
import { SIMULATOR_MODEL_ID } from '../../../shared/settings';

/** Chunks a `slow` reply is streamed in: long enough to press Stop in the middle of it. */
export const SLOW_CHUNK_COUNT = 200;
const WORDS_PER_CHUNK = 3;
const QUOTE_CHARS = 80;
const SUMMARY_QUOTE_CHARS = 60;

export interface WireMessage {
  role: string;
  content: unknown;
}

export interface CompletionRequest {
  model: string | null;
  /** OpenAI streams only when asked; pi-ai always asks. */
  isStream: boolean;
  includeUsage: boolean;
  messages: WireMessage[];
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Validates the parts of the body the simulator reads; anything else in it is ignored. */
export function parseCompletionRequest(
  body: unknown,
): { ok: true; value: CompletionRequest } | { ok: false; error: string } {
  if (!isRecord(body)) return { ok: false, error: 'The request body must be a JSON object.' };
  const { messages, model, stream, stream_options: streamOptions } = body;
  if (!Array.isArray(messages) || !messages.every((m) => isRecord(m) && typeof m.role === 'string')) {
    return { ok: false, error: "'messages' must be an array of objects with a 'role'." };
  }
  return {
    ok: true,
    value: {
      model: typeof model === 'string' ? model : null,
      isStream: stream === true,
      includeUsage: isRecord(streamOptions) && streamOptions.include_usage === true,
      messages: messages as WireMessage[],
    },
  };
}

/** The text of a message's content: a string, or the text parts of a content array. */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part): part is { text: string } => isRecord(part) && part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n');
}

export function lastUserText(messages: readonly WireMessage[]): string {
  const last = messages.findLast((message) => message.role === 'user');
  return last ? messageText(last.content) : '';
}

const systemText = (messages: readonly WireMessage[]): string =>
  messages
    .filter((message) => message.role === 'system' || message.role === 'developer')
    .map((message) => messageText(message.content))
    .join('\n');

const quote = (text: string, maxChars: number): string => text.replace(/\s+/g, ' ').trim().slice(0, maxChars);

export function replyText(messages: readonly WireMessage[]): string {
  const userText = lastUserText(messages);
  if (/summar/i.test(systemText(messages)) || /summar/i.test(userText)) {
    return `Summary: ${messages.length} messages so far; the latest request began "${quote(userText, SUMMARY_QUOTE_CHARS)}".`;
  }
  return (
    `Simulated reply: I received "${quote(userText, QUOTE_CHARS)}". ` +
    "This answer comes from Resolute's built-in simulator. " +
    'Its replies are deterministic, so the same prompt always gets the same answer.'
  );
}

/** Splits a reply into content deltas of a few words each; joined, they give the text back. */
export function contentPieces(text: string): string[] {
  const words = text.match(/\S+\s*/g) ?? [];
  const pieces: string[] = [];
  for (let i = 0; i < words.length; i += WORDS_PER_CHUNK) {
    pieces.push(words.slice(i, i + WORDS_PER_CHUNK).join(''));
  }
  return pieces;
}

/** The pieces of a `slow` reply: the normal reply, then filler up to SLOW_CHUNK_COUNT pieces. */
export function slowPieces(text: string): string[] {
  const pieces = contentPieces(`${text} `);
  for (let n = pieces.length + 1; pieces.length < SLOW_CHUNK_COUNT; n += 1) {
    pieces.push(`(slow chunk ${n}) `);
  }
  return pieces.slice(0, SLOW_CHUNK_COUNT);
}

const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

export function usageFor(request: CompletionRequest, reply: string): Usage {
  const promptChars = request.messages.map((message) => messageText(message.content)).join('\n');
  const promptTokens = estimateTokens(promptChars);
  const completionTokens = estimateTokens(reply);
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}

export interface ChunkContext {
  id: string;
  model: string;
  /** Epoch seconds, as OpenAI sends it. */
  created: number;
}

type Delta =
  { role: 'assistant'; content: string } | { content: string } | { tool_calls: object[] } | Record<string, never>;

export function completionChunk(
  context: ChunkContext,
  delta: Delta,
  finishReason: 'stop' | 'tool_calls' | null = null,
): object {
  return {
    id: context.id,
    object: 'chat.completion.chunk',
    created: context.created,
    model: context.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
}

/** The last event when `stream_options.include_usage` is set: no choices, only usage. */
export function usageChunk(context: ChunkContext, usage: Usage): object {
  return {
    id: context.id,
    object: 'chat.completion.chunk',
    created: context.created,
    model: context.model,
    choices: [],
    usage,
  };
}

export function completion(context: ChunkContext, reply: string, usage: Usage): object {
  return {
    id: context.id,
    object: 'chat.completion',
    created: context.created,
    model: context.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: reply, refusal: null },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage,
  };
}

export function modelList(): object {
  return {
    object: 'list',
    data: [{ id: SIMULATOR_MODEL_ID, object: 'model', created: 0, owned_by: 'resolute-simulator' }],
  };
}

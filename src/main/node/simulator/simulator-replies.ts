// What the simulator says, whichever API was called: the deterministic reply text (a "Summary:"
// line when asked to summarise, a Markdown demo when asked for one — simulator-markdown.ts), how
// it is cut into stream pieces, and the token counts. Pure; used by SimulatorServer and the wire
// formats (wire-*.ts).
import { contentText } from '../../../shared/text';
import { markdownReplyFor } from './simulator-markdown';

/** Chunks a `slow` reply is streamed in: long enough to press Stop in the middle of it. */
export const SLOW_CHUNK_COUNT = 200;
const WORDS_PER_CHUNK = 3;
const QUOTE_CHARS = 80;
const SUMMARY_QUOTE_CHARS = 60;

export interface WireMessage {
  role: string;
  content: unknown;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function lastUserText(messages: readonly WireMessage[]): string {
  const last = messages.findLast((message) => message.role === 'user');
  return last ? contentText(last.content) : '';
}

const systemText = (messages: readonly WireMessage[]): string =>
  messages
    .filter((message) => message.role === 'system' || message.role === 'developer')
    .map((message) => contentText(message.content))
    .join('\n');

const quote = (text: string, maxChars: number): string => text.replace(/\s+/g, ' ').trim().slice(0, maxChars);

const isModelTurn = (message: WireMessage | undefined): boolean =>
  message?.role === 'assistant' || message?.role === 'model';

/**
 * A request that continues a cut-off reply: it ends with that reply (a prefill) or with the
 * instruction after it. The simulator then sends the rest of the reply it would have given.
 */
function continuation(messages: readonly WireMessage[]): { asked: WireMessage[]; given: string } | null {
  const last = messages[messages.length - 1];
  if (isModelTurn(last)) return { asked: messages.slice(0, -1), given: contentText(last.content) };
  const before = messages[messages.length - 2];
  if (
    last?.role === 'user' &&
    /^Your previous reply was cut off/.test(contentText(last.content)) &&
    isModelTurn(before)
  )
    return { asked: messages.slice(0, -2), given: contentText(before.content) };
  return null;
}

export function replyText(messages: readonly WireMessage[]): string {
  const cut = continuation(messages);
  if (cut) {
    const whole = replyText(cut.asked);
    return whole.startsWith(cut.given) ? whole.slice(cut.given.length) : whole;
  }
  const userText = lastUserText(messages);
  if (/summar/i.test(systemText(messages)) || /summar/i.test(userText)) {
    return `Summary: ${messages.length} messages so far; the latest request began "${quote(userText, SUMMARY_QUOTE_CHARS)}".`;
  }
  const markdown = markdownReplyFor(userText);
  if (markdown) return markdown;
  return (
    `Simulated reply: I received "${quote(userText, QUOTE_CHARS)}". ` +
    "This answer comes from Resolute's built-in simulator. " +
    'Its replies are deterministic, so the same prompt always gets the same answer.'
  );
}

/**
 * What the simulator thinks before it answers a prompt that mentions thinking ("think", "thought"),
 * so a new user sees a thinking block (docs/thinking-and-context.md); `effort` is the level the
 * request asked for, if any. Null for any other prompt, a summary or a continuation.
 */
export function thinkingText(messages: readonly WireMessage[], effort: string | null): string | null {
  if (continuation(messages)) return null;
  const userText = lastUserText(messages);
  if (!/\bthink|\bthought/i.test(userText) || /summar/i.test(systemText(messages))) return null;
  const level = effort ? ` at the "${effort}" effort asked for` : '';
  return (
    `The person asked: "${quote(userText, QUOTE_CHARS)}". ` +
    `I am thinking it over${level}: first what is asked, then what a short, clear answer needs. ` +
    'This thinking comes from the simulator too, so it is the same every time.'
  );
}

/** Splits a reply into content deltas of a few words each; joined, they give the text back. */
export function contentPieces(text: string): string[] {
  // A leading space stays (a continuation starts with one): the pieces always join to the text.
  const words = text.match(/\s*\S+\s*/g) ?? [];
  const pieces: string[] = [];
  for (let i = 0; i < words.length; i += WORDS_PER_CHUNK) {
    pieces.push(words.slice(i, i + WORDS_PER_CHUNK).join(''));
  }
  return pieces;
}

/** A `tokens` reply: TOKEN_REPLY_COUNT tokens ("t1 ", "t2 ", …), streamed one per event at TOKENS_PER_SECOND. */
export const TOKEN_REPLY_COUNT = 2000;
export const TOKENS_PER_SECOND = 2000;
export function tokenPieces(): string[] {
  return Array.from({ length: TOKEN_REPLY_COUNT }, (_, i) => (i + 1 < TOKEN_REPLY_COUNT ? `t${i + 1} ` : `t${i + 1}`));
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

export function usageFor(messages: readonly WireMessage[], reply: string): Usage {
  const promptChars = messages.map((message) => contentText(message.content)).join('\n');
  const promptTokens = estimateTokens(promptChars);
  const completionTokens = estimateTokens(reply);
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}

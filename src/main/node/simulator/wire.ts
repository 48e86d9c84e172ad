// What every wire format of the simulator provides (OpenAI Chat Completions and Responses,
// Anthropic Messages, Gemini): reading a request, the frames of a streamed reply, a complete
// answer, and each generic fault step in that provider's own words. SimulatorServer picks the
// format by the route a request came to; the formats live in wire-openai.ts, wire-anthropic.ts
// and wire-gemini.ts.
import type { FaultStep, GenericFault } from './fault-script';
import type { Usage, WireMessage } from './simulator-replies';

export { isRecord } from './simulator-replies';
export { contentText } from '../../../shared/text';

export type WireName = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini';

export interface WireRequest {
  model: string | null;
  /** The client asked for a stream (pi-ai always does). */
  isStream: boolean;
  /** Chat Completions' `stream_options.include_usage`. */
  includeUsage: boolean;
  /** Every message as plain text, the system prompt first with role "system". */
  messages: WireMessage[];
}

/** An error answered instead of a reply: a JSON body, a raw text body, or none. */
export interface ErrorReply {
  status: number;
  headers?: Record<string, string>;
  /** A JSON value; a string is sent as it is with `contentType`; null sends no body. */
  body: unknown;
  contentType?: string;
}

/** The ids and counts a reply's frames carry. */
export interface ReplyContext {
  id: string;
  model: string;
  /** Epoch seconds. */
  created: number;
  usage: Usage;
  includeUsage: boolean;
  /**
   * The streamed reply thinks before its words (set before its first frame): where an API numbers
   * its blocks or output items (Anthropic, Responses) the thinking is the first and the words next.
   */
  thinks?: boolean;
}

/** The generic faults each provider answers with a status of its own instead of a reply. */
export type StatusFault = Exclude<
  GenericFault,
  | 'ok'
  | 'ok_limited'
  | 'slow'
  | 'tokens'
  | 'prefill'
  | 'keepalive'
  | 'progress'
  | 'reset'
  | 'drop'
  | 'stall'
  | 'malformed'
  | 'stream_error'
  | 'proxy_502'
  | 'proxy_503'
>;

/** Every generic status fault in one provider's words. */
export type StatusTable = Record<StatusFault, (step: FaultStep, context: ReplyContext) => ErrorReply>;

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

export interface WireFormat {
  readonly name: WireName;
  parse(body: unknown, modelFromPath: string | null): ParseResult<WireRequest>;
  /** Frames a streamed reply opens with (before any text). */
  open(context: ReplyContext): string[];
  /** The frame of one piece of text. */
  delta(context: ReplyContext, piece: string): string;
  /** The frame of one piece of thinking, streamed before the text; absent where the simulator does not think. */
  thinkingDelta?(context: ReplyContext, piece: string): string;
  /** Frames between the whole thinking (`thinking`) and the first words: its end, the text's start. */
  thinkingEnd?(context: ReplyContext, thinking: string): string[];
  /**
   * A frame saying how far the server is with the prompt, as llama.cpp sends it with `return_progress`;
   * absent where no such server speaks this API (the `progress` step sends keep-alive comments there).
   */
  promptProgress?(context: ReplyContext, processed: number, total: number): string;
  /** Frames that end a streamed reply whose whole text was `text`. */
  close(context: ReplyContext, text: string): string[];
  /** The JSON of a complete answer, for `stream: false`. */
  completion(context: ReplyContext, text: string): unknown;
  /** The generic status faults as this provider answers them. */
  readonly errors: StatusTable;
  /** The error event this provider sends in the middle of a stream. */
  streamError(context: ReplyContext): string;
  /** A frame whose data is not JSON. */
  malformed(): string;
  /**
   * A `tool:NAME:ARGS` step: the model calls one tool. Absent where the simulator does not script
   * tool calls for this API (the step is then answered with a 400 that says so).
   */
  toolCall?(context: ReplyContext, call: ScriptedToolCall): { frames: string[]; completion: unknown };
}

/** A tool call a script step makes the model send; `arguments` go out exactly as written. */
export interface ScriptedToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** A line that is not JSON, for `malformed`; JSON.parse fails on its first character. */
export const MALFORMED_LINE = '<malformed chunk>';

/** `data: …` (Chat Completions, Gemini). */
export const dataFrame = (data: unknown, end = '\n\n'): string =>
  `data: ${typeof data === 'string' ? data : JSON.stringify(data)}${end}`;

/** `event: …` + `data: …` (Anthropic, OpenAI Responses). */
export const eventFrame = (event: string, data: unknown): string =>
  `event: ${event}\ndata: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

/** `retry-after: <seconds>` for steps that carry a hint. */
export const retryAfterHeader = (step: FaultStep): Record<string, string> =>
  step.retryAfterSeconds === null ? {} : { 'retry-after': String(step.retryAfterSeconds) };

/** A proxy's HTML page (nginx), for the statuses a gateway answers on its own. */
export function htmlPage(status: number, title: string): ErrorReply {
  const body = `<html>\r\n<head><title>${status} ${title}</title></head>\r\n<body>\r\n<center><h1>${status} ${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
  return { status, body, contentType: 'text/html' };
}

/**
 * `ok_limited`: a normal reply whose rate-limit headers say no request is left until the reset in
 * the step's seconds — Anthropic's names (an RFC 3339 reset time) on its route, OpenAI's (a
 * duration) elsewhere; Gemini sends none of its own, so the simulator uses OpenAI's there.
 */
export function usedUpLimitHeaders(wire: WireName, step: FaultStep, now: number): Record<string, string> {
  const seconds = step.retryAfterSeconds ?? 0;
  if (wire === 'anthropic') {
    return {
      'anthropic-ratelimit-requests-limit': '50',
      'anthropic-ratelimit-requests-remaining': '0',
      'anthropic-ratelimit-requests-reset': new Date(now + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    };
  }
  return {
    'x-ratelimit-limit-requests': '60',
    'x-ratelimit-remaining-requests': '0',
    'x-ratelimit-reset-requests': `${seconds}s`,
  };
}

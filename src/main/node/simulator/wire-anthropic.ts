// The simulator's Anthropic Messages wire format: POST /v1/messages with `event:` SSE frames
// (message_start … message_stop), errors as {"type":"error","error":{type,message}} with the
// statuses of https://docs.claude.com/en/api/errors, and the `event: error` frame Anthropic
// sends when a stream fails after it has begun (overloaded_error in the middle of a reply).
import { wireImages } from './simulator-attachments';
import {
  MALFORMED_LINE,
  eventFrame,
  isRecord,
  contentText,
  retryAfterHeader,
  type ReplyContext,
  type StatusTable,
  type WireFormat,
} from './wire';

export const anthropicError = (type: string, message: string, extra: object = {}): object => ({
  type: 'error',
  error: { type, message, ...extra },
  request_id: 'req_sim',
});

const SPEND_LIMIT_TEXT = "This request would exceed your account's monthly spend limit. Please try again later.";

/** Anthropic's answers to the generic status faults. */
const ANTHROPIC_STATUS: StatusTable = {
  '429': (step) => ({
    status: 429,
    headers: { ...retryAfterHeader(step), 'anthropic-ratelimit-requests-remaining': '0' },
    body: anthropicError('rate_limit_error', 'Number of requests has exceeded your per-minute rate limit.'),
  }),
  '500': () => ({ status: 500, body: anthropicError('api_error', 'Internal server error') }),
  '502': () => ({ status: 502, body: anthropicError('api_error', 'Internal server error') }),
  '503': () => ({ status: 503, body: anthropicError('api_error', 'Internal server error') }),
  '504': () => ({ status: 504, body: null }),
  overloaded: () => ({ status: 529, body: anthropicError('overloaded_error', 'Overloaded') }),
  usage_limit: (step) => ({
    status: 429,
    headers: retryAfterHeader(step),
    body: anthropicError('rate_limit_error', SPEND_LIMIT_TEXT, {
      details: { error_code: 'enforced_spend_limit_reached' },
    }),
  }),
  overflow: () => ({
    status: 400,
    body: anthropicError('invalid_request_error', 'prompt is too long: 213462 tokens > 200000 maximum'),
  }),
  auth: () => ({ status: 401, body: anthropicError('authentication_error', 'invalid x-api-key') }),
  bad_request: () => ({
    status: 400,
    body: anthropicError('invalid_request_error', 'messages: the simulator rejected this request as scripted.'),
  }),
  permission: () => ({
    status: 403,
    body: anthropicError('permission_error', 'Your API key does not have permission to use the specified resource.'),
  }),
  not_found: () => ({ status: 404, body: anthropicError('not_found_error', 'model: not found') }),
  too_large: () => ({
    status: 413,
    body: anthropicError('request_too_large', 'Request exceeds the maximum allowed number of bytes.'),
  }),
};

/** Anthropic's `error` event in the middle of a stream. */
export const anthropicStreamError = (type: string, message: string): string =>
  eventFrame('error', anthropicError(type, message));

const blockStart = (index: number, block: object): string =>
  eventFrame('content_block_start', { type: 'content_block_start', index, content_block: block });
const textStart = (index: number): string => blockStart(index, { type: 'text', text: '' });
/** The words are block 1 after a thinking block, else block 0. */
const textIndex = (context: ReplyContext): number => (context.thinks ? 1 : 0);

function parseSystem(system: unknown): { role: string; content: string }[] {
  const text = contentText(system);
  return text === '' ? [] : [{ role: 'system', content: text }];
}

export const anthropicMessages: WireFormat = {
  name: 'anthropic',
  parse(body) {
    if (!isRecord(body)) return { ok: false, error: 'The request body must be a JSON object.' };
    const { messages } = body;
    if (!Array.isArray(messages) || !messages.every((m) => isRecord(m) && typeof m.role === 'string')) {
      return { ok: false, error: 'messages: Field required (an array of objects with a role).' };
    }
    const turns = (messages as Record<string, unknown>[]).map((m) => ({
      role: m.role as string,
      content: contentText(m.content),
      images: wireImages(m.content),
    }));
    return {
      ok: true,
      value: {
        model: typeof body.model === 'string' ? body.model : null,
        isStream: body.stream === true,
        includeUsage: false,
        messages: [...parseSystem(body.system), ...turns],
      },
    };
  },
  open: (context) => [
    eventFrame('message_start', {
      type: 'message_start',
      message: {
        id: `msg_${context.id}`,
        type: 'message',
        role: 'assistant',
        content: [],
        model: context.model,
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: context.usage.prompt_tokens, output_tokens: 1 },
      },
    }),
    context.thinks ? blockStart(0, { type: 'thinking', thinking: '', signature: '' }) : textStart(0),
    eventFrame('ping', { type: 'ping' }),
  ],
  delta: (context, piece) =>
    eventFrame('content_block_delta', {
      type: 'content_block_delta',
      index: textIndex(context),
      delta: { type: 'text_delta', text: piece },
    }),
  // Extended thinking: the thinking block first (its deltas, then its signature), the words next.
  thinkingDelta: (_context, piece) =>
    eventFrame('content_block_delta', {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'thinking_delta', thinking: piece },
    }),
  thinkingEnd: (context) => [
    eventFrame('content_block_delta', {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'signature_delta', signature: `sim-signature-${context.id}` },
    }),
    eventFrame('content_block_stop', { type: 'content_block_stop', index: 0 }),
    textStart(1),
  ],
  close: (context) => [
    eventFrame('content_block_stop', { type: 'content_block_stop', index: textIndex(context) }),
    eventFrame('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: context.usage.completion_tokens },
    }),
    eventFrame('message_stop', { type: 'message_stop' }),
  ],
  completion: (context, text) => ({
    id: `msg_${context.id}`,
    type: 'message',
    role: 'assistant',
    model: context.model,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: context.usage.prompt_tokens, output_tokens: context.usage.completion_tokens },
  }),
  errors: ANTHROPIC_STATUS,
  streamError: () => anthropicStreamError('overloaded_error', 'Overloaded'),
  malformed: () => eventFrame('content_block_delta', MALFORMED_LINE),
};

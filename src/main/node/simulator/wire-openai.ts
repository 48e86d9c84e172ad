// The simulator's two OpenAI wire formats: Chat Completions (chat.completion.chunk SSE, the
// format of OpenAI-compatible servers and of the built-in simulator provider) and Responses
// (typed `event:` SSE, pi-ai's path for OpenAI). They share OpenAI's error bodies. Errors inside
// a stream: a `data: {"error": …}` chunk (Chat Completions) and `response.failed` (Responses),
// as https://platform.openai.com/docs/api-reference/responses-streaming describes them.
import { wireImages } from './simulator-attachments';
import { SIMULATOR_MODEL_IDS } from '../../../shared/settings-values';
import {
  MALFORMED_LINE,
  dataFrame,
  eventFrame,
  htmlPage,
  isRecord,
  contentText,
  retryAfterHeader,
  type ParseResult,
  type ReplyContext,
  type StatusTable,
  type WireFormat,
  type WireRequest,
} from './wire';

export const openAiError = (message: string, type: string, code: string | null = null): object => ({
  error: { message, type, param: null, code },
});

/** OpenAI's answers to the generic status faults (both OpenAI formats). */
const OPENAI_STATUS: StatusTable = {
  '429': (step) => ({
    status: 429,
    headers: retryAfterHeader(step),
    body: openAiError('Rate limit reached for requests', 'requests', 'rate_limit_exceeded'),
  }),
  '500': () => ({ status: 500, body: openAiError('Internal server error', 'server_error') }),
  '502': () => ({ status: 502, body: openAiError('Bad gateway', 'server_error') }),
  '503': () => ({ status: 503, body: openAiError('Service Unavailable', 'server_error') }),
  '504': () => ({ status: 504, body: null }),
  // Anthropic's shape (top-level type "error"), as OpenAI-compatible proxies pass it through.
  overloaded: () => ({
    status: 529,
    body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
  }),
  usage_limit: (step) => ({
    status: 429,
    headers: retryAfterHeader(step),
    body: {
      error: {
        type: 'usage_limit_reached',
        message: `You have hit your usage limit. Please retry in ${step.retryAfterSeconds}s`,
        resets_in_seconds: step.retryAfterSeconds,
      },
    },
  }),
  overflow: () => ({
    status: 400,
    body: openAiError(
      "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens.",
      'invalid_request_error',
      'context_length_exceeded',
    ),
  }),
  auth: () => ({
    status: 401,
    body: openAiError('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'),
  }),
  bad_request: () => ({
    status: 400,
    body: openAiError('Invalid request: the simulator rejected this request as scripted.', 'invalid_request_error'),
  }),
  permission: () => ({
    status: 403,
    body: openAiError(
      'Country, region, or territory not supported',
      'request_forbidden',
      'unsupported_country_region_territory',
    ),
  }),
  not_found: (_step, context) => ({
    status: 404,
    body: openAiError(
      `The model \`${context.model}\` does not exist or you do not have access to it.`,
      'invalid_request_error',
      'model_not_found',
    ),
  }),
  too_large: () => htmlPage(413, 'Request Entity Too Large'),
};

const SERVER_ERROR_TEXT = 'The server had an error while processing your request. Sorry about that!';

/** Chat Completions: `data: {chat.completion.chunk}` frames, then `data: [DONE]`. */
export const chatCompletions: WireFormat = {
  name: 'openai-chat',
  parse(body) {
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
        messages: messages as WireRequest['messages'],
      },
    };
  },
  open: (context) => [dataFrame(chunk(context, { role: 'assistant', content: '' }))],
  delta: (context, piece) => dataFrame(chunk(context, { content: piece })),
  // As llama.cpp, DeepSeek, vLLM and LM Studio stream a reasoning model's thinking.
  thinkingDelta: (context, piece) => dataFrame(chunk(context, { reasoning_content: piece })),
  promptProgress: (context, processed, total) =>
    dataFrame({ ...head(context), choices: [], prompt_progress: { total, cache: 0, processed, time_ms: 0 } }),
  close(context) {
    const frames = [dataFrame(chunk(context, {}, 'stop'))];
    if (context.includeUsage) frames.push(dataFrame({ ...head(context), choices: [], usage: context.usage }));
    return [...frames, dataFrame('[DONE]')];
  },
  completion: (context, text) => ({
    ...head(context),
    object: 'chat.completion',
    choices: [
      { index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: 'stop' },
    ],
    usage: context.usage,
  }),
  errors: OPENAI_STATUS,
  streamError: () => dataFrame(openAiError(SERVER_ERROR_TEXT, 'server_error')),
  malformed: () => dataFrame(MALFORMED_LINE),
  toolCall(context, call) {
    // The name first, then the arguments in two pieces, as OpenAI streams them; finish_reason "tool_calls".
    const half = Math.ceil(call.arguments.length / 2);
    const pieces =
      call.arguments.length > 1 ? [call.arguments.slice(0, half), call.arguments.slice(half)] : [call.arguments];
    const frames = [
      ...this.open(context),
      dataFrame(
        chunk(context, {
          tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
        }),
      ),
      ...pieces.map((piece) =>
        dataFrame(chunk(context, { tool_calls: [{ index: 0, function: { arguments: piece } }] })),
      ),
      dataFrame(chunk(context, {}, 'tool_calls')),
    ];
    if (context.includeUsage) frames.push(dataFrame({ ...head(context), choices: [], usage: context.usage }));
    frames.push(dataFrame('[DONE]'));
    const message = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }],
    };
    const completion = {
      ...head(context),
      object: 'chat.completion',
      choices: [{ index: 0, message, logprobs: null, finish_reason: 'tool_calls' }],
      usage: context.usage,
    };
    return { frames, completion };
  },
};

const head = (context: ReplyContext) => ({
  id: `chatcmpl-${context.id}`,
  object: 'chat.completion.chunk',
  created: context.created,
  model: context.model,
});

function chunk(context: ReplyContext, delta: object, finishReason: 'stop' | 'tool_calls' | null = null): object {
  return { ...head(context), choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] };
}

export function modelList(): object {
  return {
    object: 'list',
    data: SIMULATOR_MODEL_IDS.map((id) => ({ id, object: 'model', created: 0, owned_by: 'resolute-simulator' })),
  };
}

// ---- Responses ----

/** Responses frames number their events; the counter restarts with every response. */
const sequence = new WeakMap<ReplyContext, number>();
function responsesEvent(context: ReplyContext, type: string, fields: object): string {
  const n = sequence.get(context) ?? 0;
  sequence.set(context, n + 1);
  return eventFrame(type, { type, sequence_number: n, ...fields });
}

const itemId = (context: ReplyContext): string => `msg_${context.id}`;
const reasoningId = (context: ReplyContext): string => `rs_${context.id}`;
/** The message is output item 1 after a reasoning item, else 0. */
const messageIndex = (context: ReplyContext): number => (context.thinks ? 1 : 0);

const reasoningItem = (context: ReplyContext, summary: string | null): object => ({
  id: reasoningId(context),
  type: 'reasoning',
  summary: summary === null ? [] : [{ type: 'summary_text', text: summary }],
});

/** The message item's first frames: it is added, then its text part. */
function messageStart(context: ReplyContext): string[] {
  const outputIndex = messageIndex(context);
  return [
    responsesEvent(context, 'response.output_item.added', {
      output_index: outputIndex,
      item: message(context, '', 'in_progress'),
    }),
    responsesEvent(context, 'response.content_part.added', {
      item_id: itemId(context),
      output_index: outputIndex,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [] },
    }),
  ];
}

/** A reasoning item with one summary part, as a reasoning model streams its summary (`summary: "auto"`). */
const reasoningStart = (context: ReplyContext): string[] => [
  responsesEvent(context, 'response.output_item.added', { output_index: 0, item: reasoningItem(context, null) }),
  responsesEvent(context, 'response.reasoning_summary_part.added', {
    item_id: reasoningId(context),
    output_index: 0,
    summary_index: 0,
    part: { type: 'summary_text', text: '' },
  }),
];

function response(context: ReplyContext, status: string, output: object[], extra: object = {}): object {
  return {
    id: `resp_${context.id}`,
    object: 'response',
    created_at: context.created,
    status,
    model: context.model,
    output,
    error: null,
    incomplete_details: null,
    ...extra,
  };
}

const message = (context: ReplyContext, text: string, status: string): object => ({
  id: itemId(context),
  type: 'message',
  status,
  role: 'assistant',
  content: text === '' && status === 'in_progress' ? [] : [{ type: 'output_text', text, annotations: [] }],
});

const responsesUsage = (context: ReplyContext): object => ({
  input_tokens: context.usage.prompt_tokens,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: context.usage.completion_tokens,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: context.usage.total_tokens,
});

/** The `response.failed` event with OpenAI's server_error wording ("You can retry your request"). */
export function responseFailed(context: ReplyContext, code: string, text: string): string {
  return responsesEvent(context, 'response.failed', {
    response: response(context, 'failed', [], { error: { code, message: text } }),
  });
}

/** The Responses `error` event: code and message at the top level. */
export function responsesErrorEvent(context: ReplyContext, code: string, text: string): string {
  return responsesEvent(context, 'error', { code, message: text, param: null });
}

function parseInput(input: unknown, instructions: unknown): WireRequest['messages'] | undefined {
  const system = typeof instructions === 'string' ? [{ role: 'system', content: instructions }] : [];
  if (typeof input === 'string') return [...system, { role: 'user', content: input }];
  if (!Array.isArray(input)) return undefined;
  const items = input.filter(
    (item): item is Record<string, unknown> => isRecord(item) && typeof item.role === 'string',
  );
  return [
    ...system,
    ...items.map((item) => ({
      role: item.role as string,
      content: contentText(item.content),
      images: wireImages(item.content),
    })),
  ];
}

/** Responses: `event: response.*` frames from response.created to response.completed. */
export const responses: WireFormat = {
  name: 'openai-responses',
  parse(body): ParseResult<WireRequest> {
    if (!isRecord(body)) return { ok: false, error: 'The request body must be a JSON object.' };
    const messages = parseInput(body.input, body.instructions);
    if (!messages) return { ok: false, error: "'input' must be a string or an array of input items." };
    const model = typeof body.model === 'string' ? body.model : null;
    return { ok: true, value: { model, isStream: body.stream === true, includeUsage: false, messages } };
  },
  open: (context) => [
    responsesEvent(context, 'response.created', { response: response(context, 'in_progress', []) }),
    ...(context.thinks ? reasoningStart(context) : messageStart(context)),
  ],
  delta: (context, piece) =>
    responsesEvent(context, 'response.output_text.delta', {
      item_id: itemId(context),
      output_index: messageIndex(context),
      content_index: 0,
      delta: piece,
    }),
  thinkingDelta: (context, piece) =>
    responsesEvent(context, 'response.reasoning_summary_text.delta', {
      item_id: reasoningId(context),
      output_index: 0,
      summary_index: 0,
      delta: piece,
    }),
  thinkingEnd: (context, thinking) => [
    responsesEvent(context, 'response.reasoning_summary_text.done', {
      item_id: reasoningId(context),
      output_index: 0,
      summary_index: 0,
      text: thinking,
    }),
    responsesEvent(context, 'response.output_item.done', { output_index: 0, item: reasoningItem(context, thinking) }),
    ...messageStart(context),
  ],
  close(context, text) {
    const part = { type: 'output_text', text, annotations: [] };
    const done = message(context, text, 'completed');
    const outputIndex = messageIndex(context);
    const ids = { item_id: itemId(context), output_index: outputIndex, content_index: 0 };
    return [
      responsesEvent(context, 'response.output_text.done', { ...ids, text }),
      responsesEvent(context, 'response.content_part.done', { ...ids, part }),
      responsesEvent(context, 'response.output_item.done', { output_index: outputIndex, item: done }),
      responsesEvent(context, 'response.completed', {
        response: response(context, 'completed', [done], { usage: responsesUsage(context) }),
      }),
    ];
  },
  completion: (context, text) =>
    response(context, 'completed', [message(context, text, 'completed')], { usage: responsesUsage(context) }),
  errors: OPENAI_STATUS,
  streamError: (context) =>
    responseFailed(
      context,
      'server_error',
      'An error occurred while processing your request. You can retry your request, or contact us through our help center at help.openai.com if the error persists.',
    ),
  malformed: () => eventFrame('response.output_text.delta', MALFORMED_LINE),
};

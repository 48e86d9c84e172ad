// The simulator's Gemini wire format: POST /v1beta/models/{model}:streamGenerateContent?alt=sse
// (and :generateContent), `data:` SSE chunks of GenerateContentResponse, errors as
// {"error":{code,message,status,details}} with google.rpc details (ErrorInfo, RetryInfo,
// QuotaFailure) as https://ai.google.dev/gemini-api/docs/troubleshooting lists them, and the bare
// JSON error object Gemini writes into a stream that fails after it has begun.
import type { FaultStep } from './fault-script';
import { wireImages } from './simulator-attachments';
import {
  MALFORMED_LINE,
  dataFrame,
  htmlPage,
  isRecord,
  contentText,
  type ErrorReply,
  type ReplyContext,
  type StatusTable,
  type WireFormat,
} from './wire';

const END = '\r\n\r\n';
const RPC = 'type.googleapis.com/google.rpc.';

export const googleError = (code: number, status: string, message: string, details?: object[]): object => ({
  error: { code, message, status, ...(details ? { details } : {}) },
});

const QUOTA_TEXT =
  'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.';

/** Google's RESOURCE_EXHAUSTED: the quota that was hit and, as RetryInfo, when to retry. */
export function quotaExhausted(step: FaultStep, quotaIds: string[]): ErrorReply {
  const seconds = step.retryAfterSeconds;
  const details: object[] = [
    {
      '@type': `${RPC}QuotaFailure`,
      violations: quotaIds.map((quotaId) => ({
        quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests',
        quotaId,
        quotaDimensions: { location: 'global', model: 'gemini-2.5-flash' },
      })),
    },
    {
      '@type': `${RPC}Help`,
      links: [
        { description: 'Learn more about Gemini API quotas', url: 'https://ai.google.dev/gemini-api/docs/rate-limits' },
      ],
    },
  ];
  if (seconds !== null) details.push({ '@type': `${RPC}RetryInfo`, retryDelay: `${seconds}s` });
  const text = seconds === null ? QUOTA_TEXT : `${QUOTA_TEXT} Please retry in ${seconds}s.`;
  return { status: 429, body: googleError(429, 'RESOURCE_EXHAUSTED', text, details) };
}

const PER_MINUTE = ['GenerateRequestsPerMinutePerProjectPerModel-FreeTier'];
const PER_DAY = ['GenerateRequestsPerDayPerProjectPerModel-FreeTier', ...PER_MINUTE];

/** Google's answers to the generic status faults. */
const GEMINI_STATUS: StatusTable = {
  '429': (step) => quotaExhausted(step, PER_MINUTE),
  usage_limit: (step) => quotaExhausted(step, PER_DAY),
  '500': () => ({
    status: 500,
    body: googleError(
      500,
      'INTERNAL',
      'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
    ),
  }),
  '502': () => htmlPage(502, 'Bad Gateway'),
  '503': () => ({ status: 503, body: googleError(503, 'UNAVAILABLE', 'The service is currently unavailable.') }),
  '504': () => ({
    status: 504,
    body: googleError(504, 'DEADLINE_EXCEEDED', 'The request timed out. Please try again.'),
  }),
  overloaded: () => ({
    status: 503,
    body: googleError(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.'),
  }),
  overflow: () => ({
    status: 400,
    body: googleError(
      400,
      'INVALID_ARGUMENT',
      'The input token count (1258291) exceeds the maximum number of tokens allowed (1048576).',
    ),
  }),
  auth: () => ({
    status: 400,
    body: googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
      {
        '@type': `${RPC}ErrorInfo`,
        reason: 'API_KEY_INVALID',
        domain: 'googleapis.com',
        metadata: { service: 'generativelanguage.googleapis.com' },
      },
      {
        '@type': `${RPC}LocalizedMessage`,
        locale: 'en-US',
        message: 'API key not valid. Please pass a valid API key.',
      },
    ]),
  }),
  bad_request: () => ({
    status: 400,
    body: googleError(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.'),
  }),
  permission: () => ({
    status: 403,
    body: googleError(403, 'PERMISSION_DENIED', 'The caller does not have permission'),
  }),
  not_found: (_step, context) => ({
    status: 404,
    body: googleError(
      404,
      'NOT_FOUND',
      `models/${context.model} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`,
    ),
  }),
  too_large: () => htmlPage(413, 'Request Entity Too Large'),
};

function chunk(context: ReplyContext, text: string, finished: boolean, thought = false): object {
  const candidate = {
    content: { parts: [thought ? { text, thought: true } : { text }], role: 'model' },
    ...(finished ? { finishReason: 'STOP' } : {}),
    index: 0,
  };
  return {
    candidates: [candidate],
    usageMetadata: {
      promptTokenCount: context.usage.prompt_tokens,
      candidatesTokenCount: context.usage.completion_tokens,
      totalTokenCount: context.usage.total_tokens,
    },
    modelVersion: context.model,
    responseId: context.id,
  };
}

/** Gemini's bare JSON error inside a stream: pretty-printed, no `data:` and no blank line after it. */
export const geminiStreamError = (code: number, status: string, message: string): string =>
  `${JSON.stringify(googleError(code, status, message), null, 2)}\n`;

/** A model turn sent back keeps its thought parts (pi-ai replays them); the model reads the words only. */
function withoutThoughts(parts: unknown): unknown {
  return Array.isArray(parts) ? parts.filter((part) => !(isRecord(part) && part.thought === true)) : parts;
}

export const gemini: WireFormat = {
  name: 'gemini',
  parse(body, modelFromPath) {
    if (!isRecord(body)) return { ok: false, error: 'Invalid JSON payload received.' };
    const { contents, systemInstruction } = body;
    if (!Array.isArray(contents) || !contents.every((c) => isRecord(c))) {
      return { ok: false, error: "Invalid JSON payload received. 'contents' must be a list of Content." };
    }
    const system = isRecord(systemInstruction) ? contentText(systemInstruction.parts) : '';
    const turns = (contents as Record<string, unknown>[]).map((c) => ({
      role: c.role === 'model' ? 'assistant' : 'user',
      content: contentText(withoutThoughts(c.parts)),
      images: wireImages(c.parts),
    }));
    return {
      ok: true,
      value: {
        model: modelFromPath,
        // Decided by the route (:streamGenerateContent), not the body; the server sets it.
        isStream: false,
        includeUsage: false,
        messages: system ? [{ role: 'system', content: system }, ...turns] : turns,
      },
    };
  },
  open: () => [],
  delta: (context, piece) => dataFrame(chunk(context, piece, false), END),
  // Thought summaries (includeThoughts): parts marked `thought: true`, before the answer's parts.
  thinkingDelta: (context, piece) => dataFrame(chunk(context, piece, false, true), END),
  close: (context) => [dataFrame(chunk(context, '', true), END)],
  completion: (context, text) => chunk(context, text, true),
  errors: GEMINI_STATUS,
  streamError: () => geminiStreamError(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.'),
  malformed: () => dataFrame(MALFORMED_LINE, END),
};

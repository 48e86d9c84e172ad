// Conformance: OpenAI's real error shapes over real HTTP through the openai SDK on pi-ai's
// Responses path (the app's OpenAI provider), the app pointed at the simulator as its OpenAI
// base URL. Every row cites where its shape comes from. docs/classification.md explains the verdicts.
import { describeTable, type Row } from './harness';

const ROWS: ReadonlyArray<readonly [string, Row]> = [
  // https://platform.openai.com/docs/guides/rate-limits — x-ratelimit-reset-tokens "6m0s" is when the
  // bucket is full again; the message's "Please try again in 644ms" (BuilderIO/micro-agent#86) is the wait.
  [
    '429 TPM: "try again in" beats the 6m0s token reset',
    { script: 'openai.rate_limit_tpm:0.05*', category: 'rate_limit', hint: 50, decision: 'retry', requests: 5 },
  ],
  // https://platform.openai.com/docs/guides/error-codes — 429 "Rate limit reached for requests"; the
  // per-minute message with a billing link stays a rate limit (billing wording not confirmed publicly).
  [
    '429 RPM with a billing link',
    { script: 'openai.rate_limit_rpm:0.05*', category: 'rate_limit', hint: 50, decision: 'retry', requests: 5 },
  ],
  // openai/openai-agents-js#1022 — "… on requests per day (RPD) … Please try again in 1m26.4s": a
  // daily limit, and a wait above retry.maxDelayMs, so the chain ends at once.
  [
    '429 RPD asking for 1m26.4s',
    { script: 'openai.rate_limit_rpd:86.4', category: 'usage_limit', hint: 86_400, decision: 'abort', requests: 1 },
  ],
  // https://platform.openai.com/docs/guides/error-codes — 429 insufficient_quota ("You exceeded your current quota")
  [
    '429 insufficient_quota',
    { script: 'openai.insufficient_quota*', category: 'usage_limit', hint: null, decision: 'retry', requests: 4 },
  ],
  // https://platform.openai.com/docs/guides/error-codes — 401 "Incorrect API key provided", type
  // invalid_request_error, code invalid_api_key
  ['401 invalid_api_key', { script: 'auth*', category: 'auth', hint: null, decision: 'abort', requests: 1 }],
  // https://platform.openai.com/docs/guides/error-codes — 403 "Country, region, or territory not supported"
  ['403 unsupported region', { script: 'permission*', category: 'auth', hint: null, decision: 'abort', requests: 1 }],
  // https://platform.openai.com/docs/guides/error-codes — 500 server_error
  ['500 server_error', { script: '500*', category: 'server_error', hint: null, decision: 'retry', requests: 4 }],
  // https://platform.openai.com/docs/guides/error-codes — 503 from the API
  ['503 Service Unavailable', { script: '503*', category: 'server_error', hint: null, decision: 'retry', requests: 4 }],
  // https://platform.openai.com/docs/api-reference/responses-streaming/response/failed — response.failed
  // with error.code server_error after a 200 ("You can retry your request"); editor-code-assistant/eca#559
  [
    'response.failed server_error mid-stream',
    { script: 'stream_error*', category: 'server_error', hint: null, decision: 'retry', requests: 4 },
  ],
  // https://platform.openai.com/docs/api-reference/responses-streaming/error — the `error` event
  // (type, code, message, param, sequence_number) after a 200; editor-code-assistant/eca#559
  [
    'error event server_error mid-stream',
    { script: 'openai.error_event*', category: 'server_error', hint: null, decision: 'retry', requests: 4 },
  ],
  // https://platform.openai.com/docs/guides/error-codes — 400 context_length_exceeded
  [
    '400 context_length_exceeded',
    { script: 'overflow', category: 'context_overflow', hint: null, decision: 'abort', requests: 1 },
  ],
  // https://platform.openai.com/docs/guides/error-codes — 404 model_not_found ("does not exist or you do not have access")
  [
    '404 model_not_found',
    { script: 'not_found*', category: 'bad_request', hint: null, decision: 'abort', requests: 1 },
  ],
  // n3d1117/chatgpt-telegram-bot#637 — openai.InternalServerError carrying an HTML 502 page
  [
    '502 HTML page from a proxy',
    { script: 'proxy_502*', category: 'server_error', hint: null, decision: 'retry', requests: 4 },
  ],
  // openai/openai-python#1626 — "upstream connect error or disconnect/reset before headers" (Envoy, 503)
  [
    '503 plain text from a proxy',
    { script: 'proxy_503*', category: 'server_error', hint: null, decision: 'retry', requests: 4 },
  ],
  // Wei-Shaw/sub2api#1471 — a /v1/responses gateway emitting an event that is not JSON.
  ['malformed event', { script: 'malformed*', category: 'invalid_output', hint: null, decision: 'retry', requests: 3 }],
  // anthropics/claude-code#8802 — the socket closes before any header ("Connection error." / fetch failed).
  ['connection dropped', { script: 'drop*', category: 'connection', hint: null, decision: 'retry', requests: 3 }],
  // anthropics/claude-code#49716 — the server accepts the request, then sends nothing more; the
  // app's own timeout (retry.timeoutMs) aborts it.
  [
    'silence after the first events',
    { script: 'stall*', category: 'timeout', hint: null, decision: 'retry', requests: 3, silenceMs: 300 },
  ],
];

describeTable('OpenAI Responses API (openai SDK) — real error shapes', 'openai', 'openai-responses', ROWS);

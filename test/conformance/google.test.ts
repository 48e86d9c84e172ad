// Conformance: Google's real Gemini API error shapes over real HTTP through @google/genai (pi-ai's
// google-generative-ai path), the app pointed at the simulator as its Google base URL (…/v1beta).
// Every row cites where its shape comes from. docs/classification.md explains the verdicts.
import { describeTable, type Row } from './harness';

const TROUBLESHOOTING = 'https://ai.google.dev/gemini-api/docs/troubleshooting';

const ROWS: ReadonlyArray<readonly [string, Row]> = [
  // googleapis/python-genai#1875 — 429 RESOURCE_EXHAUSTED "You exceeded your current quota … billing"
  // with google.rpc.RetryInfo retryDelay: a rate limit, and the delay is the hint.
  [
    '429 RESOURCE_EXHAUSTED with RetryInfo',
    { script: '429:0.05*', category: 'rate_limit', hint: 50, decision: 'retry', requests: 5 },
  ],
  // google-gemini/gemini-cli#2020 — 429 RESOURCE_EXHAUSTED "Resource has been exhausted (e.g. check quota)."
  [
    '429 RESOURCE_EXHAUSTED without details',
    { script: 'google.quota_plain*', category: 'rate_limit', hint: null, decision: 'retry', requests: 5 },
  ],
  // googleapis/python-genai#2044, dcdpr/jp#1061 — QuotaFailure naming GenerateRequestsPerDayPerProjectPerModel:
  // a daily quota waiting will not fix soon, with RetryInfo as the hint.
  [
    '429 per-day quota (QuotaFailure)',
    { script: 'usage_limit:0.05*', category: 'usage_limit', hint: 50, decision: 'retry', requests: 4 },
  ],
  // googleapis/python-genai#1875 — a retryDelay above retry.maxDelayMs ends the chain at once.
  [
    '429 RetryInfo asking for 120 s',
    { script: '429:120', category: 'rate_limit', hint: 120_000, decision: 'abort', requests: 1 },
  ],
  // google-gemini/cookbook#425 — 503 UNAVAILABLE "The model is overloaded. Please try again later."
  [
    '503 UNAVAILABLE overloaded',
    { script: 'overloaded*', category: 'overloaded', hint: null, decision: 'retry', requests: 4 },
  ],
  // continuedev/continue#10639 — 503 UNAVAILABLE "This model is currently experiencing high demand …"
  [
    '503 UNAVAILABLE high demand',
    { script: 'google.high_demand*', category: 'overloaded', hint: null, decision: 'retry', requests: 4 },
  ],
  // googleapis/python-genai#336 — 503 UNAVAILABLE "The service is currently unavailable."
  ['503 UNAVAILABLE', { script: '503*', category: 'server_error', hint: null, decision: 'retry', requests: 4 }],
  // TROUBLESHOOTING — 500 INTERNAL
  ['500 INTERNAL', { script: '500*', category: 'server_error', hint: null, decision: 'retry', requests: 4 }],
  // TROUBLESHOOTING — 504 DEADLINE_EXCEEDED (the service could not finish within the deadline)
  ['504 DEADLINE_EXCEEDED', { script: '504*', category: 'timeout', hint: null, decision: 'retry', requests: 3 }],
  // google-gemini/gemini-cli#4690, cequence-io/openai-scala-client#109 — 400 INVALID_ARGUMENT whose
  // ErrorInfo reason is API_KEY_INVALID ("API key not valid. Please pass a valid API key.")
  ['400 API_KEY_INVALID', { script: 'auth*', category: 'auth', hint: null, decision: 'abort', requests: 1 }],
  // TROUBLESHOOTING — 403 PERMISSION_DENIED
  ['403 PERMISSION_DENIED', { script: 'permission*', category: 'auth', hint: null, decision: 'abort', requests: 1 }],
  // TROUBLESHOOTING — 404 NOT_FOUND ("models/… is not found for API version v1beta")
  ['404 NOT_FOUND', { script: 'not_found*', category: 'bad_request', hint: null, decision: 'abort', requests: 1 }],
  // google-gemini/gemini-cli#6678 — 400 INVALID_ARGUMENT "The input token count (…) exceeds the maximum …"
  [
    '400 input token count',
    { script: 'overflow', category: 'context_overflow', hint: null, decision: 'abort', requests: 1 },
  ],
  // TROUBLESHOOTING — 400 INVALID_ARGUMENT (a malformed request)
  [
    '400 INVALID_ARGUMENT',
    { script: 'bad_request*', category: 'bad_request', hint: null, decision: 'abort', requests: 1 },
  ],
  // diegosouzapw/OmniRoute#4177, google-gemini/gemini-cli#5191 — after a 200 and some text, a bare
  // JSON {"error":{"code":503,…,"status":"UNAVAILABLE"}} ("got status: UNAVAILABLE. …")
  [
    'bare JSON error mid-stream',
    { script: 'stream_error*', category: 'overloaded', hint: null, decision: 'retry', requests: 4 },
  ],
  // n3d1117/chatgpt-telegram-bot#637 — an HTML 502 page from the front end
  ['502 HTML page', { script: '502*', category: 'server_error', hint: null, decision: 'retry', requests: 4 }],
  // anthropics/claude-code#7403 ("Error: terminated") — a connection reset in the middle of any stream.
  [
    'connection reset mid-stream',
    { script: 'reset*', category: 'connection', hint: null, decision: 'retry', requests: 3 },
  ],
  // anthropics/anthropic-sdk-typescript#867 — headers, then silence (any provider); the app's own
  // timeout aborts it.
  [
    'silence after the headers',
    { script: 'stall*', category: 'timeout', hint: null, decision: 'retry', requests: 3, silenceMs: 300 },
  ],
];

describeTable(`Gemini API (@google/genai) — real error shapes (${TROUBLESHOOTING})`, 'google', 'gemini', ROWS);

// Conformance: Anthropic's real error shapes over real HTTP through @anthropic-ai/sdk (pi-ai's
// anthropic-messages path) with the app pointed at the simulator as its Anthropic base URL.
// Every row cites where its shape comes from. docs/classification.md explains the verdicts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConformanceApp, describeTable, type Row } from './harness';

const ROWS: ReadonlyArray<readonly [string, Row]> = [
  // https://docs.claude.com/en/api/errors — 529 overloaded_error; anthropics/claude-code#63051
  [
    '529 overloaded_error',
    { script: 'overloaded*', category: 'overloaded', hint: null, decision: 'retry', requests: 4 },
  ],
  // The same, recovering on the next attempt.
  [
    '529 then an answer',
    { script: 'overloaded,ok', category: 'overloaded', hint: null, decision: 'retry', requests: 2 },
  ],
  // https://docs.claude.com/en/api/rate-limits — 429 rate_limit_error with retry-after (seconds); gsd-build/gsd-2#32
  ['429 with retry-after', { script: '429:0.05*', category: 'rate_limit', hint: 50, decision: 'retry', requests: 5 }],
  // lidge-jun/opencodex#3809 (retry-after is not guaranteed, the rejected window's -reset is) and the
  // anthropic-ratelimit-input-tokens-reset RFC 3339 header of https://docs.claude.com/en/api/rate-limits
  [
    '429 naming input tokens, hint from its reset header',
    {
      script: 'anthropic.rate_limit_reset:0.4,ok',
      category: 'rate_limit',
      hint: [150, 400],
      decision: 'retry',
      requests: 2,
    },
  ],
  // https://docs.claude.com/en/api/rate-limits — a retry-after above retry.maxDelayMs ends the chain at once
  [
    '429 asking for 120 s',
    { script: '429:120', category: 'rate_limit', hint: 120_000, decision: 'abort', requests: 1 },
  ],
  // https://learn.microsoft.com/microsoft-cloud/dev/dev-proxy/concepts/anthropic-529-overloaded-error —
  // 429 rate_limit_error whose error.details.error_code is enforced_spend_limit_reached; can1357/oh-my-pi#5418
  [
    '429 spend limit (enforced_spend_limit_reached)',
    { script: 'anthropic.spend_limit*', category: 'usage_limit', hint: null, decision: 'retry', requests: 4 },
  ],
  // anthropics/claude-code#4208, #66314 — 400 invalid_request_error "Your credit balance is too low …"
  [
    '400 credit balance too low',
    { script: 'anthropic.credit_low*', category: 'usage_limit', hint: null, decision: 'retry', requests: 4 },
  ],
  // anthropics/claude-code#38035, #2127 — 400 "You have reached your specified API usage limits …"
  [
    '400 specified API usage limits',
    { script: 'anthropic.usage_cap*', category: 'usage_limit', hint: null, decision: 'retry', requests: 4 },
  ],
  // https://docs.claude.com/en/api/errors — 500 api_error; anthropics/claude-code#70348
  ['500 api_error', { script: '500*', category: 'server_error', hint: null, decision: 'retry', requests: 4 }],
  // anthropics/claude-code#7043 — Envoy's plain-text 503 "upstream connect error or disconnect/reset before headers"
  [
    '503 plain text from a proxy',
    { script: 'proxy_503*', category: 'server_error', hint: null, decision: 'retry', requests: 4 },
  ],
  // n3d1117/chatgpt-telegram-bot#637 — an nginx/Cloudflare HTML 502 page in front of the API
  [
    '502 HTML page from a proxy',
    { script: 'proxy_502*', category: 'server_error', hint: null, decision: 'retry', requests: 4 },
  ],
  // anthropics/claude-code#12208 — a gateway status with no body ("status code (no body)")
  ['504 with no body', { script: '504*', category: 'server_error', hint: null, decision: 'retry', requests: 4 }],
  // https://docs.claude.com/en/api/errors — 401 authentication_error ("invalid x-api-key")
  ['401 authentication_error', { script: 'auth*', category: 'auth', hint: null, decision: 'abort', requests: 1 }],
  // https://docs.claude.com/en/api/errors — 403 permission_error
  ['403 permission_error', { script: 'permission*', category: 'auth', hint: null, decision: 'abort', requests: 1 }],
  // coder/aibridge#56 — 400 invalid_request_error "prompt is too long: 205351 tokens > 200000 maximum"
  [
    '400 prompt is too long',
    { script: 'overflow', category: 'context_overflow', hint: null, decision: 'abort', requests: 1 },
  ],
  // https://docs.claude.com/en/api/errors — 413 request_too_large
  [
    '413 request_too_large',
    { script: 'too_large', category: 'context_overflow', hint: null, decision: 'abort', requests: 1 },
  ],
  // https://docs.claude.com/en/api/errors — 404 not_found_error (an unknown model)
  [
    '404 not_found_error',
    { script: 'not_found*', category: 'bad_request', hint: null, decision: 'abort', requests: 1 },
  ],
  // https://docs.claude.com/en/api/errors — 400 invalid_request_error
  [
    '400 invalid_request_error',
    { script: 'bad_request*', category: 'bad_request', hint: null, decision: 'abort', requests: 1 },
  ],
  // https://docs.claude.com/en/docs/build-with-claude/streaming#error-events — `event: error`
  // overloaded_error after a 200; anthropics/anthropic-sdk-typescript#346
  [
    'event: error mid-stream',
    { script: 'stream_error*', category: 'overloaded', hint: null, decision: 'retry', requests: 4 },
  ],
  // anthropics/claude-code#7403 ("Error: terminated") — the connection reset in the middle of the stream
  [
    'connection reset mid-stream',
    { script: 'reset*', category: 'connection', hint: null, decision: 'retry', requests: 3 },
  ],
  // anthropics/anthropic-sdk-typescript#867, anthropics/claude-code#25979 — a stream that goes silent;
  // the app's own timeout (retry.timeoutMs) aborts it.
  [
    'silence after the headers',
    { script: 'stall*', category: 'timeout', hint: null, decision: 'retry', requests: 3, silenceMs: 300 },
  ],
  // Wei-Shaw/sub2api#1471 — a gateway writing an event that is not JSON ("Could not parse …").
  ['malformed event', { script: 'malformed*', category: 'invalid_output', hint: null, decision: 'retry', requests: 3 }],
];

describeTable('Anthropic Messages API (@anthropic-ai/sdk) — real error shapes', 'anthropic', 'anthropic', ROWS);

describe('Anthropic — a spend limit with a second key', () => {
  let app: ConformanceApp;
  beforeAll(async () => {
    app = await ConformanceApp.start('anthropic', 'sk-ant-first-0001');
    await app.services.domains.providers.addKey('anthropic', 'sk-ant-second-0002');
  });
  afterAll(() => app.stop());

  // The learn.microsoft.com spend-limit shape again: the other key is tried at once.
  it('switches to the other key and retries at once', async () => {
    const observed = await app.run('anthropic.spend_limit,ok');
    expect(observed.classification?.category).toBe('usage_limit');
    expect(observed.decisions[0]).toMatchObject({ action: 'retry', waitSeconds: 0 });
    expect(observed.requests.map((request) => request.apiKey)).toEqual(['sk-ant-first-0001', 'sk-ant-second-0002']);
    expect(observed.ends).toEqual([expect.objectContaining({ outcome: 'recovered' })]);
  });
});

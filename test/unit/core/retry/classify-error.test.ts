// Unit tests of classifyError (src/main/core/classify-error.ts): every string pi-ai produces for
// the simulator's faults, the retryable-error text patterns (docs/retry-policy.md), the precedence
// between structured facts and text, the Unclassifiable fallback, and that no input at all can make
// it throw.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CATEGORIES, type ErrorCategory } from '../../../../src/shared/error-category';
import { classifyError, UNCLASSIFIABLE, type ErrorInput } from '../../../../src/main/core/retry/classify-error';

const category = (input: ErrorInput): ErrorCategory => classifyError(input).category;

describe('classifyError — the simulator faults as pi-ai words them', () => {
  const fixtureUrl = new URL('../../../fixtures/pi-ai-fault-messages.json', import.meta.url);
  const fixture = JSON.parse(readFileSync(fileURLToPath(fixtureUrl), 'utf8')) as Record<
    string,
    { stopReason: string; errorMessage: string }
  >;
  const expected: Record<string, ErrorCategory> = {
    '429': 'rate_limit',
    '500': 'server_error',
    '502': 'server_error',
    '503': 'server_error',
    '504': 'server_error',
    overloaded: 'overloaded',
    usage_limit: 'usage_limit',
    reset: 'connection',
    drop: 'connection',
    malformed: 'invalid_output',
    overflow: 'context_overflow',
    auth: 'auth',
    bad_request: 'bad_request',
    stall: 'aborted',
    permission: 'auth',
    not_found: 'bad_request',
    too_large: 'context_overflow',
    stream_error: 'server_error',
    proxy_502: 'server_error',
    proxy_503: 'server_error',
  };

  it('has an expectation for every fixture entry', () => {
    expect(Object.keys(fixture).sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(Object.entries(fixture))('%s → its category', (fault, { stopReason, errorMessage }) => {
    expect(category({ message: errorMessage, stopReason })).toBe(expected[fault]);
  });
});

describe('classifyError — the strings named in the brief', () => {
  it.each<[string, string | undefined, ErrorCategory, string]>([
    ['429 Rate limit reached for requests', 'error', 'rate_limit', 'ModelRateLimitError'],
    ['500 Internal server error', 'error', 'server_error', 'ModelServerError'],
    ['503 Service Unavailable', 'error', 'server_error', 'ModelServerError'],
    ['500 status code (no body)', 'error', 'server_error', 'ModelServerError'],
    ['terminated', 'error', 'connection', 'ModelConnectionError'],
    ['Connection error.', 'error', 'connection', 'ModelConnectionError'],
    [
      "400 This model's maximum context length is 8192 tokens. However, you requested 9000 tokens.",
      'error',
      'context_overflow',
      'ContextOverflowError',
    ],
    ['Request was aborted', 'aborted', 'aborted', 'RequestAbortedError'],
  ])('%j (stopReason %s) → %s / %s', (message, stopReason, expectedCategory, errorType) => {
    const result = classifyError({ message, stopReason });
    expect(result.category).toBe(expectedCategory);
    expect(result.errorType).toBe(errorType);
  });
});

describe('classifyError — the text patterns (case-insensitive)', () => {
  it.each<[string, ErrorCategory]>([
    ['The server is OVERLOADED', 'overloaded'],
    ['Rate Limit exceeded', 'rate_limit'],
    ['usage limit reached', 'usage_limit'],
    ['Too Many Requests', 'rate_limit'],
    ['error 429', 'rate_limit'],
    ['error 500', 'server_error'],
    ['error 502', 'server_error'],
    ['error 503', 'server_error'],
    ['error 504', 'server_error'],
    ['Service Unavailable', 'server_error'],
    ['upstream server error', 'server_error'],
    ['an Internal Error occurred', 'server_error'],
    ['connection error', 'connection'],
    ['TypeError: fetch failed', 'connection'],
    ['Server requested a retry delay', 'rate_limit'],
  ])('%j → %s', (message, expectedCategory) => {
    const result = classifyError({ message });
    expect(result.category).toBe(expectedCategory);
    expect(result.source).toBe('pattern');
  });
});

describe('classifyError — the other categories by text', () => {
  it.each<[string, ErrorCategory]>([
    ['prompt is too long: 213462 tokens > 200000 maximum', 'context_overflow'],
    ['Your input exceeds the context window of this model', 'context_overflow'],
    ['Too many tokens in the prompt', 'context_overflow'],
    ['ThrottlingException: Too many tokens, please wait before trying again.', 'rate_limit'],
    ['Request timed out.', 'timeout'],
    ['connect ETIMEDOUT 10.0.0.1:443', 'timeout'],
    ['The operation was aborted due to timeout', 'timeout'],
    ['504 Gateway Timeout', 'server_error'],
    ['read ECONNRESET', 'connection'],
    ['connect ECONNREFUSED 127.0.0.1:8080', 'connection'],
    ['socket hang up', 'connection'],
    ['Network error while streaming', 'connection'],
    ['other side closed', 'connection'],
    ['Unexpected token \'<\', "<html>" is not valid JSON', 'invalid_output'],
    ['Could not parse tool arguments', 'invalid_output'],
    ['malformed SSE chunk', 'invalid_output'],
    ['Bad JSON in tool call', 'invalid_output'],
    ['401 Incorrect API key provided.', 'auth'],
    ['403 Forbidden', 'auth'],
    ['invalid x-api-key', 'auth'],
    ['Unauthorized', 'auth'],
    ['You do not have permission to use this model', 'auth'],
    ['400 Invalid request', 'bad_request'],
    ['404 model not found', 'bad_request'],
    ['422 Unprocessable Entity', 'bad_request'],
    // Both OpenAI's insufficient_quota and Gemini's per-minute limit say this: alone it is a rate limit.
    ['You exceeded your current quota, please check your plan and billing details.', 'rate_limit'],
    ['insufficient_quota', 'usage_limit'],
    ['Your credit balance is too low to access the Anthropic API.', 'usage_limit'],
    ['This operation was aborted', 'aborted'],
  ])('%j → %s', (message, expectedCategory) => {
    expect(category({ message })).toBe(expectedCategory);
  });
});

describe('classifyError — precedence', () => {
  it('reads an overflow inside a 400 as context_overflow, not bad_request', () => {
    expect(category({ message: "400 This model's maximum context length is 8192 tokens." })).toBe('context_overflow');
    expect(category({ status: 400, message: "This model's maximum context length is 8192 tokens." })).toBe(
      'context_overflow',
    );
    expect(
      category({ status: 400, errorType: 'invalid_request_error', message: 'prompt is too long: 300000 tokens' }),
    ).toBe('context_overflow');
  });

  it('reads a usage limit inside a 429 as usage_limit, not rate_limit', () => {
    expect(category({ message: '429 You have hit your usage limit.' })).toBe('usage_limit');
    expect(category({ status: 429, message: 'You have hit your usage limit.' })).toBe('usage_limit');
    expect(category({ status: 429, errorType: 'insufficient_quota', message: 'Rate limit' })).toBe('usage_limit');
  });

  it.each([
    ['Error 14290 occurred'],
    ['request id 5003 failed oddly'],
    ['took 0.500 of the budget'],
    ['code 4291'],
    ['id_429'],
  ])('does not read a status inside a longer token: %j', (message) => {
    expect(classifyError({ message })).toEqual({
      category: 'unexpected',
      errorType: UNCLASSIFIABLE,
      source: 'fallback',
    });
  });

  it('puts stopReason "aborted" before everything else', () => {
    expect(category({ stopReason: 'aborted', status: 429, message: '429 Rate limit', timedOut: true })).toBe('aborted');
  });

  it.each<[ErrorInput, ErrorCategory]>([
    [{ isContextOverflow: true, status: 503 }, 'context_overflow'],
    [{ timedOut: true, message: 'Request was aborted' }, 'timeout'],
  ])('puts explicit flags before status and text: %j → %s', (input, expectedCategory) => {
    const result = classifyError(input);
    expect(result.category).toBe(expectedCategory);
    expect(result.source).toBe('structured');
  });

  it.each<[ErrorInput, ErrorCategory]>([
    [{ status: 429 }, 'rate_limit'],
    [{ status: 529 }, 'overloaded'],
    [{ status: 503, message: 'Overloaded' }, 'overloaded'],
    [{ status: 500 }, 'server_error'],
    [{ status: 502 }, 'server_error'],
    [{ status: 504 }, 'server_error'],
    [{ status: 408 }, 'timeout'],
    [{ status: 401 }, 'auth'],
    [{ status: 403 }, 'auth'],
    [{ status: 400 }, 'bad_request'],
    [{ status: 404 }, 'bad_request'],
    [{ status: 422 }, 'bad_request'],
    [{ status: 413 }, 'context_overflow'],
    [{ status: 400, message: 'Connection error.' }, 'bad_request'],
    [{ errorType: 'rate_limit_error' }, 'rate_limit'],
    [{ errorType: 'overloaded_error', status: 500 }, 'overloaded'],
    [{ errorType: 'usage_limit_reached' }, 'usage_limit'],
    [{ errorType: 'RESOURCE_EXHAUSTED', message: 'Quota exceeded for metric' }, 'rate_limit'],
    [{ errorType: 'RESOURCE_EXHAUSTED', quotaIds: ['GenerateRequestsPerDayPerProjectPerModel'] }, 'usage_limit'],
    [{ status: 401, errorType: 'invalid_request_error' }, 'auth'],
    [{ status: 400, errorCodes: ['API_KEY_INVALID', 'INVALID_ARGUMENT'] }, 'auth'],
    [{ errorType: 'authentication_error' }, 'auth'],
    [{ errorType: 'ModelTimeoutError' }, 'timeout'],
    [{ errorType: 'UnexpectedSystemError' }, 'unexpected'],
  ])('uses structured facts: %j → %s', (input, expectedCategory) => {
    const result = classifyError(input);
    expect(result.category).toBe(expectedCategory);
    expect(result.source).toBe('structured');
  });

  // One code per category, sharpest first (classify-error.ts, CODE_PRECEDENCE); none carries text to refine.
  const SHARPEST_FIRST: [ErrorCategory, string][] = [
    ['auth', 'authentication_error'],
    ['usage_limit', 'insufficient_quota'],
    ['context_overflow', 'context_length_exceeded'],
    ['overloaded', 'overloaded_error'],
    ['rate_limit', 'rate_limit_error'],
    ['timeout', 'timeout_error'],
    ['server_error', 'api_error'],
    ['connection', 'api_connection_error'],
    ['bad_request', 'invalid_request_error'],
    // Not in the order at all: after every category that is.
    ['unexpected', 'UnexpectedSystemError'],
  ];
  const pairs = SHARPEST_FIRST.flatMap(([sharper, sharperCode], i) =>
    SHARPEST_FIRST.slice(i + 1).map(([, blunterCode]) => [sharper, blunterCode, sharperCode] as const),
  );
  it.each(pairs)('of several codes the sharper wins, in either order: %s from %s and %s', (sharper, blunt, sharp) => {
    expect(category({ errorCodes: [blunt, sharp] })).toBe(sharper);
    expect(category({ errorCodes: [sharp, blunt] })).toBe(sharper);
    expect(category({ errorType: blunt, errorCodes: [sharp] })).toBe(sharper);
  });

  it('keeps UnexpectedSystemError (an exception of ours) apart from Unclassifiable', () => {
    expect(classifyError({ errorType: 'UnexpectedSystemError' }).errorType).toBe('UnexpectedSystemError');
    expect(classifyError({ message: 'the flux capacitor wobbled' }).errorType).toBe(UNCLASSIFIABLE);
  });

  it('falls back to the text when the status says nothing', () => {
    expect(classifyError({ status: 418, message: 'Connection error.' })).toMatchObject({
      category: 'connection',
      source: 'pattern',
    });
  });
});

describe('classifyError — exception class names from the decision table', () => {
  it.each<[ErrorCategory, string, ErrorInput]>([
    ['rate_limit', 'ModelRateLimitError', { status: 429 }],
    ['timeout', 'ModelTimeoutError', { timedOut: true }],
    ['connection', 'ModelConnectionError', { message: 'fetch failed' }],
    ['unexpected', 'UnexpectedSystemError', { errorType: 'UnexpectedSystemError' }],
    ['unexpected', 'Unclassifiable', { message: '???' }],
  ])('%s → %s', (expectedCategory, errorType, input) => {
    expect(classifyError(input)).toMatchObject({ category: expectedCategory, errorType });
  });
});

describe('classifyError — retry hints', () => {
  it('carries the hint from the headers', () => {
    expect(classifyError({ status: 429, headers: { 'Retry-After': '12' } }).retryAfterMs).toBe(12_000);
  });

  it('carries the hint from the text', () => {
    expect(classifyError({ message: '429 You have hit your usage limit. Please retry in 30s' })).toMatchObject({
      category: 'usage_limit',
      retryAfterMs: 30_000,
    });
  });

  it('leaves retryAfterMs out when there is no hint', () => {
    expect(classifyError({ message: '503 Service Unavailable' })).not.toHaveProperty('retryAfterMs');
  });
});

describe('classifyError — unclassifiable and garbage', () => {
  it.each<[unknown]>([
    [{}],
    [{ message: '' }],
    [{ message: '   ' }],
    [{ message: 'something odd happened' }],
    [{ stopReason: 'error' }],
    [{ status: 418 }],
  ])('%j → unexpected / Unclassifiable / fallback', (input) => {
    expect(classifyError(input as ErrorInput)).toEqual({
      category: 'unexpected',
      errorType: UNCLASSIFIABLE,
      source: 'fallback',
    });
  });

  const throwing = new Proxy(
    {},
    {
      get: () => {
        throw new Error('boom');
      },
    },
  );
  const huge = 'x'.repeat(5_000_000);
  it.each<[string, unknown]>([
    ['undefined', undefined],
    ['null', null],
    ['a number', 42],
    ['a string', '429 Rate limit'],
    ['an array', ['429']],
    ['a numeric message', { message: 429 }],
    ['an object message', { message: { text: '429' } }],
    ['an Error as message', { message: new Error('429 Rate limit') }],
    ['a string status', { status: '429' }],
    ['a NaN status', { status: Number.NaN }],
    ['numeric headers', { headers: 5 }],
    ['a symbol errorType', { errorType: Symbol('x') }],
    ['a function', () => '429'],
    ['a throwing getter', throwing],
    ['a prototype-less object', Object.create(null) as object],
  ])('%s → unexpected, no throw', (_label, input) => {
    expect(() => classifyError(input as ErrorInput)).not.toThrow();
    expect(classifyError(input as ErrorInput).category).toBe('unexpected');
  });

  it('classifies a huge string quickly and without throwing', () => {
    // This process's CPU time, which other work on the machine does not stretch as it does the clock's.
    const started = process.cpuUsage();
    expect(category({ message: huge })).toBe('unexpected');
    expect(category({ message: `503 Service Unavailable ${huge}` })).toBe('server_error');
    const { user, system } = process.cpuUsage(started);
    expect((user + system) / 1000).toBeLessThan(2000);
  });

  it('always returns a known category', () => {
    const inputs: unknown[] = [{ message: '429' }, { status: 599 }, { message: 'x' }, 7, { stopReason: 'aborted' }];
    for (const input of inputs) expect(ERROR_CATEGORIES).toContain(classifyError(input as ErrorInput).category);
  });
});

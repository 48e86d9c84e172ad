// Regression tests of classifyError for the real provider shapes that used to be misread (see
// docs/classification.md): errors inside a 200 stream, Anthropic spend and credit limits, the
// hint that belongs to the limit that was hit, quota wording on ordinary rate limits, key errors,
// and Google's structured status names. Inputs are what the HTTP-facts recorder hands over.
import { describe, expect, it } from 'vitest';
import { classifyError, type ErrorInput } from '../../../../src/main/core/retry/classify-error';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const classify = (input: ErrorInput) => classifyError({ now: NOW, ...input });

describe('errors that arrive inside a stream after a 200', () => {
  it.each<[string, ErrorInput]>([
    [
      'Responses error event (text only)',
      { message: 'Error Code server_error: The server had an error while processing your request. Sorry about that!' },
    ],
    [
      'Responses response.failed (text only)',
      {
        message:
          'server_error: An error occurred while processing your request. You can retry your request, or contact us through our help center at help.openai.com if the error persists.',
      },
    ],
    [
      'Chat Completions error chunk (text only)',
      { message: 'The server had an error while processing your request. Sorry about that!' },
    ],
    [
      'Responses error event with the stream facts',
      { status: 200, errorCodes: ['server_error'], message: 'Error Code server_error: x' },
    ],
  ])('%s → server_error', (_label, input) => {
    expect(classify(input).category).toBe('server_error');
  });

  it("reads the provider's own message when the SDK's text lost it", () => {
    const input: ErrorInput = {
      status: 200,
      errorCodes: ['UNAVAILABLE'],
      providerMessage: 'The model is overloaded. Please try again later.',
      message: 'Incomplete JSON segment at the end',
    };
    expect(classify(input).category).toBe('overloaded');
  });

  it('ignores the reset headers of the 200 that carried a mid-stream server error', () => {
    const result = classify({
      status: 200,
      errorCodes: ['server_error'],
      headers: { 'x-ratelimit-reset-tokens': '6m0s', 'x-ratelimit-remaining-tokens': '0' },
      message: 'server_error: An error occurred while processing your request.',
    });
    expect(result).toMatchObject({ category: 'server_error' });
    expect(result.retryAfterMs).toBeUndefined();
  });
});

describe('Anthropic spend and credit limits are usage limits', () => {
  it('429 rate_limit_error whose details.error_code is enforced_spend_limit_reached', () => {
    expect(
      classify({
        status: 429,
        errorType: 'enforced_spend_limit_reached',
        errorCodes: ['enforced_spend_limit_reached', 'rate_limit_error'],
        message: `429 {"type":"error","error":{"type":"rate_limit_error","message":"Rate limited"}}`,
      }).category,
    ).toBe('usage_limit');
  });

  it.each([
    'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
    'You have reached your specified API usage limits. You will regain access on 2026-04-01 at 00:00 UTC.',
    "This request would exceed your account's monthly spend limit. Please try again later.",
  ])('%s', (text) => {
    const status = text.includes('spend limit') ? 429 : 400;
    const type = status === 429 ? 'rate_limit_error' : 'invalid_request_error';
    const message = `${status} {"type":"error","error":{"type":"${type}","message":"${text}"}}`;
    expect(classify({ status, errorCodes: [type], message }).category).toBe('usage_limit');
    expect(classify({ message }).category).toBe('usage_limit');
  });
});

describe('the wait hint belongs to the limit that was hit', () => {
  const rpm =
    'Rate limit reached for gpt-4o in organization org-x on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 1s.';

  it('takes "try again in 1s", not the 6m0s token reset', () => {
    const headers = { 'x-ratelimit-reset-tokens': '6m0s', 'x-ratelimit-reset-requests': '1s' };
    expect(
      classify({ status: 429, errorCodes: ['rate_limit_exceeded'], headers, message: `429 ${rpm}` }),
    ).toMatchObject({
      category: 'rate_limit',
      retryAfterMs: 1000,
    });
  });

  it('puts retry-after first', () => {
    const headers = { 'retry-after': '2', 'x-ratelimit-reset-tokens': '6m0s' };
    expect(classify({ status: 429, headers, message: `429 ${rpm}` }).retryAfterMs).toBe(2000);
  });

  it('takes the reset of the limit the message names when there is no other hint', () => {
    const headers = {
      'anthropic-ratelimit-requests-reset': '2026-03-01T12:00:30Z',
      'anthropic-ratelimit-input-tokens-reset': '2026-03-01T12:00:04Z',
      'anthropic-ratelimit-output-tokens-reset': '2026-03-01T12:00:09Z',
    };
    const message =
      '429 {"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization of 50,000 input tokens per minute."}}';
    expect(classify({ status: 429, errorCodes: ['rate_limit_error'], headers, message }).retryAfterMs).toBe(4000);
  });

  it('else the smallest reset of an exhausted limit', () => {
    const headers = {
      'x-ratelimit-reset-requests': '20ms',
      'x-ratelimit-remaining-requests': '57',
      'x-ratelimit-reset-tokens': '3s',
      'x-ratelimit-remaining-tokens': '0',
    };
    expect(classify({ status: 429, headers, message: '429 Too Many Requests' }).retryAfterMs).toBe(3000);
  });
});

describe('quota or billing wording does not make an ordinary rate limit a usage limit', () => {
  it('Gemini RESOURCE_EXHAUSTED with a RetryInfo delay is a rate limit with that hint', () => {
    const message =
      '{"error":{"code":429,"message":"You exceeded your current quota, please check your plan and billing details.","status":"RESOURCE_EXHAUSTED"}}';
    expect(
      classify({
        status: 429,
        errorType: 'RESOURCE_EXHAUSTED',
        errorCodes: ['RESOURCE_EXHAUSTED'],
        retryDelay: '32s',
        message,
      }),
    ).toMatchObject({ category: 'rate_limit', retryAfterMs: 32_000 });
  });

  it('a per-day Gemini quota is a usage limit', () => {
    expect(
      classify({
        status: 429,
        errorCodes: ['RESOURCE_EXHAUSTED'],
        quotaIds: [
          'GenerateRequestsPerDayPerProjectPerModel-FreeTier',
          'GenerateRequestsPerMinutePerProjectPerModel-FreeTier',
        ],
        retryDelay: '47s',
        message: 'You exceeded your current quota',
      }),
    ).toMatchObject({ category: 'usage_limit', retryAfterMs: 47_000 });
  });

  it("OpenAI's per-minute 429 with a billing link stays a rate limit", () => {
    const message =
      '429 Rate limit reached for gpt-3.5-turbo in organization org-x on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s. You can increase your rate limit by adding a payment method to your account at https://platform.openai.com/account/billing.';
    expect(classify({ status: 429, errorCodes: ['rate_limit_exceeded', 'requests'], message }).category).toBe(
      'rate_limit',
    );
    expect(classify({ message }).category).toBe('rate_limit');
  });

  it('insufficient_quota stays a usage limit', () => {
    const message = '429 You exceeded your current quota, please check your plan and billing details.';
    expect(classify({ status: 429, errorCodes: ['insufficient_quota'], message }).category).toBe('usage_limit');
  });
});

describe('key errors are auth whatever the body type says', () => {
  it.each<[string, ErrorInput]>([
    [
      'OpenAI 401 invalid_request_error',
      { status: 401, errorType: 'invalid_request_error', message: '401 Incorrect API key provided: sk-x.' },
    ],
    ['OpenAI 401 with the code', { status: 401, errorCodes: ['invalid_api_key', 'invalid_request_error'] }],
    [
      'Gemini 400 API_KEY_INVALID',
      {
        status: 400,
        errorCodes: ['API_KEY_INVALID', 'INVALID_ARGUMENT'],
        message: 'API key not valid. Please pass a valid API key.',
      },
    ],
    [
      'Gemini text only',
      {
        message:
          '{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}',
      },
    ],
  ])('%s → auth', (_label, input) => {
    expect(classify(input).category).toBe('auth');
  });
});

describe("Google's status names", () => {
  it.each<[string, string, number, string]>([
    ['UNAVAILABLE', 'The model is overloaded. Please try again later.', 503, 'overloaded'],
    ['UNAVAILABLE', 'The service is currently unavailable.', 503, 'server_error'],
    ['INTERNAL', 'An internal error has occurred.', 500, 'server_error'],
    ['DEADLINE_EXCEEDED', 'The request timed out.', 504, 'timeout'],
    ['NOT_FOUND', 'models/x is not found for API version v1beta', 404, 'bad_request'],
    ['PERMISSION_DENIED', 'Permission denied.', 403, 'auth'],
  ])('%s (%s) → %s', (code, message, status, expected) => {
    expect(classify({ status, errorCodes: [code], message }).category).toBe(expected);
  });
});

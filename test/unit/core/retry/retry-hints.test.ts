// Unit tests of parseRetryHint (src/main/core/retry-hints.ts): every header and message form a
// provider uses to ask for a wait, which hint wins when there are several, and that garbage never
// throws.
import { describe, expect, it } from 'vitest';
import {
  hintsFromMessage,
  MAX_PLAUSIBLE_HINT_MS,
  parseDuration,
  parseRetryHint,
} from '../../../../src/main/core/retry/retry-hints';

const NOW = Date.parse('2026-01-12T10:00:00.000Z');

describe('parseRetryHint — headers', () => {
  it.each([
    [{ 'retry-after-ms': '1500' }, 1500],
    [{ 'Retry-After-Ms': '250.4' }, 250],
    [{ 'retry-after': '30' }, 30_000],
    [{ 'Retry-After': '1.5' }, 1500],
    [{ 'RETRY-AFTER': 'Mon, 12 Jan 2026 10:00:45 GMT' }, 45_000],
    [{ 'x-ratelimit-reset': '20' }, 20_000],
    [{ 'x-ratelimit-reset': String(NOW / 1000 + 42) }, 42_000],
    [{ 'x-ratelimit-reset': String(NOW + 7000) }, 7000],
    [{ 'x-ratelimit-reset': '6m0s' }, 360_000],
    [{ 'x-ratelimit-reset': '1.5s' }, 1500],
    [{ 'x-ratelimit-reset': '250ms' }, 250],
    [{ 'x-ratelimit-reset-requests': '1m30s' }, 90_000],
    [{ 'X-RateLimit-Reset-Tokens': '2h' }, 7_200_000],
  ])('%j → %d ms', (headers, expected) => {
    expect(parseRetryHint({ headers, now: NOW })).toBe(expected);
  });

  it('ignores headers it does not know', () => {
    expect(
      parseRetryHint({ headers: { 'x-ratelimit-limit-requests': '60', 'content-length': '5000' }, now: NOW }),
    ).toBeUndefined();
  });

  it.each([
    [{ 'retry-after': '-5' }],
    [{ 'retry-after': 'NaN' }],
    [{ 'retry-after': 'soon' }],
    [{ 'retry-after-ms': 'abc' }],
    [{ 'retry-after': 'Mon, 12 Jan 2026 09:59:00 GMT' }],
    [{ 'retry-after': '99999999' }],
    [{ 'x-ratelimit-reset': '-1s' }],
    [{ 'x-ratelimit-reset': '' }],
  ])('ignores negative, non-numeric, past and absurd values: %j', (headers) => {
    expect(parseRetryHint({ headers, now: NOW })).toBeUndefined();
  });
});

describe('parseRetryHint — message text', () => {
  it.each([
    ['429 Rate limit reached. Please retry in 30s', 30_000],
    ['Please try again in 20 seconds.', 20_000],
    ['Please retry after 5 seconds', 5000],
    ['retry after 1.5s', 1500],
    ['Rate limit reached for gpt-4o. Please try again in 250ms.', 250],
    ['Please try again in 6m0s.', 360_000],
    ['{"error":{"details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay": "30s"}]}}', 30_000],
    ['{\\"retryDelay\\":\\"12s\\"}', 12_000],
    ['Your quota resets in 2m', 120_000],
    ['You have hit your ChatGPT usage limit (plus plan). Try again in ~60 min.', 3_600_000],
    ['retry-after: 10', 10_000],
    ['Please retry after 5.', 5000],
    ['try again in 2 minutes 30 seconds', 150_000],
    ['Please try again in 20 Seconds.', 20_000],
    ['RETRY IN 2 MINUTES', 120_000],
    ['retry_after_ms=1500', 1500],
    // A trigger with no number is passed over, not the end of the search.
    ['retry after a short pause; retry in 30s', 30_000],
  ])('%s → %d ms', (message, expected) => {
    expect(parseRetryHint({ message })).toBe(expected);
  });

  it.each([
    ['500 Internal server error'],
    ['Please retry later'],
    ['retry in a moment'],
    ['retry after 5 attempts'],
    ['Connection error.'],
    [''],
  ])('finds no hint in %j', (message) => {
    expect(parseRetryHint({ message })).toBeUndefined();
  });

  it('lists every wait the text asks for, skipping triggers without a number', () => {
    expect(hintsFromMessage('retry in a moment, then try again in 5s; retry-after: 7')).toEqual([5000, 7000]);
  });

  it('ignores an absurd hint in the text', () => {
    expect(parseRetryHint({ message: 'try again in 400 days' })).toBeUndefined();
    expect(MAX_PLAUSIBLE_HINT_MS).toBe(604_800_000);
  });
});

describe('parseRetryHint — several hints', () => {
  const all = {
    headers: { 'retry-after': '5', 'x-ratelimit-reset-tokens': '45s' },
    message: 'retry in 30s, or try again in 10 seconds',
    retryDelay: '20s',
    now: NOW,
  };

  it('takes retry-after first, then RetryInfo, then the first text hint, then the resets', () => {
    expect(parseRetryHint(all)).toBe(5000);
    expect(parseRetryHint({ ...all, headers: { 'x-ratelimit-reset-tokens': '45s' } })).toBe(20_000);
    expect(parseRetryHint({ ...all, headers: { 'x-ratelimit-reset-tokens': '45s' }, retryDelay: undefined })).toBe(
      30_000,
    );
    expect(parseRetryHint({ headers: { 'x-ratelimit-reset-tokens': '45s' }, now: NOW })).toBe(45_000);
  });

  it('reads Anthropic reset stamps and prefers the one of the named limit', () => {
    const headers = {
      'anthropic-ratelimit-requests-reset': '2026-01-12T10:00:30Z',
      'anthropic-ratelimit-tokens-reset': '2026-01-12T10:00:09Z',
    };
    expect(parseRetryHint({ headers, message: 'too many requests per minute', now: NOW })).toBe(30_000);
    expect(parseRetryHint({ headers, message: 'Number of request tokens has exceeded', now: NOW })).toBe(9000);
    expect(parseRetryHint({ headers, message: 'rate limited', now: NOW })).toBe(9000);
  });

  // OpenAI's per-kind resets beside a generic one that is always the soonest: the named kind must win.
  const openai = {
    'x-ratelimit-reset': '5s',
    'x-ratelimit-reset-requests': '30s',
    'x-ratelimit-reset-tokens': '50s',
  };
  it.each([
    ['Rate limit reached for requests per minute', 30_000],
    ['limit on request per day reached', 30_000],
    ['too many requests (RPM)', 30_000],
    ['daily cap (RPD)', 30_000],
    ['the number of requests is too high', 30_000],
    ['Rate limit reached for tokens per minute', 50_000],
    ['token per day exceeded', 50_000],
    ['over the limit (TPM)', 50_000],
    ['over the limit (TPD)', 50_000],
    ['rate limited', 5000],
  ])('the reset of the limit the message names, not the soonest: %s → %d ms', (message, expected) => {
    expect(parseRetryHint({ headers: openai, message, now: NOW })).toBe(expected);
  });

  const anthropic = {
    'anthropic-ratelimit-requests-reset': '4',
    'anthropic-ratelimit-tokens-reset': '40',
    'anthropic-ratelimit-input-tokens-reset': '20',
    'anthropic-ratelimit-output-tokens-reset': '60',
  };
  it.each([
    ['This request would exceed the rate limit of 50,000 input tokens per minute', 20_000],
    ['input_token limit', 20_000],
    ['input-tokens limit exceeded', 20_000],
    ['would exceed the output-tokens limit', 60_000],
    ['Output token rate limit', 60_000],
    ['the request tokens limit', 40_000],
  ])('Anthropic: the named limit wins over the soonest: %s → %d ms', (message, expected) => {
    expect(parseRetryHint({ headers: anthropic, message, now: NOW })).toBe(expected);
  });

  it('input or output tokens with no reset of their own fall back to the tokens limit, requests do not', () => {
    const headers = { 'anthropic-ratelimit-requests-reset': '4', 'anthropic-ratelimit-tokens-reset': '40' };
    expect(parseRetryHint({ headers, message: '50,000 input tokens per minute', now: NOW })).toBe(40_000);
    expect(parseRetryHint({ headers, message: 'output tokens per minute', now: NOW })).toBe(40_000);
    const tokensOnly = { 'x-ratelimit-reset': '5s', 'x-ratelimit-reset-tokens': '50s' };
    expect(parseRetryHint({ headers: tokensOnly, message: 'too many requests (RPM)', now: NOW })).toBe(5000);
  });

  it('with no limit named, the soonest reset of a used-up limit, not the soonest of all', () => {
    expect(
      parseRetryHint({
        headers: {
          'x-ratelimit-reset-requests': '5s',
          'x-ratelimit-remaining-requests': '3',
          'x-ratelimit-reset-tokens': '40s',
          'x-ratelimit-remaining-tokens': '0',
          'x-ratelimit-reset': '30s',
          'x-ratelimit-remaining': ' 0 ',
        },
        message: 'rate limited',
        now: NOW,
      }),
    ).toBe(30_000);
    expect(
      parseRetryHint({
        headers: {
          'anthropic-ratelimit-requests-reset': '4',
          'anthropic-ratelimit-requests-remaining': '10',
          'anthropic-ratelimit-tokens-reset': '40',
          'anthropic-ratelimit-tokens-remaining': '0',
        },
        message: 'rate limited',
        now: NOW,
      }),
    ).toBe(40_000);
  });

  it('ignores the resets when no limit was hit', () => {
    expect(parseRetryHint({ headers: { 'x-ratelimit-reset-tokens': '45s' }, limitHit: false, now: NOW })).toBe(
      undefined,
    );
    expect(parseRetryHint({ headers: { 'retry-after': '3' }, limitHit: false, now: NOW })).toBe(3000);
  });

  it('keeps a valid hint when another one is garbage', () => {
    expect(parseRetryHint({ headers: { 'retry-after': '-3', 'retry-after-ms': '800' }, now: NOW })).toBe(800);
  });
});

describe('parseRetryHint — never throws', () => {
  const hostile = new Proxy(
    {},
    {
      get: () => {
        throw new Error('boom');
      },
    },
  );
  // The input is typed (its facts were read at the edge): only sizes and a throwing read are tried.
  it.each([
    // The hint lies past the first 64,000 characters, where nobody puts one.
    [{ message: 'retry in '.repeat(200_000) + '5s' }, undefined],
    [{ message: 'x'.repeat(63_000) + ' retry in 5s' }, 5000],
    [{ message: 'x'.repeat(64_000) + ' retry in 5s' }, undefined],
    [hostile, undefined],
  ])('%#: returns the hint or undefined, never throws', (input, expected) => {
    expect(parseRetryHint(input as never)).toBe(expected);
  });

  it('a time that is not a number falls back to the clock', () => {
    const inAMinute = new Date(Math.floor(Date.now() / 1000) * 1000 + 60_000).toUTCString();
    const ms = parseRetryHint({ now: Number.NaN, headers: { 'retry-after': inAMinute } });
    expect(ms).toBeGreaterThan(57_000);
    expect(ms).toBeLessThanOrEqual(60_000);
  });
});

describe('parseDuration', () => {
  it.each([
    ['6m0s', 360_000],
    ['1h2m3s', 3_723_000],
    ['250ms', 250],
    ['1.5s', 1500],
    ['2 minutes', 120_000],
    ['1d', 86_400_000],
  ])('%s → %d ms', (text, expected) => {
    expect(parseDuration(text)).toBe(expected);
  });

  it.each([['6x'], ['s'], ['5'], ['5 apples']])('rejects %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});

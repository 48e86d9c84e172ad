// Rate-limit pacing (src/main/core/rate-pacing.ts; docs/retry-policy.md, "Rate-limit pacing"):
// the wait read from each provider's rate-limit headers, parameterised; what the pacer remembers
// per provider; and the one wait of a held prompt (it runs out, "Send anyway", Stop).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PacingHold, RatePacer, pacingWaitMs, type PacingFacts } from '../../../../src/main/core/retry/rate-pacing';

const NOW = Date.UTC(2025, 0, 1, 12);
const iso = (ms: number) => new Date(NOW + ms).toISOString();

describe('pacingWaitMs', () => {
  it.each<[string, PacingFacts, number]>([
    [
      'OpenAI: requests used up, reset in 12s',
      { status: 200, headers: { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '12s' } },
      12_000,
    ],
    [
      'OpenAI: tokens used up, reset in 1m30s',
      { status: 200, headers: { 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '1m30s' } },
      90_000,
    ],
    [
      'OpenAI: room left, no wait',
      { status: 200, headers: { 'x-ratelimit-remaining-requests': '59', 'x-ratelimit-reset-requests': '1s' } },
      0,
    ],
    [
      'Anthropic: requests used up, reset at a time',
      {
        status: 200,
        headers: { 'anthropic-ratelimit-requests-remaining': '0', 'anthropic-ratelimit-requests-reset': iso(8000) },
      },
      8000,
    ],
    [
      'Anthropic: input tokens used up',
      {
        status: 200,
        headers: {
          'anthropic-ratelimit-input-tokens-remaining': '0',
          'anthropic-ratelimit-input-tokens-reset': iso(30_000),
          'anthropic-ratelimit-requests-remaining': '10',
          'anthropic-ratelimit-requests-reset': iso(1000),
        },
      },
      30_000,
    ],
    [
      'two limits used up: the later reset',
      {
        status: 200,
        headers: {
          'x-ratelimit-remaining-requests': '0',
          'x-ratelimit-reset-requests': '5s',
          'x-ratelimit-remaining-tokens': '0',
          'x-ratelimit-reset-tokens': '20s',
        },
      },
      20_000,
    ],
    ['a 429 with retry-after', { status: 429, headers: { 'retry-after': '7' } }, 7000],
    ['a 429 with retry-after-ms', { status: 429, headers: { 'retry-after-ms': '1500' } }, 1500],
    ['retry-after on a success means nothing', { status: 200, headers: { 'retry-after': '7' } }, 0],
    [
      'generic x-ratelimit-remaining 0 with an epoch reset',
      { status: 200, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String((NOW + 4000) / 1000) } },
      4000,
    ],
    [
      'garbage reset values are ignored',
      { status: 200, headers: { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': 'soon' } },
      0,
    ],
    ['no headers', { status: 200 }, 0],
  ])('%s', (_name, facts, expected) => {
    expect(pacingWaitMs(facts, NOW)).toBe(expected);
  });
});

describe('RatePacer', () => {
  it('holds a provider until its reset, then lets it go; other providers are not held', () => {
    const pacer = new RatePacer();
    pacer.observe(
      'openai',
      { status: 200, headers: { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '12s' } },
      NOW,
    );
    expect(pacer.waitMs('openai', NOW)).toBe(12_000);
    expect(pacer.waitMs('openai', NOW + 5000)).toBe(7000);
    expect(pacer.waitMs('anthropic', NOW)).toBe(0);
    expect(pacer.waitMs('openai', NOW + 12_000)).toBe(0);
  });

  it('a later response with room left clears the hold; one without facts changes nothing', () => {
    const pacer = new RatePacer();
    pacer.observe('openai', { status: 429, headers: { 'retry-after': '30' } }, NOW);
    pacer.observe('openai', undefined, NOW + 1);
    expect(pacer.waitMs('openai', NOW + 1000)).toBe(29_000);
    pacer.observe('openai', { status: 200, headers: { 'x-ratelimit-remaining-requests': '3' } }, NOW + 2000);
    expect(pacer.waitMs('openai', NOW + 2000)).toBe(0);
  });

  it('remembers a hold set by a usage limit as one, so the held prompt can say "usage limit"', () => {
    const pacer = new RatePacer();
    pacer.observe('openai', { status: 429, headers: { 'retry-after': '7200' } }, NOW, 'usage_limit');
    pacer.observe('anthropic', { status: 429, headers: { 'retry-after': '30' } }, NOW, 'rate_limit');
    expect(pacer.limitOf('openai')).toBe('usage');
    expect(pacer.limitOf('anthropic')).toBe('rate');
    expect(pacer.waitMs('openai', NOW)).toBe(7_200_000);
  });

  it('forget drops the hold ("Send anyway")', () => {
    const pacer = new RatePacer();
    pacer.observe('openai', { status: 429, headers: { 'retry-after': '30' } }, NOW);
    pacer.forget('openai');
    expect(pacer.waitMs('openai', NOW)).toBe(0);
  });
});

describe('PacingHold', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
  afterEach(() => vi.useRealTimers());

  it.each<[string, (hold: PacingHold) => void, string, number]>([
    ['runs out at the reset', () => undefined, 'reset', 12_000],
    ['"Send anyway" ends it at once', (hold) => hold.sendAnyway(), 'sent_anyway', 0],
    ['Stop cancels it', (hold) => hold.cancel(), 'cancelled', 0],
  ])('%s', async (_name, act, outcome, after) => {
    const hold = new PacingHold();
    const waiting = hold.wait(12_000);
    expect(hold.isWaiting).toBe(true);
    act(hold);
    await vi.advanceTimersByTimeAsync(after);
    await expect(waiting).resolves.toBe(outcome);
    expect(hold.isWaiting).toBe(false);
    expect(hold.sendAnyway()).toBe(false);
  });
});

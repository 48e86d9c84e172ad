// Unit tests of decideRetry (src/main/core/decide-retry.ts) as docs/retry-policy.md describes it:
// each row of the table parameterised, finiteness per category by looping decideRetry until it
// stops, backoff values, jitter bounds, provider hints and the maxDelayMs fail-fast, and overrides.
import { describe, expect, it, vi } from 'vitest';
import type { ErrorCategory } from '../../../../src/shared/error-category';
import { DEFAULT_SETTINGS, type RetrySettings } from '../../../../src/shared/settings';
import { classifyError } from '../../../../src/main/core/retry/classify-error';
import { resolveRow } from '../../../../src/shared/retry-policy/decision-table';
import {
  afterUsageLimitSwitch,
  decideRetry,
  type DecisionError,
  type RetryDecision,
} from '../../../../src/main/core/retry/decide-retry';

const defaults: RetrySettings = DEFAULT_SETTINGS.retry;
const withRetry = (patch: Partial<RetrySettings>): RetrySettings => ({ ...defaults, ...patch });
const zero = (): number => 0;

/** Drive decideRetry the way the retry controller does; returns the attempts made, first try included. */
function runChain(
  error: DecisionError,
  settings: RetrySettings = defaults,
  random: () => number = zero,
): { attempts: number; decisions: RetryDecision[] } {
  const decisions: RetryDecision[] = [];
  for (let attempt = 1; attempt <= 100; attempt += 1) {
    const decision = decideRetry(error, attempt, settings, random);
    decisions.push(decision);
    if (!decision.shouldRetry) return { attempts: attempt, decisions };
  }
  throw new Error(`${error.category} retried 100 times: not finite`);
}

describe('the table, row by row (defaults)', () => {
  it.each<[ErrorCategory, RetryDecision['action'], number, RetryDecision['backoff'], boolean, string]>([
    ['rate_limit', 'retry', 5, 'exponential', true, 'ModelRateLimitError'],
    ['timeout', 'retry', 3, 'linear', false, 'ModelTimeoutError'],
    ['connection', 'retry', 3, 'exponential', true, 'ModelConnectionError'],
    ['invalid_output', 'retry', 3, 'linear', false, 'InvalidModelOutputError'],
    ['overloaded', 'retry', 4, 'exponential', false, 'ModelOverloadedError'],
    ['server_error', 'retry', 4, 'exponential', false, 'ModelServerError'],
    ['usage_limit', 'retry', 4, 'exponential', false, 'ModelUsageLimitError'],
    ['context_overflow', 'compact', 0, 'none', false, 'ContextOverflowError'],
    ['sandbox', 'abort', 0, 'none', false, 'SandboxExecutionError'],
    ['sandbox_security', 'abort', 0, 'none', false, 'SandboxSecurityError'],
    ['patch_apply', 'abort', 0, 'none', false, 'PatchApplyError'],
    ['auth', 'abort', 0, 'none', false, 'ModelAuthError'],
    ['bad_request', 'abort', 0, 'none', false, 'ModelBadRequestError'],
    ['aborted', 'abort', 0, 'none', false, 'RequestAbortedError'],
    ['unexpected', 'abort', 0, 'none', false, 'UnexpectedSystemError'],
  ])(
    '%s: %s, %d attempts, %s backoff (jitter %s), %s',
    (category, action, maxAttempts, backoff, jitter, exceptionClass) => {
      const row = resolveRow(category, defaults);
      expect(row).toMatchObject({ action, maxAttempts, backoff, jitter, exceptionClass });
      const first = decideRetry({ category }, 1, defaults, zero);
      expect(first).toMatchObject({ action, maxAttempts, backoff, category, shouldRetry: action === 'retry' });
    },
  );
});

describe('finiteness: attempts made before the chain stops', () => {
  it.each<[ErrorCategory, number]>([
    ['rate_limit', 5],
    ['timeout', 3],
    ['connection', 3],
    ['invalid_output', 3],
    ['overloaded', defaults.maxRetries + 1],
    ['server_error', defaults.maxRetries + 1],
    ['usage_limit', defaults.maxRetries + 1],
  ])('%s aborts after %d attempts', (category, expectedAttempts) => {
    const { attempts, decisions } = runChain({ category });
    expect(attempts).toBe(expectedAttempts);
    expect(decisions.slice(0, -1).every((d) => d.action === 'retry')).toBe(true);
    expect(decisions.at(-1)).toMatchObject({ action: 'abort', shouldRetry: false, waitMs: 0 });
  });

  it.each<ErrorCategory>([
    'sandbox',
    'sandbox_security',
    'patch_apply',
    'auth',
    'bad_request',
    'aborted',
    'unexpected',
  ])('%s aborts at once', (category) => {
    const { attempts, decisions } = runChain({ category });
    expect(attempts).toBe(1);
    expect(decisions[0]).toMatchObject({ action: 'abort', maxAttempts: 0, shouldRetry: false, waitMs: 0 });
  });

  it('hands context_overflow to compaction at once, never retrying', () => {
    const { attempts, decisions } = runChain({ category: 'context_overflow' });
    expect(attempts).toBe(1);
    expect(decisions[0]).toMatchObject({ action: 'compact', shouldRetry: false, waitMs: 0 });
  });

  it('aborts an unclassifiable error string at once', () => {
    const classification = classifyError({ message: 'the flux capacitor wobbled' });
    expect(classification.errorType).toBe('Unclassifiable');
    const { attempts, decisions } = runChain(classification);
    expect(attempts).toBe(1);
    expect(decisions[0].action).toBe('abort');
    expect(decisions[0].reason).toMatch(/unclassifiable/i);
  });

  it.each([0, 9])('inherited rows follow maxRetries = %d', (maxRetries) => {
    for (const category of ['overloaded', 'server_error', 'usage_limit'] as const) {
      expect(runChain({ category }, withRetry({ maxRetries })).attempts).toBe(maxRetries + 1);
    }
  });

  it('stays finite whatever the settings say', () => {
    const wild = { ...defaults, maxRetries: 1e9, policy: { rate_limit: { maxAttempts: 1e9 } } } as RetrySettings;
    expect(runChain({ category: 'rate_limit' }, wild).attempts).toBe(10);
    expect(runChain({ category: 'server_error' }, wild).attempts).toBe(10);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '1' as unknown as number])(
    'treats attempt %s as an abort, not a throw',
    (attempt) => {
      const decision = decideRetry({ category: 'rate_limit' }, attempt, defaults, zero);
      expect(decision).toMatchObject({ action: 'abort', shouldRetry: false, waitMs: 0 });
      expect(decision.reason).toMatch(/invalid attempt/);
    },
  );

  it('aborts when auto-retry is off', () => {
    expect(decideRetry({ category: 'server_error' }, 1, withRetry({ enabled: false }))).toMatchObject({
      action: 'abort',
      shouldRetry: false,
    });
  });

  it.each<[DecisionError, string]>([
    [{ category: 'context_overflow' }, 'context overflow: handed to compaction, not retried'],
    [{ category: 'unexpected', errorType: 'Unclassifiable' }, 'unclassifiable error: aborted at once, never retried'],
    [
      { category: 'unexpected', errorType: 'UnexpectedSystemError' },
      'unexpected (UnexpectedSystemError) is not retryable: aborted at once',
    ],
    [{ category: 'auth' }, 'auth (ModelAuthError) is not retryable: aborted at once'],
    [
      { category: 'bad_request', errorType: 'invalid_request_error' },
      'bad_request (ModelBadRequestError) is not retryable: aborted at once',
    ],
    [{ category: 'sandbox_security' }, 'sandbox_security (SandboxSecurityError) is not retryable: aborted at once'],
  ])('says why %j is not retried', (error, reason) => {
    expect(decideRetry(error, 1, defaults, zero)).toMatchObject({ shouldRetry: false, waitMs: 0, reason });
  });

  it('says why a retry is given up or off', () => {
    expect(decideRetry({ category: 'server_error' }, 1, withRetry({ enabled: false }), zero).reason).toBe(
      'auto-retry is turned off',
    );
    expect(decideRetry({ category: 'rate_limit' }, 0, defaults, zero).reason).toBe('invalid attempt number 0: aborted');
    const max = resolveRow('timeout', defaults).maxAttempts;
    expect(decideRetry({ category: 'timeout' }, max, defaults, zero).reason).toBe(
      `timeout: ${max} of ${max} attempts used, giving up`,
    );
  });
});

describe('backoff', () => {
  it.each(['overloaded', 'server_error', 'usage_limit'] as const)(
    '%s waits 2000, 4000, 8000 ms exactly (no jitter)',
    (category) => {
      const random = vi.fn(() => 0.9);
      const waits = [1, 2, 3].map((attempt) => decideRetry({ category }, attempt, defaults, random).waitMs);
      expect(waits).toEqual([2000, 4000, 8000]);
      expect(random).not.toHaveBeenCalled();
    },
  );

  it.each(['rate_limit', 'connection'] as const)('%s adds jitter to 2000, 4000 ms', (category) => {
    expect([1, 2].map((a) => decideRetry({ category }, a, defaults, zero).waitMs)).toEqual([2000, 4000]);
    expect([1, 2].map((a) => decideRetry({ category }, a, defaults, () => 0.5).waitMs)).toEqual([2500, 4500]);
  });

  it('follows baseDelayMs', () => {
    expect(decideRetry({ category: 'server_error' }, 3, withRetry({ baseDelayMs: 20 })).waitMs).toBe(80);
  });

  it.each<[ErrorCategory, number]>([
    ['timeout', 10_000],
    ['invalid_output', 5_000],
  ])('%s waits a fixed %d ms on every attempt', (category, delayMs) => {
    expect([1, 2].map((a) => decideRetry({ category }, a, defaults, () => 0.7).waitMs)).toEqual([delayMs, delayMs]);
  });

  it.each(['rate_limit', 'connection'] as const)('%s jitter stays within [0, jitterMaxMs] and varies', (category) => {
    for (const attempt of [1, 2]) {
      const base = defaults.baseDelayMs * 2 ** (attempt - 1);
      const waits = Array.from({ length: 2000 }, () => decideRetry({ category }, attempt, defaults).waitMs);
      for (const wait of waits) {
        expect(wait).toBeGreaterThanOrEqual(base);
        expect(wait).toBeLessThanOrEqual(base + defaults.jitterMaxMs);
      }
      expect(new Set(waits).size).toBeGreaterThan(100);
      expect(Math.max(...waits) - Math.min(...waits)).toBeGreaterThan(defaults.jitterMaxMs / 2);
    }
  });

  it('keeps the wait finite when the random source misbehaves', () => {
    for (const bad of [() => Number.NaN, () => 5, () => -3]) {
      const wait = decideRetry({ category: 'rate_limit' }, 1, defaults, bad).waitMs;
      expect(wait).toBeGreaterThanOrEqual(2000);
      expect(wait).toBeLessThanOrEqual(3000);
    }
  });

  it('caps a computed backoff at maxDelayMs', () => {
    const settings = withRetry({ baseDelayMs: 20_000, maxRetries: 9 });
    expect(decideRetry({ category: 'server_error' }, 3, settings)).toMatchObject({
      action: 'retry',
      waitMs: 60_000,
    });
    expect(decideRetry({ category: 'timeout' }, 1, withRetry({ maxDelayMs: 4000 })).waitMs).toBe(4000);
  });
});

describe('provider hints', () => {
  it('raises the wait to the hint', () => {
    const decision = decideRetry({ category: 'rate_limit', retryAfterMs: 30_000 }, 1, defaults, zero);
    expect(decision).toMatchObject({ action: 'retry', waitMs: 30_000, hintMs: 30_000, shouldRetry: true });
  });

  it('keeps the backoff when the hint is shorter', () => {
    expect(decideRetry({ category: 'server_error', retryAfterMs: 500 }, 3, defaults)).toMatchObject({
      waitMs: 8000,
      hintMs: 500,
    });
  });

  it('accepts a hint equal to maxDelayMs', () => {
    expect(decideRetry({ category: 'rate_limit', retryAfterMs: 60_000 }, 1, defaults, zero)).toMatchObject({
      action: 'retry',
      waitMs: 60_000,
    });
  });

  it('fails fast when the hint is above maxDelayMs, naming the requested wait', () => {
    const decision = decideRetry({ category: 'usage_limit', retryAfterMs: 120_000 }, 1, defaults);
    expect(decision).toMatchObject({
      action: 'abort',
      shouldRetry: false,
      waitMs: 0,
      exceedsMaxDelay: true,
      hintMs: 120_000,
    });
    expect(decision.reason).toBe('provider asked to wait 120 s, above the 60 s maximum delay');
  });

  it.each([-5, Number.NaN, Number.POSITIVE_INFINITY])('ignores a hint of %s', (retryAfterMs) => {
    expect(decideRetry({ category: 'server_error', retryAfterMs }, 1, defaults)).toMatchObject({
      action: 'retry',
      waitMs: 2000,
    });
  });

  it('after a credential switch, the one decision becomes a retry at once, the hint check dropped', () => {
    const over = decideRetry({ category: 'usage_limit', retryAfterMs: 3_600_000 }, 1, defaults);
    expect(over).toMatchObject({ shouldRetry: false, exceedsMaxDelay: true });
    const switched = afterUsageLimitSwitch(over, 1);
    expect(switched).toEqual({
      category: 'usage_limit',
      maxAttempts: 4,
      backoff: 'exponential',
      attempt: 1,
      action: 'retry',
      shouldRetry: true,
      waitMs: 0,
      reason: 'usage_limit: switched credential, retry 1 of 3 at once',
    });
  });

  it('after a switch of model, the reason names both', () => {
    const waited = decideRetry({ category: 'usage_limit', retryAfterMs: 30_000 }, 2, defaults);
    expect(afterUsageLimitSwitch(waited, 2, { from: 'openai/gpt-b', to: 'google/gemini-c' }).reason).toBe(
      'usage_limit: usage limit on openai/gpt-b, switched to google/gemini-c, retry 2 of 3 at once',
    );
  });

  it('does not look at hints once the attempts are used up', () => {
    const decision = decideRetry({ category: 'rate_limit', retryAfterMs: 120_000 }, 5, defaults);
    expect(decision.action).toBe('abort');
    expect(decision.exceedsMaxDelay).toBeUndefined();
  });
});

describe('row overrides', () => {
  it('applies a maxAttempts override to its row only', () => {
    const settings = withRetry({ policy: { rate_limit: { maxAttempts: 2 } } });
    expect(resolveRow('rate_limit', settings)).toMatchObject({ maxAttempts: 2, origin: { maxAttempts: 'overridden' } });
    expect(runChain({ category: 'rate_limit' }, settings).attempts).toBe(2);
    expect(runChain({ category: 'connection' }, settings).attempts).toBe(3);
  });

  it('lets an override replace an inherited value', () => {
    const settings = withRetry({ maxRetries: 6, policy: { server_error: { maxAttempts: 2 } } });
    expect(runChain({ category: 'server_error' }, settings).attempts).toBe(2);
    expect(runChain({ category: 'overloaded' }, settings).attempts).toBe(7);
  });

  it('overrides a linear delay', () => {
    const settings = withRetry({ policy: { timeout: { delayMs: 2500 } } });
    expect(resolveRow('timeout', settings)).toMatchObject({ delayMs: 2500, origin: { delayMs: 'overridden' } });
    expect(decideRetry({ category: 'timeout' }, 2, settings).waitMs).toBe(2500);
  });

  it('switches an exponential row to linear at baseDelayMs unless a delay is given', () => {
    const plain = withRetry({ policy: { server_error: { backoff: 'linear' } } });
    expect(resolveRow('server_error', plain)).toMatchObject({
      backoff: 'linear',
      delayMs: 2000,
      origin: { backoff: 'overridden', delayMs: 'inherited' },
    });
    expect(decideRetry({ category: 'server_error' }, 3, plain).waitMs).toBe(2000);
    const timed = withRetry({ policy: { server_error: { backoff: 'linear', delayMs: 700 } } });
    expect(decideRetry({ category: 'server_error' }, 3, timed).waitMs).toBe(700);
  });

  it('switches a linear row to exponential', () => {
    const settings = withRetry({ policy: { invalid_output: { backoff: 'exponential' } } });
    expect([1, 2].map((a) => decideRetry({ category: 'invalid_output' }, a, settings).waitMs)).toEqual([2000, 4000]);
  });

  it('turns jitter off and on', () => {
    const settings = withRetry({ policy: { rate_limit: { jitter: false }, server_error: { jitter: true } } });
    expect(decideRetry({ category: 'rate_limit' }, 1, settings, () => 0.9).waitMs).toBe(2000);
    expect(decideRetry({ category: 'server_error' }, 1, settings, () => 0.5).waitMs).toBe(2500);
    expect(resolveRow('rate_limit', settings).origin.jitter).toBe('overridden');
  });

  it('ignores overrides of rows that never retry', () => {
    const settings = {
      ...defaults,
      policy: { auth: { maxAttempts: 5 }, context_overflow: { maxAttempts: 3 } },
    } as unknown as RetrySettings;
    expect(resolveRow('auth', settings)).toMatchObject({ action: 'abort', maxAttempts: 0, isOverridable: false });
    expect(runChain({ category: 'auth' }, settings).attempts).toBe(1);
    expect(runChain({ category: 'context_overflow' }, settings).decisions[0].action).toBe('compact');
  });
});

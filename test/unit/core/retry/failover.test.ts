// failoverStep (src/main/core/retry/failover.ts; docs/retry-policy.md, "Failover"): which of the
// table's decisions fail over to the next model of the list, parameterised like the table's own
// tests, and that without a list — or with none of it left — the decision stands unchanged.
import { describe, expect, it } from 'vitest';
import { decideRetry } from '../../../../src/main/core/retry/decide-retry';
import { failoverStep, type FailoverPort } from '../../../../src/main/core/retry/failover';
import type { ErrorCategory } from '../../../../src/shared/error-category';
import { DEFAULT_SETTINGS } from '../../../../src/shared/settings';

const FROM = { provider: 'anthropic' as const, model: 'claude-sonnet-4-5' };
const TO = { provider: 'openai' as const, model: 'gpt-5' };
const port = (next: FailoverPort['next'] = () => ({ from: FROM, to: TO })): FailoverPort => ({ next, use: () => {} });
const settings = { ...DEFAULT_SETTINGS.retry, jitterMaxMs: 0 };
const lastAttempt = (category: ErrorCategory) => decideRetry({ category }, 1, settings).maxAttempts;

describe('failoverStep', () => {
  it.each<[ErrorCategory, boolean]>([
    ['overloaded', true],
    ['server_error', true],
    ['connection', true],
    ['timeout', true],
    ['rate_limit', false],
    ['invalid_output', false],
    ['usage_limit', false],
  ])('%s out of attempts fails over: %s', (category, fails) => {
    const attempt = lastAttempt(category);
    const decision = decideRetry({ category }, attempt, settings);
    const step = failoverStep({ decision, attemptOnModel: attempt, online: true, port: port() });
    if (!fails) return expect(step).toEqual({ decision });
    expect(step.switchedModel).toEqual({ from: FROM, to: TO });
    expect(step.decision).toMatchObject({ action: 'retry', shouldRetry: true, waitMs: 0, category });
    expect(step.decision.reason).toBe(
      `${category}: ${attempt} of ${attempt} attempts used on anthropic/claude-sonnet-4-5, failed over to openai/gpt-5, retry at once`,
    );
  });

  it('a retry still due on this model, a non-retried row, or offline: the decision stands', () => {
    const early = decideRetry({ category: 'overloaded' }, 1, settings);
    expect(failoverStep({ decision: early, attemptOnModel: 1, online: true, port: port() })).toEqual({
      decision: early,
    });
    const auth = decideRetry({ category: 'auth' }, 1, settings);
    expect(failoverStep({ decision: auth, attemptOnModel: 1, online: true, port: port() })).toEqual({ decision: auth });
    const offline = decideRetry({ category: 'connection' }, 3, settings);
    expect(failoverStep({ decision: offline, attemptOnModel: 3, online: false, port: port() })).toEqual({
      decision: offline,
    });
  });

  it('a wait above the maximum delay is not an outage of attempts: no failover', () => {
    const decision = decideRetry({ category: 'server_error', retryAfterMs: 120_000 }, 1, settings);
    expect(decision.exceedsMaxDelay).toBe(true);
    expect(failoverStep({ decision, attemptOnModel: 1, online: true, port: port() })).toEqual({ decision });
  });

  it('no list, or nothing left of it: the table decides exactly as without failover', () => {
    const decision = decideRetry({ category: 'overloaded' }, 4, settings);
    expect(failoverStep({ decision, attemptOnModel: 4, online: true, port: undefined })).toEqual({ decision });
    expect(failoverStep({ decision, attemptOnModel: 4, online: true, port: port(() => null) })).toEqual({ decision });
  });
});

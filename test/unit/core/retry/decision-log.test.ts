// Unit tests of the decision records (src/main/core/decision-log.ts): levels of
// docs/retry-policy.md ("The observability record"), wait in seconds, final decision, ISO
// timestamps from the given clock, and the success record.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../../src/shared/settings';
import { classifyError } from '../../../../src/main/core/retry/classify-error';
import { buildDecisionRecord, decisionLevel } from '../../../../src/main/core/retry/decision-log';
import { decideRetry, settledDecision } from '../../../../src/main/core/retry/decide-retry';
import type { DecisionRecordContext } from '../../../../src/main/core/retry/decision-log';

const NOW = Date.parse('2026-01-12T10:00:00.000Z');
const context: DecisionRecordContext = {
  taskType: 'chat',
  modelId: 'resolute-sim-1',
  provider: 'simulator',
  sessionId: 's-1',
  turnId: 't-9',
};
const settings = DEFAULT_SETTINGS.retry;

function recordFor(message: string, attempt: number, extra: Partial<Parameters<typeof buildDecisionRecord>[0]> = {}) {
  const classification = classifyError({ message, stopReason: 'error' });
  const decision = decideRetry(classification, attempt, settings, () => 0);
  return buildDecisionRecord({
    id: 'd-1',
    chainId: 'c-1',
    now: NOW,
    decision,
    classification,
    errorMessage: message,
    context,
    ...extra,
  });
}

describe('buildDecisionRecord', () => {
  it('logs a retry at INFO with the wait in seconds', () => {
    expect(recordFor('503 Service Unavailable', 2)).toEqual({
      id: 'd-1',
      timestamp: '2026-01-12T10:00:00.000Z',
      level: 'INFO',
      errorType: 'ModelServerError',
      category: 'server_error',
      attempt: 2,
      action: 'retry',
      waitSeconds: 4,
      reason: 'server_error: retry 2 of 3 in 4 s (exponential backoff)',
      errorMessage: '503 Service Unavailable',
      context: { taskType: 'chat', modelId: 'resolute-sim-1', provider: 'simulator', sessionId: 's-1', turnId: 't-9' },
      finalDecision: null,
      chainId: 'c-1',
    });
  });

  it('logs the final abort of an exhausted chain at WARNING', () => {
    const record = recordFor('429 Rate limit reached for requests', 5);
    expect(record).toMatchObject({
      level: 'WARNING',
      action: 'abort',
      finalDecision: 'abort',
      waitSeconds: 0,
      attempt: 5,
    });
  });

  it('logs a non-retryable abort at WARNING', () => {
    expect(recordFor('401 Incorrect API key provided.', 1)).toMatchObject({
      level: 'WARNING',
      errorType: 'ModelAuthError',
      finalDecision: 'abort',
    });
  });

  it('logs an unclassifiable error at WARNING', () => {
    expect(recordFor('the flux capacitor wobbled', 1)).toMatchObject({
      level: 'WARNING',
      errorType: 'Unclassifiable',
      category: 'unexpected',
      action: 'abort',
      finalDecision: 'abort',
    });
  });

  it('logs an unexpected exception at ERROR', () => {
    const classification = classifyError({ errorType: 'UnexpectedSystemError', message: 'TypeError: x is undefined' });
    const decision = decideRetry(classification, 1, settings);
    const record = buildDecisionRecord({
      id: 'd-2',
      chainId: null,
      now: NOW,
      decision,
      classification,
      errorMessage: 'TypeError: x is undefined',
      context,
    });
    expect(record).toMatchObject({
      level: 'ERROR',
      errorType: 'UnexpectedSystemError',
      finalDecision: 'abort',
      chainId: null,
    });
  });

  it('logs a hand-over to compaction at INFO without ending in abort', () => {
    const record = recordFor("400 This model's maximum context length is 8192 tokens.", 1);
    expect(record).toMatchObject({
      level: 'INFO',
      action: 'compact',
      finalDecision: null,
      category: 'context_overflow',
    });
  });

  it('keeps fractional seconds of a jittered wait', () => {
    const classification = classifyError({ message: 'Connection error.' });
    const decision = decideRetry(classification, 1, settings, () => 0.25);
    const record = buildDecisionRecord({
      id: 'd',
      chainId: 'c',
      now: NOW,
      decision,
      classification,
      errorMessage: 'Connection error.',
      context,
    });
    expect(record.waitSeconds).toBe(2.25);
  });

  it('takes the attempt from the decision unless given, and 1 when neither says', () => {
    expect(recordFor('503 Service Unavailable', 3).attempt).toBe(3);
    expect(recordFor('503 Service Unavailable', 3, { attempt: 7 }).attempt).toBe(7);
    const record = buildDecisionRecord({
      id: 'd',
      chainId: null,
      now: NOW,
      decision: { action: 'abort', reason: 'r', waitMs: 0, category: 'auth' },
      classification: { errorType: 'ModelAuthError' },
      errorMessage: 'nope',
      context,
    });
    expect(record.attempt).toBe(1);
  });

  it('keeps the hint and the maximum delay of a wait the provider asked for above it, as numbers', () => {
    const classification = { category: 'rate_limit' as const, errorType: 'ModelRateLimitError', retryAfterMs: 120_000 };
    const decision = decideRetry(classification, 1, settings, () => 0);
    const record = buildDecisionRecord({
      id: 'd',
      chainId: null,
      now: NOW,
      decision,
      classification,
      errorMessage: '429',
      context,
    });
    expect(record).toMatchObject({ action: 'abort', hintMs: 120_000, maxDelayMs: 60_000 });
    const within = decideRetry({ ...classification, retryAfterMs: 30_000 }, 1, settings, () => 0);
    const waited = buildDecisionRecord({
      id: 'd',
      chainId: null,
      now: NOW,
      decision: within,
      classification,
      errorMessage: '429',
      context,
    });
    expect(waited).toMatchObject({ action: 'retry', hintMs: 30_000 });
    expect(waited).not.toHaveProperty('maxDelayMs');
  });

  it('lets the caller set the final decision', () => {
    expect(recordFor('503 Service Unavailable', 1, { finalDecision: 'abort' }).finalDecision).toBe('abort');
    expect(recordFor('401 Unauthorized', 1, { finalDecision: null }).finalDecision).toBeNull();
  });

  it('copies the context it is given, sharing no object with it', () => {
    const switchedTo = { provider: 'openai', modelId: 'gpt-b' };
    const record = recordFor('503 Service Unavailable', 1, { context: { ...context, switchedTo } });
    expect(record.context).toEqual({ ...context, switchedTo });
    expect(record.context.switchedTo).not.toBe(switchedTo);
  });

  it('is deterministic and never throws on a bad clock', () => {
    expect(recordFor('503 Service Unavailable', 1)).toEqual(recordFor('503 Service Unavailable', 1));
    expect(recordFor('503 Service Unavailable', 1, { now: Number.NaN }).timestamp).toBe('1970-01-01T00:00:00.000Z');
    expect(recordFor('503 Service Unavailable', 1, { now: 1e20 }).timestamp).toBe('1970-01-01T00:00:00.000Z');
  });
});

describe('the closing record of a recovered chain', () => {
  it('is built as the retry controller builds it: INFO, finalDecision success, no wait', () => {
    const classification = classifyError({ message: '503 Service Unavailable' });
    const record = buildDecisionRecord({
      id: 'd-9',
      chainId: 'c-1',
      now: NOW + 6000,
      decision: settledDecision(classification.category, 'retry', 'recovered after 2 retries', 3),
      classification,
      errorMessage: '',
      finalDecision: 'success',
      attempt: 3,
      context,
    });
    expect(record).toEqual({
      id: 'd-9',
      timestamp: '2026-01-12T10:00:06.000Z',
      level: 'INFO',
      errorType: 'ModelServerError',
      category: 'server_error',
      attempt: 3,
      action: 'retry',
      waitSeconds: 0,
      reason: 'recovered after 2 retries',
      errorMessage: '',
      context: { taskType: 'chat', modelId: 'resolute-sim-1', provider: 'simulator', sessionId: 's-1', turnId: 't-9' },
      finalDecision: 'success',
      chainId: 'c-1',
    });
  });
});

describe('decisionLevel', () => {
  it.each<[Parameters<typeof decisionLevel>[0], string, string]>([
    ['retry', 'ModelRateLimitError', 'INFO'],
    ['compact', 'ContextOverflowError', 'INFO'],
    ['abort', 'ModelRateLimitError', 'WARNING'],
    ['abort', 'Unclassifiable', 'WARNING'],
    ['retry', 'Unclassifiable', 'WARNING'],
    ['abort', 'UnexpectedSystemError', 'ERROR'],
  ])('%s of %s → %s', (action, errorType, level) => {
    expect(decisionLevel(action, errorType)).toBe(level);
  });
});

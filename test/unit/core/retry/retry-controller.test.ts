// The RetryController on its own, against a small in-memory RetryHost and vitest's fake clock:
// the paths AgentSession's tests cannot pin down — when the retry fires relative to retryAt,
// the credential switch for a usage limit above the max delay, the attempt numbers and turns of
// the decision records and every way a chain ends (docs/retry-policy.md describes the lifecycle).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Classification } from '../../../../src/main/core/retry/classify-error';
import { RetryController } from '../../../../src/main/core/retry/retry-controller';
import { FakeHost, SERVER_ERROR, T0, assistant, rateLimit, usageLimit, useFakeClock } from './retry-host-fake';

let host: FakeHost;
let retry: RetryController;

/** A run ended with this error as turn `turnId` (the session persisted it, then asks the controller). */
function fail(turnId: string, text: string, classification: Classification = SERVER_ERROR): boolean {
  host.context.push(turnId);
  return retry.handleRetryableError(assistant('error', text), classification);
}

/** The retried run answered as turn `turnId`. */
function answer(turnId: string): void {
  host.context.push(turnId);
  retry.onAssistantMessageEnd(assistant('stop'));
}

/** The wait's own timer starts continue(), with no extra setTimeout(…, 0): it goes out at retryAt itself. */
const NEXT_TURN_MS = 0;

/** Move the fake clock, running the timers and promise callbacks due meanwhile. */
const elapse = (ms: number) => vi.advanceTimersByTimeAsync(ms);

/** Let a backoff of `ms` run out and the retry go out. */
const sendAfter = (ms: number) => elapse(ms + NEXT_TURN_MS);

useFakeClock();
beforeEach(() => {
  host = new FakeHost();
  retry = new RetryController(host);
});

describe('RetryController: when the retry goes out', () => {
  it('auto_retry_start carries retryAt = now + delayMs, and the retry goes out exactly then', async () => {
    vi.advanceTimersByTime(250);
    expect(fail('e1', '503 Service Unavailable')).toBe(true);
    const [start] = host.starts();
    expect(start).toMatchObject({ attempt: 1, maxAttempts: 3, delayMs: 1000, retryAt: T0 + 250 + 1000 });
    const { type: _type, ...pending } = start;
    expect(retry.pendingRetry).toEqual(pending);
    await elapse(999);
    expect(host.continueCalls).toBe(0);
    await elapse(1 + NEXT_TURN_MS);
    expect(host.continueCalls).toBe(1);
    expect(Date.now()).toBe(start.retryAt + NEXT_TURN_MS);
  });

  it('each retry of a chain counts down to its own retryAt (2 s, then 4 s later)', async () => {
    fail('e1', '503');
    await sendAfter(1000);
    const failedAt = Date.now();
    fail('e2', '503');
    const [, second] = host.starts();
    expect(second).toMatchObject({ attempt: 2, delayMs: 2000, retryAt: failedAt + 2000 });
    await elapse(1999);
    expect(host.continueCalls).toBe(1);
    await elapse(1 + NEXT_TURN_MS);
    expect(host.continueCalls).toBe(2);
  });

  it('"Retry now" sends the retry at once, before retryAt', async () => {
    fail('e1', '503');
    expect(retry.retryNow()).toBe(true);
    await elapse(NEXT_TURN_MS);
    expect(host.continueCalls).toBe(1);
    expect(retry.retryNow()).toBe(false);
  });
});

describe('RetryController: usage limits and the max delay', () => {
  it('a usage limit whose hint is above maxDelayMs tries another key first and retries at once', async () => {
    host.usageResults = [{ switched: true, earliestFreeAt: null }];
    expect(fail('e1', 'You have hit your usage limit. Please retry in 120s', usageLimit(120_000))).toBe(true);
    expect(host.usageMarks).toEqual([{ retryAfterMs: 120_000 }]);
    expect(host.events).toEqual([expect.objectContaining({ type: 'auto_retry_start', attempt: 1, delayMs: 0 })]);
    expect(host.decisions[0]).toMatchObject({ finalDecision: null, decision: { action: 'retry', waitMs: 0 } });
    await elapse(NEXT_TURN_MS);
    expect(host.continueCalls).toBe(1);
  });

  it('a usage limit that moves to a fallback model: one decision, then the switch, then the record and the event', async () => {
    const from = { provider: 'openai' as const, model: 'gpt-b' };
    const to = { provider: 'google' as const, model: 'gemini-c' };
    host.usageResults = [{ switched: true, earliestFreeAt: null, model: { from, to } }];
    expect(fail('e1', 'usage limit', usageLimit(30_000))).toBe(true);
    expect(host.modelSwitches).toEqual([{ from, to }]);
    expect(host.calls.slice(0, 4)).toEqual(['switch model', 'decision', 'auto_retry_start', 'trim']);
    expect(host.decisions[0]).toMatchObject({
      switchedModel: { from, to },
      decision: {
        action: 'retry',
        waitMs: 0,
        reason: 'usage_limit: usage limit on openai/gpt-b, switched to google/gemini-c, retry 1 of 3 at once',
      },
    });
    expect(host.starts()[0]).toMatchObject({ delayMs: 0, switchedModel: { from, to } });
    await elapse(NEXT_TURN_MS);
    expect(host.continueCalls).toBe(1);
  });

  it('with no other key, the same hint ends the chain at once with a message naming the wait', async () => {
    expect(fail('e1', 'You have hit your usage limit.', usageLimit(120_000))).toBe(false);
    expect(host.usageMarks).toEqual([{ retryAfterMs: 120_000 }]);
    expect(host.starts()).toEqual([]);
    const [end] = host.ends();
    expect(end).toMatchObject({ success: false, attempt: 0, outcome: 'exhausted' });
    expect(end).toHaveProperty(
      'finalError',
      'provider asked to wait 120 s, above the 60 s maximum delay. You have hit your usage limit.',
    );
    expect(host.decisions[0]).toMatchObject({ finalDecision: 'abort', attempt: 1, turn: 'e1' });
    await elapse(200_000);
    expect(host.continueCalls).toBe(0);
  });

  it('a rate limit above maxDelayMs never asks for another key: it is not a usage limit', () => {
    host.usageResults = [{ switched: true, earliestFreeAt: null }];
    expect(fail('e1', '429', rateLimit(120_000))).toBe(false);
    expect(host.usageMarks).toEqual([]);
    expect(host.ends()[0]).toMatchObject({ outcome: 'exhausted', attempt: 0 });
  });

  it('a usage limit within the max delay and no other key waits for the hint', () => {
    fail('e1', 'usage limit', usageLimit(30_000));
    expect(host.usageMarks).toEqual([{ retryAfterMs: 30_000 }]);
    expect(host.starts()[0]).toMatchObject({ delayMs: 30_000, retryAt: T0 + 30_000 });
  });

  it('the failure that uses up the budget does not switch keys: nothing is left to retry', async () => {
    host.retry = { ...host.retry, maxRetries: 1 };
    host.usageResults = [{ switched: true, earliestFreeAt: null }];
    fail('e1', 'usage limit', usageLimit(1000));
    await elapse(NEXT_TURN_MS);
    expect(fail('e2', 'usage limit', usageLimit(1000))).toBe(false);
    expect(host.usageMarks).toHaveLength(1);
    expect(host.ends()[0]).toMatchObject({ success: false, attempt: 1, outcome: 'exhausted' });
  });
});

describe('RetryController: decision records', () => {
  it('the success record names the attempt that succeeded (retries + 1); each record is tied to its own turn', async () => {
    fail('e1', '503 first');
    await sendAfter(1000);
    fail('e2', '503 second');
    await sendAfter(2000);
    answer('a1');
    expect(host.decisions.map((d) => [d.attempt, d.turn, d.finalDecision, d.decision.action, d.errorMessage])).toEqual([
      [1, 'e1', null, 'retry', '503 first'],
      [2, 'e2', null, 'retry', '503 second'],
      [3, 'a1', 'success', 'retry', ''],
    ]);
    expect(host.decisions[2].decision).toMatchObject({ reason: 'recovered after 2 retries', category: 'server_error' });
    const chainId = host.starts()[0].chainId;
    expect(host.decisions.map((d) => d.chainId)).toEqual([chainId, chainId, chainId]);
    // The record is made while the errored turn is still in the context; only then is it trimmed.
    expect(host.calls.slice(0, 3)).toEqual(['decision', 'auto_retry_start', 'trim']);
    expect(host.context).toEqual(['user-1', 'a1']);
    expect(host.ends()).toEqual([{ type: 'auto_retry_end', success: true, attempt: 2, outcome: 'recovered', chainId }]);
    expect(host.chains.get(chainId)).toEqual({ outcome: 'recovered', attempts: 2, finalError: null });
  });

  it('a first retry that succeeds is recorded as attempt 2', async () => {
    fail('e1', '503');
    await sendAfter(1000);
    answer('a1');
    expect(host.decisions.at(-1)).toMatchObject({ attempt: 2, turn: 'a1', finalDecision: 'success' });
    expect(host.decisions.at(-1)?.decision.reason).toBe('recovered after 1 retry');
  });

  it('running out of attempts: the abort record is the failed attempt, the end event the last retry tried', async () => {
    for (const [n, wait] of [
      [1, 1000],
      [2, 2000],
      [3, 4000],
    ]) {
      expect(fail(`e${n}`, `503 #${n}`)).toBe(true);
      await sendAfter(wait);
    }
    expect(fail('e4', '503 #4')).toBe(false);
    expect(host.starts().map((s) => [s.attempt, s.delayMs])).toEqual([
      [1, 1000],
      [2, 2000],
      [3, 4000],
    ]);
    expect(host.decisions.at(-1)).toMatchObject({ attempt: 4, turn: 'e4', finalDecision: 'abort' });
    const chainId = host.starts()[0].chainId;
    expect(host.ends()).toEqual([
      { type: 'auto_retry_end', success: false, attempt: 3, finalError: '503 #4', outcome: 'exhausted', chainId },
    ]);
    expect(host.chains.get(chainId)).toEqual({ outcome: 'exhausted', attempts: 3, finalError: '503 #4' });
    expect(retry.isRetrying).toBe(false);
    expect(retry.attempt).toBe(0);
  });
});

describe('RetryController: how a chain ends', () => {
  it('retry switched off: no chain, no event, no record', () => {
    host.retry = { ...host.retry, enabled: false };
    expect(fail('e1', '503')).toBe(false);
    expect(host.events).toEqual([]);
    expect(host.decisions).toEqual([]);
    expect(host.chains.size).toBe(0);
    expect(retry.isRetrying).toBe(false);
  });

  it('a cancel during the backoff ends the chain as cancelled and the retry never goes out', async () => {
    fail('e1', '503');
    const waiting = retry.waitForRetry();
    vi.advanceTimersByTime(500);
    expect(retry.abortRetry()).toBe(true);
    await waiting;
    expect(host.ends()).toEqual([expect.objectContaining({ success: false, attempt: 1, outcome: 'cancelled' })]);
    expect(host.ends()[0]).toHaveProperty('finalError', 'Retry cancelled');
    await elapse(10_000);
    expect(host.continueCalls).toBe(0);
    expect(retry.pendingRetry).toBeNull();
    expect(retry.abortRetry()).toBe(false);
  });

  it('a cancel after the wait ended but before continue() started still wins', async () => {
    fail('e1', '503');
    retry.retryNow();
    // The sleep is over (nothing left to skip) but its wake, which starts continue() at once (no
    // extra timer since the wait is one), has not run yet.
    expect(retry.retryNow()).toBe(false);
    expect(retry.abortRetry()).toBe(true);
    await elapse(10);
    expect(host.continueCalls).toBe(0);
    expect(host.ends()).toEqual([expect.objectContaining({ outcome: 'cancelled' })]);
  });

  it('a cancel once the retried request is on its way changes nothing: the retry stands', async () => {
    fail('e1', '503');
    await sendAfter(1000);
    expect(host.continueCalls).toBe(1);
    expect(retry.abortRetry()).toBe(false);
    answer('a1');
    expect(host.ends()).toEqual([expect.objectContaining({ success: true, outcome: 'recovered' })]);
  });

  it('continue() that cannot start ends the chain as not_retryable with its error', async () => {
    host.continueError = new Error('Agent is already processing.');
    fail('e1', '503');
    const waiting = retry.waitForRetry();
    await sendAfter(1000);
    await waiting;
    expect(host.ends()).toEqual([
      expect.objectContaining({
        success: false,
        attempt: 1,
        finalError: 'Agent is already processing.',
        outcome: 'not_retryable',
      }),
    ]);
    expect(retry.isRetrying).toBe(false);
    expect(retry.attempt).toBe(0);
  });

  it('a retried run that ends with an error that does not retry ends the chain with that error', async () => {
    fail('e1', '503');
    await sendAfter(1000);
    retry.endChainWithoutRetry(assistant('error', '401 Unauthorized'), 'not_retryable');
    expect(host.ends()).toEqual([
      expect.objectContaining({ success: false, attempt: 1, finalError: '401 Unauthorized', outcome: 'not_retryable' }),
    ]);
    expect(retry.isRetrying).toBe(false);
  });

  it('while the chain waits, neither an answer nor a stopped run ends it', async () => {
    fail('e1', '503');
    answer('stray');
    retry.endChainWithoutRetry(assistant('error', '401'), 'not_retryable');
    expect(host.ends()).toEqual([]);
    await sendAfter(1000);
    retry.onAssistantMessageEnd(assistant('error', '503 again'));
    retry.onAssistantMessageEnd(assistant('aborted'));
    expect(host.ends()).toEqual([]);
    expect(retry.isRetrying).toBe(true);
    answer('a1');
    expect(host.ends()).toEqual([expect.objectContaining({ outcome: 'recovered', attempt: 1 })]);
  });

  it('an internal error abandons the chain: it ends, and a pending retry never goes out', async () => {
    fail('e1', '503');
    retry.abandon('Internal error: boom');
    expect(host.ends()).toEqual([
      expect.objectContaining({
        success: false,
        attempt: 0,
        finalError: 'Internal error: boom',
        outcome: 'not_retryable',
      }),
    ]);
    await elapse(10_000);
    expect(host.continueCalls).toBe(0);
  });

  it('after a chain ends, the next error opens a fresh chain that counts from 1', async () => {
    fail('e1', '503');
    await sendAfter(1000);
    answer('a1');
    fail('e2', '503');
    const [first, second] = host.starts();
    expect(second).toMatchObject({ attempt: 1, delayMs: 1000 });
    expect(second.chainId).not.toBe(first.chainId);
    expect([...host.chains.keys()]).toEqual([first.chainId, second.chainId]);
  });
});

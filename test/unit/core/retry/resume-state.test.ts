// Resume after a restart (src/main/core/resume-state.ts and the RetryController's resumeChain /
// interrupt; docs/retry-policy.md, "Resume after a restart"): which stored chain is offered,
// parameterised over the shapes a quit or a crash leaves behind, and the continuation itself —
// the same chain id and counter, a decision record that says so, the retry at once.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { findInterruptedRetry, type StoredSession } from '../../../../src/main/core/retry/resume-state';
import { INTERRUPTED_FINAL_ERROR } from '../../../../src/main/core/retry/retry-chain';
import { RetryController } from '../../../../src/main/core/retry/retry-controller';
import type { ChainOutcome } from '../../../../src/shared/error-category';
import type { RetryDecisionRecord } from '../../../../src/shared/history';
import { DEFAULT_SETTINGS } from '../../../../src/shared/settings';
import { FakeHost, SERVER_ERROR, T0, assistant, useFakeClock } from './retry-host-fake';

function decision(
  attempt: number,
  action: RetryDecisionRecord['action'],
  finalDecision: RetryDecisionRecord['finalDecision'] = null,
  category: RetryDecisionRecord['category'] = 'server_error',
): RetryDecisionRecord {
  return {
    id: `d-${attempt}-${action}-${String(finalDecision)}`,
    timestamp: new Date(T0 + attempt).toISOString(),
    level: 'INFO',
    errorType: 'ModelServerError',
    category,
    attempt,
    action,
    waitSeconds: 2,
    reason: '',
    errorMessage: '503 Service Unavailable',
    context: { taskType: 'chat', modelId: 'm', provider: 'p', sessionId: 's', turnId: null },
    finalDecision,
    chainId: 'c1',
  };
}

function stored(outcome: ChainOutcome, decisions: RetryDecisionRecord[], lastTurnChain: string | null = 'c1') {
  const session: StoredSession = {
    turns: [
      { seq: 1, chainId: null },
      { seq: 2, chainId: lastTurnChain },
    ],
    chains: [{ id: 'c1', outcome }],
    decisions,
  };
  return session;
}

describe('findInterruptedRetry', () => {
  it.each<[string, StoredSession, { attempt: number; maxAttempts: number } | null]>([
    ['killed during the first backoff', stored('interrupted', [decision(1, 'retry')]), { attempt: 1, maxAttempts: 3 }],
    [
      'killed during the second backoff',
      stored('interrupted', [decision(1, 'retry'), decision(2, 'retry')]),
      { attempt: 2, maxAttempts: 3 },
    ],
    ['a chain still pending (not closed yet) is not offered', stored('pending', [decision(1, 'retry')]), null],
    ['a cancelled chain is not offered', stored('cancelled', [decision(1, 'retry')]), null],
    [
      'a discarded one is not offered again',
      stored('interrupted', [decision(1, 'retry'), decision(1, 'abort', 'abort')]),
      null,
    ],
    ['nothing after it may have happened', stored('interrupted', [decision(1, 'retry')], null), null],
    ['a budget the current settings no longer allow', stored('interrupted', [decision(4, 'retry')]), null],
    ['no decision at all', stored('interrupted', []), null],
  ])('%s', (_name, session, expected) => {
    const offer = findInterruptedRetry(session, DEFAULT_SETTINGS.retry);
    if (expected === null) expect(offer).toBeNull();
    else
      expect(offer).toEqual({
        chainId: 'c1',
        category: 'server_error',
        errorMessage: '503 Service Unavailable',
        ...expected,
      });
  });
});

describe('RetryController: interrupt and resume', () => {
  let host: FakeHost;
  let retry: RetryController;
  useFakeClock();
  beforeEach(() => {
    host = new FakeHost();
    retry = new RetryController(host);
  });

  it('a quit during the backoff closes the chain as interrupted, not cancelled, and sends nothing', async () => {
    host.context.push('e1');
    retry.handleRetryableError(assistant('error', '503'), SERVER_ERROR);
    expect(retry.interrupt()).toBe(true);
    expect(host.ends()).toEqual([
      expect.objectContaining({ success: false, outcome: 'interrupted', finalError: INTERRUPTED_FINAL_ERROR }),
    ]);
    expect(host.chains.get('chain-1')).toMatchObject({ outcome: 'interrupted' });
    await vi.advanceTimersByTimeAsync(5000);
    expect(host.continueCalls).toBe(0);
    expect(retry.interrupt()).toBe(false);
  });

  it('resumeChain continues the same chain with its counter, records it and retries at once', async () => {
    retry.resumeChain({
      chainId: 'c-old',
      attempt: 2,
      maxAttempts: 3,
      category: 'server_error',
      errorMessage: '503',
    });
    expect(host.chains.get('c-old')).toBe('open');
    expect(host.decisions.at(-1)).toMatchObject({
      chainId: 'c-old',
      attempt: 2,
      finalDecision: null,
      decision: expect.objectContaining({ action: 'retry', reason: 'resumed after a restart: retry 2 of 3 now' }),
    });
    expect(host.starts()).toEqual([
      expect.objectContaining({ attempt: 2, maxAttempts: 3, delayMs: 0, chainId: 'c-old', resumed: true }),
    ]);
    await vi.advanceTimersByTimeAsync(2);
    expect(host.continueCalls).toBe(1);
    // The next failure is attempt 3 of the same chain.
    host.context.push('e3');
    retry.handleRetryableError(assistant('error', '503'), SERVER_ERROR);
    expect(host.starts().at(-1)).toMatchObject({ attempt: 3, chainId: 'c-old' });
  });

  it('refuses to resume while a chain runs', () => {
    host.context.push('e1');
    retry.handleRetryableError(assistant('error', '503'), SERVER_ERROR);
    expect(() =>
      retry.resumeChain({ chainId: 'x', attempt: 1, maxAttempts: 3, category: 'server_error', errorMessage: '' }),
    ).toThrow(/already running/);
  });
});

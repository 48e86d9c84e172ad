// Offline-aware backoff (src/main/core/offline-pause.ts and the RetryController's pause;
// docs/retry-policy.md, "Offline: the chain pauses"): the accounting rule parameterised, the wait
// for the network, and the chain's events against an in-memory host whose network check the test
// switches — no attempt counted while offline, the countdown stopped, Cancel and Retry now working,
// the retry at once when the network is back.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Classification } from '../../../../src/main/core/retry/classify-error';
import { attemptAfterConnectionFailure, waitUntilOnline } from '../../../../src/main/core/retry/offline-pause';
import { RetryController } from '../../../../src/main/core/retry/retry-controller';
import { FakeHost, assistant, useFakeClock } from './retry-host-fake';

const CONNECTION: Classification = { category: 'connection', errorType: 'ModelConnectionError', source: 'pattern' };
const POLL_MS = 100;

describe('attemptAfterConnectionFailure', () => {
  it.each([
    // previous counter, offline, next counter
    [0, false, 1],
    [1, false, 2],
    [2, false, 3],
    [0, true, 1],
    [1, true, 1],
    [2, true, 2],
    [-3, true, 1],
    [Number.NaN, false, 1],
  ])('after %s, offline=%s → %s', (previous, offline, next) => {
    expect(attemptAfterConnectionFailure(previous, offline)).toBe(next);
  });

  it('however often a retry fails offline, the counter does not move', () => {
    let counter = 0;
    for (let i = 0; i < 50; i += 1) counter = attemptAfterConnectionFailure(counter, true);
    expect(counter).toBe(1);
    expect(attemptAfterConnectionFailure(counter, false)).toBe(2);
  });
});

let host: FakeHost;
let retry: RetryController;
let online: boolean;
let checks: number;

useFakeClock();
beforeEach(() => {
  host = new FakeHost();
  online = false;
  checks = 0;
  host.network = {
    isReachable: () => {
      checks += 1;
      return Promise.resolve(online);
    },
    pollMs: POLL_MS,
  };
  retry = new RetryController(host);
});

const elapse = (ms: number) => vi.advanceTimersByTimeAsync(ms);
const fail = (turn: string) => {
  host.context.push(turn);
  return retry.handleRetryableError(assistant('error', 'Connection error.'), CONNECTION);
};

describe('waitUntilOnline', () => {
  it('asks every poll until the check says yes; a check that throws counts as offline', async () => {
    const answers: (() => Promise<boolean>)[] = [
      () => Promise.reject(new Error('boom')),
      () => Promise.resolve(false),
      () => Promise.resolve(true),
    ];
    let done = false;
    const check = () => (answers.shift() ?? (() => Promise.resolve(true)))();
    void waitUntilOnline(check, new AbortController().signal, POLL_MS).then(() => (done = true));
    await elapse(POLL_MS * 2);
    expect(done).toBe(false);
    await elapse(POLL_MS);
    expect(done).toBe(true);
  });

  it('rejects once the signal aborts', async () => {
    const controller = new AbortController();
    const waiting = waitUntilOnline(() => Promise.resolve(false), controller.signal, POLL_MS);
    controller.abort();
    await expect(waiting).rejects.toThrow();
  });
});

describe('RetryController: a connection failure while offline', () => {
  it('pauses (no countdown, no attempt counted) and retries at once when the network is back', async () => {
    expect(fail('e1')).toBe(true);
    await elapse(0);
    expect(host.events.map((e) => e.type)).toEqual(['auto_retry_paused']);
    expect(host.events[0]).toMatchObject({ reason: 'offline', attempt: 1, maxAttempts: 2, category: 'connection' });
    expect(retry.pendingRetry).toMatchObject({ attempt: 1, offline: true, delayMs: 0 });
    expect(host.decisions.at(-1)?.decision.reason).toMatch(/offline, waiting for the network; retry 1 of 2 kept/);

    await elapse(POLL_MS * 50);
    expect(host.continueCalls).toBe(0);
    expect(retry.isRetrying).toBe(true);
    expect(checks).toBeGreaterThan(40);

    online = true;
    await elapse(POLL_MS + 5);
    expect(host.starts()).toHaveLength(1);
    expect(host.starts()[0]).toMatchObject({ attempt: 1, delayMs: 0 });
    expect(host.continueCalls).toBe(1);
  });

  it('retries that keep failing offline never use up the budget; online failures do', async () => {
    fail('e1');
    for (let i = 0; i < 5; i += 1) {
      online = true;
      await elapse(POLL_MS + 5); // the held retry goes out …
      online = false;
      fail(`e${i + 2}`); // … and fails while offline again
      await elapse(0);
    }
    expect(retry.attempt).toBe(1);
    expect(host.events.filter((e) => e.type === 'auto_retry_paused').map((e) => e.attempt)).toEqual([1, 1, 1, 1, 1, 1]);
    online = true;
    await elapse(POLL_MS + 5);
    fail('online-1'); // online now: counted, retry 2 with a backoff
    await elapse(0);
    expect(host.starts().at(-1)).toMatchObject({ attempt: 2, delayMs: 2000 });
    await elapse(2001);
    fail('online-2'); // the row's 3 attempts are used: the chain ends
    await elapse(0);
    expect(host.ends()).toEqual([expect.objectContaining({ outcome: 'exhausted', success: false })]);
  });

  it('Cancel while paused ends the chain as cancelled and nothing goes out when the network returns', async () => {
    fail('e1');
    await elapse(0);
    expect(retry.abortRetry()).toBe(true);
    expect(host.ends()).toEqual([expect.objectContaining({ outcome: 'cancelled', finalError: 'Retry cancelled' })]);
    online = true;
    await elapse(POLL_MS * 5);
    expect(host.continueCalls).toBe(0);
    expect(host.starts()).toHaveLength(0);
  });

  it('Retry now while paused sends the held retry at once', async () => {
    fail('e1');
    await elapse(0);
    expect(retry.retryNow()).toBe(true);
    await elapse(1);
    expect(host.starts()).toEqual([expect.objectContaining({ attempt: 1, delayMs: 0 })]);
    expect(host.continueCalls).toBe(1);
  });

  it('online, the failure counts and the table decides as before', async () => {
    online = true;
    fail('e1');
    await elapse(0);
    expect(host.events.map((e) => e.type)).toEqual(['auto_retry_start']);
    expect(host.starts()[0]).toMatchObject({ attempt: 1, delayMs: 1000 });
  });

  it("writes the chain's row with its first event, whether the check says online or the chain is cancelled first", async () => {
    const opened: string[] = [];
    const open = host.records.opened;
    host.records.opened = (chainId) => {
      opened.push(chainId);
      open(chainId);
    };
    online = true;
    fail('e1');
    await elapse(0);
    expect(opened).toEqual(['chain-1']);
    await elapse(1000);
    retry.onAssistantMessageEnd(assistant('stop'));
    host.network = { isReachable: () => new Promise<boolean>(() => undefined) }; // a check that never answers
    fail('e2');
    expect(retry.abortRetry()).toBe(true);
    expect(opened).toEqual(['chain-1', 'chain-2']);
    expect(host.chains.get('chain-2')).toMatchObject({ outcome: 'cancelled' });
  });

  it('online, the wait runs from when the error arrived, not from when the check answered', async () => {
    host.network = {
      isReachable: () => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 300)),
      pollMs: POLL_MS,
    };
    const arrivedAt = Date.now();
    host.context.push('e1');
    retry.handleRetryableError(assistant('error', 'Connection error.'), CONNECTION, arrivedAt);
    await elapse(300);
    expect(host.starts()[0]).toMatchObject({ delayMs: 1000, retryAt: arrivedAt + 1000 });
    await elapse(699);
    expect(host.continueCalls).toBe(0);
    await elapse(1);
    expect(host.continueCalls).toBe(1);
  });

  it('one decision per failure: after the probe, the wait is the one decision the table took', async () => {
    host.retry = { ...host.retry, jitterMaxMs: 1000 };
    online = true;
    const draws = vi.spyOn(Math, 'random').mockReturnValue(0.5);
    try {
      fail('e1');
      await elapse(0);
      // connection backs off with jitter: each decision draws once.
      expect(draws).toHaveBeenCalledTimes(1);
      expect(host.starts()).toEqual([expect.objectContaining({ attempt: 1, delayMs: 1500 })]);
    } finally {
      draws.mockRestore();
    }
  });

  it('offline, the pause is recorded on that same one decision', async () => {
    host.retry = { ...host.retry, jitterMaxMs: 1000 };
    const draws = vi.spyOn(Math, 'random').mockReturnValue(0.5);
    try {
      fail('e1');
      await elapse(0);
      expect(draws).toHaveBeenCalledTimes(1);
      expect(host.decisions).toEqual([
        expect.objectContaining({ attempt: 1, decision: expect.objectContaining({ waitMs: 0 }) }),
      ]);
    } finally {
      draws.mockRestore();
    }
  });

  it('without a network check a connection failure is handled at once, as before', () => {
    host.network = undefined;
    fail('e1');
    expect(host.starts()).toEqual([expect.objectContaining({ attempt: 1, delayMs: 1000 })]);
  });
});

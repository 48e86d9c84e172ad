// What the tests of a retried run built before its wait ends share (retry-prelaunch*.test.ts): a
// session whose first answer fails with a 503 and whose requests the fake HTTP layer holds
// (held-requests-fake.ts), and moves of vitest's fake clock to a moment of the wait. Each test file
// installs the fake clock itself (fakeClock()).
import { afterEach, beforeEach, expect, vi } from 'vitest';
import type { AutoRetryStartEvent } from '../../../src/shared/events';
import { HeldRequests } from './held-requests-fake';
import { harness, type Harness, type Step } from './session-fakes';

export const WAIT_MS = 1000;

/** The fake clock for every test of the file. */
export function fakeClock(): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

/** Run the clock on, a millisecond at a time, until `done` holds (a timer set while timers run is due 1 ms later). */
export async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !done(); i += 1) await vi.advanceTimersByTimeAsync(1);
  expect(done()).toBe(true);
}

export interface FailedOnce {
  h: Harness;
  held: HeldRequests;
  prompt: Promise<void>;
  retryAt: number;
}

/**
 * A prompt whose first answer fails with a 503 (then `steps`); resolves once the retry's wait has
 * begun. `held.log` gets the session's events too (not message_update), in order with the requests.
 */
export async function failOnce(steps: Step[] = []): Promise<FailedOnce> {
  const held = new HeldRequests();
  const h = harness([{ error: '503 Service Unavailable' }, ...steps], {
    held,
    settings: { retry: { baseDelayMs: WAIT_MS } },
  });
  h.session.subscribe((event) => {
    if (event.type !== 'message_update') held.log.push(event.type);
  });
  const prompt = h.session.prompt('hello');
  const start = () => h.events.find((e): e is AutoRetryStartEvent => e.type === 'auto_retry_start');
  await until(() => start() !== undefined);
  return { h, held, prompt, retryAt: start()!.retryAt };
}

/** Run the clock on until `run` has settled. */
export async function settle(run: Promise<unknown>): Promise<void> {
  let done = false;
  void run.then(
    () => (done = true),
    () => (done = true),
  );
  await until(() => done);
  await run;
}

/** Move the fake clock to `ms` before `retryAt`. */
export const moveTo = (retryAt: number, ms: number) => vi.advanceTimersByTimeAsync(retryAt - ms - Date.now());

/** The log from the retry's announcement on. */
export const afterStart = (log: string[]) => log.slice(log.indexOf('auto_retry_start'));

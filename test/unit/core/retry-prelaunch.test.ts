// A retried run built before its wait ends (src/main/core/retry-prelaunch.ts): the request is built
// PRELAUNCH_LEAD_MS ahead and held, sent when the wait ends (never before), and the run's events
// come after it; a cancel, a quit or another model in that last stretch withdraws it, so nothing of
// it is sent, shown or stored. A session on a scripted stream whose requests the fake HTTP layer
// holds (held-requests-fake.ts), on vitest's fake clock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PRELAUNCH_LEAD_MS } from '../../../src/main/core/retry-prelaunch';
import type { AutoRetryStartEvent } from '../../../src/shared/events';
import { HeldRequests } from './held-requests-fake';
import { MODEL, harness, type Harness } from './session-fakes';

const WAIT_MS = 1000;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Run the clock on, a millisecond at a time, until `done` holds (a timer set while timers run is due 1 ms later). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !done(); i += 1) await vi.advanceTimersByTimeAsync(1);
  expect(done()).toBe(true);
}

/** A prompt whose first answer fails with a 503; resolves once the retry's wait has begun. */
async function failOnce(): Promise<{ h: Harness; held: HeldRequests; prompt: Promise<void>; retryAt: number }> {
  const held = new HeldRequests();
  const h = harness([{ error: '503 Service Unavailable' }], { held, settings: { retry: { baseDelayMs: WAIT_MS } } });
  h.session.subscribe((event) => {
    if (event.type !== 'message_update') held.log.push(event.type);
  });
  const prompt = h.session.prompt('hello');
  const start = () => h.events.find((e): e is AutoRetryStartEvent => e.type === 'auto_retry_start');
  await until(() => start() !== undefined);
  return { h, held, prompt, retryAt: start()!.retryAt };
}

/** Run the clock on until `run` has settled. */
async function settle(run: Promise<void>): Promise<void> {
  let done = false;
  void run.finally(() => (done = true));
  await until(() => done);
  await run;
}

/** Move the fake clock to `ms` before `retryAt`. */
const moveTo = (retryAt: number, ms: number) => vi.advanceTimersByTimeAsync(retryAt - ms - Date.now());

/** The log from the retry's announcement on. */
const afterStart = (log: string[]) => log.slice(log.indexOf('auto_retry_start'));

describe('a retried run built before its wait ends', () => {
  it('is built in the last stretch, held, sent when the wait ends, and its events follow the send', async () => {
    const { h, held, prompt, retryAt } = await failOnce();
    await moveTo(retryAt, PRELAUNCH_LEAD_MS + 1);
    expect(afterStart(held.log)).not.toContain(`built ${MODEL.id} (held)`);
    await moveTo(retryAt, PRELAUNCH_LEAD_MS - 1);
    expect(afterStart(held.log)).toEqual(['auto_retry_start', `built ${MODEL.id} (held)`]);
    expect(h.session.isStreaming).toBe(false);
    await moveTo(retryAt, 1);
    expect(afterStart(held.log)).not.toContain('sent');
    await moveTo(retryAt, 0);
    await settle(prompt);

    const log = afterStart(held.log);
    expect(log.slice(0, 6)).toEqual([
      'auto_retry_start',
      `built ${MODEL.id} (held)`,
      'release',
      'sent',
      'agent_start',
      'turn_start',
    ]);
    expect(h.retryEvents().at(-1)).toMatchObject({ type: 'auto_retry_end', outcome: 'recovered' });
    // Both turns, the errored one too, were stored before the retry was announced, so before it was sent.
    const beforeStart = held.log.slice(0, held.log.indexOf('auto_retry_start'));
    expect(beforeStart.filter((entry) => entry === 'turn_persisted')).toHaveLength(2);
    expect(h.history.turns.map((t) => t.stopReason)).toEqual([null, 'error', 'stop']);
    expect(h.stream.calls).toHaveLength(2);
  });

  it('withdrawn by a cancel in the last stretch: nothing is sent, shown or stored, and a prompt can follow', async () => {
    const { h, held, prompt, retryAt } = await failOnce();
    await moveTo(retryAt, PRELAUNCH_LEAD_MS / 2);
    expect(h.session.abortRetry()).toBe(true);
    const again = h.session.prompt('again'); // at once: it waits for the withdrawn run to settle
    await settle(prompt);
    await settle(again);

    expect(afterStart(held.log).slice(0, 6)).toEqual([
      'auto_retry_start',
      `built ${MODEL.id} (held)`,
      'retry_chain_closed',
      'auto_retry_end',
      'cancel',
      'agent_start',
    ]);
    expect(afterStart(held.log).filter((entry) => entry === 'sent')).toHaveLength(1); // the next prompt's
    expect(h.retryEvents().at(-1)).toMatchObject({ type: 'auto_retry_end', outcome: 'cancelled' });
    expect(h.history.turns.map((t) => t.stopReason)).toEqual([null, 'error', null, 'stop']);
    expect(h.session.messages.map((m) => m.role)).toEqual(['user', 'user', 'assistant']);
  });

  it('withdrawn by a quit in the last stretch: the chain is interrupted, nothing is sent or stored', async () => {
    const { h, held, prompt, retryAt } = await failOnce();
    await moveTo(retryAt, PRELAUNCH_LEAD_MS / 2);
    await h.session.shutdown();
    await settle(prompt);
    expect(afterStart(held.log)).not.toContain('sent');
    expect(h.retryEvents().at(-1)).toMatchObject({ type: 'auto_retry_end', outcome: 'interrupted' });
    expect(h.history.turns.map((t) => t.stopReason)).toEqual([null, 'error']);
    expect(h.stream.calls).toHaveLength(1);
  });

  it('another model in the last stretch: the held run goes, and the retry is built for the new model at the deadline', async () => {
    const { h, held, prompt, retryAt } = await failOnce();
    await moveTo(retryAt, PRELAUNCH_LEAD_MS / 2);
    h.session.setModel({ ...MODEL, id: 'scripted-2' });
    await moveTo(retryAt, 1);
    expect(afterStart(held.log)).not.toContain('sent');
    await moveTo(retryAt, 0);
    await settle(prompt);
    expect(afterStart(held.log).slice(0, 6)).toEqual([
      'auto_retry_start',
      `built ${MODEL.id} (held)`,
      'cancel',
      'agent_start',
      'turn_start',
      'built scripted-2',
    ]);
    expect(h.retryEvents().at(-1)).toMatchObject({ type: 'auto_retry_end', outcome: 'recovered' });
    expect(h.history.turns.map((t) => t.stopReason)).toEqual([null, 'error', 'stop']);
  });

  it('"Retry now" in the last stretch sends the held request at once', async () => {
    const { h, held, prompt, retryAt } = await failOnce();
    await moveTo(retryAt, PRELAUNCH_LEAD_MS / 2);
    expect(h.session.retryNow()).toBe(true);
    await until(() => afterStart(held.log).includes('sent'));
    expect(Date.now()).toBeLessThan(retryAt);
    await settle(prompt);
    expect(h.retryEvents().at(-1)).toMatchObject({ type: 'auto_retry_end', outcome: 'recovered' });
  });
});

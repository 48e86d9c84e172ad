// A retried run built before its wait ends (src/main/core/retry-prelaunch.ts): the request is built
// PRELAUNCH_LEAD_MS ahead and held, sent when the wait ends (never before), and the run's events
// come after it; a cancel, a quit or another model in that last stretch withdraws it, so nothing of
// it is sent, shown or stored. A session on a scripted stream whose requests the fake HTTP layer
// holds, on vitest's fake clock (prelaunch-fixture.ts).
import { describe, expect, it } from 'vitest';
import { PRELAUNCH_LEAD_MS } from '../../../src/main/core/retry-prelaunch';
import { afterStart, failOnce, fakeClock, moveTo, settle, until } from './prelaunch-fixture';
import { MODEL } from './session-fakes';

fakeClock();

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

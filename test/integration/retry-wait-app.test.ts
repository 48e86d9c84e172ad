// The end of a retry's wait (docs/retry-policy.md, "The retry lifecycle", steps 8–9) through the
// real composition root over real HTTP against its simulator: the retried request never leaves
// before the wait ends, and what else can happen in the wait — a cancel and at once the failed
// card's Retry, a change of settings, a quit and the next start's "Retry now" (the first run of its
// DeferredAgent), an offline pause, a fallback model.
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/shared/events';
import { retryEnds, retryStarts, startServices, type Started } from './fixtures/services';

let app: Started | undefined;
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const types = (events: SessionEvent[]) => events.map((e) => e.type);

const SLOW_WAIT = { retry: { baseDelayMs: 1500, jitterMaxMs: 0 } };

describe('in the wait', () => {
  it("a cancel, then at once the failed card's Retry: one new request, and only its run", async () => {
    app = await startServices(SLOW_WAIT);
    app.sim.setScript('503,ok');
    const turn = app.services.session.prompt('hello');
    await app.next('auto_retry_start');
    const from = app.events.length;
    expect(app.services.session.abortRetry()).toBe(true);
    const retried = app.services.domains.session.regenerate();
    await turn;
    await retried;

    expect(app.sim.requests).toHaveLength(2);
    expect(retryEnds(app)).toEqual([expect.objectContaining({ outcome: 'cancelled' })]);
    const after = types(app.events.slice(from));
    expect(after.slice(0, 3)).toEqual(['retry_chain_closed', 'history_changed', 'auto_retry_end']);
    expect(after.filter((t) => t === 'agent_start')).toHaveLength(1); // the Retry's own run
    const detail = app.services.history.getSession(app.services.session.sessionId)!;
    expect(detail.turns.map((t) => [t.role, t.stopReason])).toEqual([
      ['user', null],
      ['assistant', 'error'],
      ['assistant', 'stop'],
    ]);
    expect(app.services.session.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('a change of settings that keeps the model keeps the wait; a new model takes the retry, at the end of the wait', async () => {
    app = await startServices({ retry: { baseDelayMs: 3000, jitterMaxMs: 0 } });
    app.sim.setScript('503,ok,503,ok');
    const one = app.services.session.prompt('one');
    await app.next('auto_retry_start');
    await app.services.domains.settings.update({ retry: { timeoutMs: 45_000 } }); // the model is resolved anew, the same
    await one;
    expect(app.sim.requests[1].at).toBeGreaterThanOrEqual(retryStarts(app)[0].retryAt - 1);

    const before = app.events.length;
    const two = app.services.session.prompt('two');
    await app.next('auto_retry_start', before);
    await app.services.domains.settings.update({ provider: { model: 'resolute-sim-2' } });
    await two;
    expect(app.sim.requests.map((r) => r.model)).toEqual([
      'resolute-sim-1',
      'resolute-sim-1',
      'resolute-sim-1',
      'resolute-sim-2',
    ]);
    expect(app.sim.requests[3].at).toBeGreaterThanOrEqual(retryStarts(app)[1].retryAt - 1);
    expect(retryEnds(app).map((e) => e.outcome)).toEqual(['recovered', 'recovered']);
  });
});

describe('a quit in the wait, and the next start', () => {
  it('the chain is interrupted, nothing sent; "Retry now" is the DeferredAgent\'s first run, and its next wait keeps time', async () => {
    const first = await startServices(SLOW_WAIT);
    first.sim.setScript('503*');
    void first.services.session.prompt('quit in the wait');
    await first.next('auto_retry_start');
    const from = first.events.length;
    await first.stop({ keepData: true });
    expect(retryEnds(first)).toEqual([expect.objectContaining({ outcome: 'interrupted' })]);
    expect(first.sim.requests).toHaveLength(1);
    expect(types(first.events.slice(from))).not.toContain('agent_start');

    app = await startServices(SLOW_WAIT, { host: 'browser', dataDir: first.dataDir });
    app.sim.setScript('503,ok');
    const offer = app.services.domains.session.snapshot().interruptedRetry!;
    expect(offer).toMatchObject({ attempt: 1, category: 'server_error' });
    expect(app.services.domains.session.resumeInterrupted(offer.chainId)).toBe(true);
    const end = await app.next('auto_retry_end');
    expect(end).toMatchObject({ outcome: 'recovered', chainId: offer.chainId });
    const [resumed, waited] = retryStarts(app);
    expect(resumed).toMatchObject({ resumed: true, delayMs: 0 });
    expect(waited.attempt).toBe(2);
    expect(waited.delayMs).toBeGreaterThan(100);
    expect(app.sim.requests).toHaveLength(2);
    expect(app.sim.requests[1].at).toBeGreaterThanOrEqual(waited.retryAt - 1);
    const detail = app.services.history.getSession(app.services.session.sessionId)!;
    expect(detail.turns.map((t) => t.stopReason)).toEqual([null, 'error', 'error', 'stop']);
  });
});

describe('offline pause and fallback model', () => {
  it('nothing is sent while the chain waits offline; back online, the retry goes at once', async () => {
    app = await startServices(SLOW_WAIT);
    app.sim.setOffline(true);
    const turn = app.services.session.prompt('while offline');
    await app.next('auto_retry_paused');
    await expect.poll(() => app!.sim.refusedReachabilityChecks, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    expect(app.sim.requests).toHaveLength(0);
    app.sim.setOffline(false);
    await turn;
    expect(retryStarts(app)).toEqual([expect.objectContaining({ attempt: 1, delayMs: 0 })]);
    expect(app.sim.requests).toHaveLength(1);
  });

  it('after a switch to the fallback model, the next wait sends its retry to that model when it ends', async () => {
    const SIM2 = { provider: 'simulator', model: 'resolute-sim-2' };
    app = await startServices({ ...SLOW_WAIT, providers: { fallback: [SIM2] } });
    app.sim.setScript('@resolute-sim-1 usage_limit:0* @resolute-sim-2 503 ok');
    await app.services.session.prompt('switch, then wait');
    expect(app.sim.requests.map((r) => r.model)).toEqual(['resolute-sim-1', 'resolute-sim-2', 'resolute-sim-2']);
    const waited = retryStarts(app)[1];
    expect(waited.delayMs).toBeGreaterThan(100);
    expect(app.sim.requests[2].at).toBeGreaterThanOrEqual(waited.retryAt - 1);
    expect(retryEnds(app)).toEqual([expect.objectContaining({ outcome: 'recovered' })]);
  });
});

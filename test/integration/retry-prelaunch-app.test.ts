// A retried run built before its wait ends (src/main/core/retry-prelaunch.ts), through the real
// composition root over real HTTP against its simulator: what else happens in the wait's last
// stretch while its request is held at Node fetch's dispatch — Test connection, a cancel and at once
// the failed card's Retry, a quit and the next start's "Retry now" (the first run of its
// DeferredAgent), a change of settings, an offline pause, a fallback model. The session's HTTP
// recorder is watched (not replaced) to know when the retried request was built and held.
import { afterEach, describe, expect, it } from 'vitest';
import type { AppServices } from '../../src/main/node/app-services';
import type { HttpFactsRecorder } from '../../src/main/node/http-facts';
import type { SessionEvent } from '../../src/shared/events';
import { retryEnds, retryStarts, startServices, type Started } from './fixtures/services';

let app: Started | undefined;
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const types = (events: SessionEvent[]) => events.map((e) => e.type);

interface HoldWatch {
  holds: number;
  cancels: number;
  /** Resolves when a request was built under a hold (the retried run, in its last stretch). */
  built: Promise<void>;
}

/** The session's HTTP-facts recorder (the one its retried runs hold their requests with). */
const sessionFacts = (services: AppServices) => (services as unknown as { httpFacts: HttpFactsRecorder }).httpFacts;

/** Count the session recorder's holds (and their cancels); `built` resolves at the first held request. */
function watchHolds(services: AppServices): HoldWatch {
  const facts = sessionFacts(services);
  let onBuilt: () => void = () => undefined;
  const watch: HoldWatch = { holds: 0, cancels: 0, built: new Promise((resolve) => (onBuilt = resolve)) };
  const holdNext = facts.holdNext.bind(facts);
  const begin = facts.begin.bind(facts);
  let open = false;
  facts.holdNext = () => {
    const hold = holdNext();
    watch.holds += 1;
    open = true;
    return {
      release: () => {
        open = false;
        hold.release();
      },
      cancel: () => {
        open = false;
        watch.cancels += 1;
        hold.cancel();
      },
    };
  };
  facts.begin = () => {
    if (open) onBuilt();
    open = false;
    return begin();
  };
  return watch;
}

// The last stretch widened from 50 ms to most of the wait: what a test does in it (cancel, quit,
// write the settings file) then happens inside it even on a loaded machine.
const SLOW_WAIT = { retry: { baseDelayMs: 1500, jitterMaxMs: 0 } };
const WIDE_LEAD = { prelaunchLeadMs: 1200 };

describe('with the retried request built and held in the last stretch', () => {
  it('Test connection goes at once while the retried run has asked for its hold: only that run takes it', async () => {
    app = await startServices();
    // The moment between the prelaunch asking for the hold and its run building the request.
    const hold = sessionFacts(app.services).holdNext();
    try {
      await expect(app.services.testConnection()).resolves.toMatchObject({ ok: true });
      expect(app.sim.requests).toHaveLength(1);
    } finally {
      hold.cancel();
    }
  });

  it("a cancel, then at once the failed card's Retry: one new request, nothing of the withdrawn run stored or published", async () => {
    app = await startServices(SLOW_WAIT, WIDE_LEAD);
    const watch = watchHolds(app.services);
    app.sim.setScript('503,ok');
    const turn = app.services.session.prompt('hello');
    await watch.built;
    const from = app.events.length;
    expect(app.services.session.abortRetry()).toBe(true);
    const retried = app.services.regenerate();
    await turn;
    await retried;

    expect(watch.cancels).toBe(1);
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

  it('a change of settings that keeps the model keeps the held run; a new model withdraws it and the retry goes to that model', async () => {
    app = await startServices({ retry: { baseDelayMs: 3000, jitterMaxMs: 0 } }, { prelaunchLeadMs: 2500 });
    app.sim.setScript('503,ok,503,ok');
    const first = watchHolds(app.services);
    const one = app.services.session.prompt('one');
    await first.built;
    await app.services.updateSettings({ retry: { timeoutMs: 45_000 } }); // the model is resolved anew, the same
    await one;
    expect(first).toMatchObject({ holds: 1, cancels: 0 });
    expect(app.sim.requests[1].at).toBeGreaterThanOrEqual(retryStarts(app)[0].retryAt - 1);

    const second = watchHolds(app.services);
    const two = app.services.session.prompt('two');
    await second.built;
    await app.services.updateSettings({ provider: { model: 'resolute-sim-2' } });
    await two;
    expect(second).toMatchObject({ holds: 1, cancels: 1 });
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

describe('a quit in the last stretch, and the next start', () => {
  it('the chain is interrupted, nothing sent; "Retry now" is the DeferredAgent\'s first run, and its next wait is held again', async () => {
    const first = await startServices(SLOW_WAIT, WIDE_LEAD);
    const watch = watchHolds(first.services);
    first.sim.setScript('503*');
    void first.services.session.prompt('quit in the last stretch');
    await watch.built;
    const from = first.events.length;
    await first.stop({ keepData: true });
    expect(retryEnds(first)).toEqual([expect.objectContaining({ outcome: 'interrupted' })]);
    expect(first.sim.requests).toHaveLength(1);
    expect(types(first.events.slice(from))).not.toContain('agent_start');

    app = await startServices(SLOW_WAIT, { ...WIDE_LEAD, host: 'browser', dataDir: first.dataDir });
    const next = watchHolds(app.services);
    app.sim.setScript('503,ok');
    const offer = app.services.snapshot().interruptedRetry!;
    expect(offer).toMatchObject({ attempt: 1, category: 'server_error' });
    expect(app.services.resumeInterrupted(offer.chainId)).toBe(true);
    const end = await app.next('auto_retry_end');
    expect(end).toMatchObject({ outcome: 'recovered', chainId: offer.chainId });
    const [resumed, waited] = retryStarts(app);
    expect(resumed).toMatchObject({ resumed: true, delayMs: 0 });
    expect(waited.attempt).toBe(2);
    expect(waited.delayMs).toBeGreaterThan(100);
    expect(app.sim.requests).toHaveLength(2);
    expect(app.sim.requests[1].at).toBeGreaterThanOrEqual(waited.retryAt - 1);
    expect(next).toMatchObject({ holds: 1, cancels: 0 }); // the resumed retry went at once, unheld
    const detail = app.services.history.getSession(app.services.session.sessionId)!;
    expect(detail.turns.map((t) => t.stopReason)).toEqual([null, 'error', 'error', 'stop']);
  });
});

describe('offline pause and fallback model', () => {
  it('no retried run is built while the chain waits offline; back online, the retry goes at once', async () => {
    app = await startServices(SLOW_WAIT, WIDE_LEAD);
    const watch = watchHolds(app.services);
    app.sim.setOffline(true);
    const turn = app.services.session.prompt('while offline');
    await app.next('auto_retry_paused');
    await new Promise((resolve) => setTimeout(resolve, 200)); // several reachability checks, all failing
    expect(watch.holds).toBe(0);
    app.sim.setOffline(false);
    await turn;
    expect(retryStarts(app)).toEqual([expect.objectContaining({ attempt: 1, delayMs: 0 })]);
    expect(watch.holds).toBe(0);
    expect(app.sim.requests).toHaveLength(1);
  });

  it('after a switch to the fallback model, the next wait builds its retry for that model', async () => {
    const SIM2 = { provider: 'simulator', model: 'resolute-sim-2' };
    app = await startServices({ ...SLOW_WAIT, providers: { fallback: [SIM2] } }, WIDE_LEAD);
    const watch = watchHolds(app.services);
    app.sim.setScript('@resolute-sim-1 usage_limit:0* @resolute-sim-2 503 ok');
    await app.services.session.prompt('switch, then wait');
    expect(app.sim.requests.map((r) => r.model)).toEqual(['resolute-sim-1', 'resolute-sim-2', 'resolute-sim-2']);
    const waited = retryStarts(app)[1];
    expect(waited.delayMs).toBeGreaterThan(100);
    expect(app.sim.requests[2].at).toBeGreaterThanOrEqual(waited.retryAt - 1);
    expect(watch).toMatchObject({ holds: 1, cancels: 0 });
    expect(retryEnds(app)).toEqual([expect.objectContaining({ outcome: 'recovered' })]);
  });
});

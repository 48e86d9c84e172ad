// Fallback models and rate-limit pacing over real HTTP (docs/retry-policy.md, "Fallback models",
// "Rate-limit pacing"): the real composition root against its simulator, whose script gives each
// model its own usage limit (@model) and sends used-up rate-limit headers (ok_limited). Each test
// asserts what the server received — how many requests, to which model, with which key, when —
// and what the history and the decision log kept.
import { afterEach, describe, expect, it } from 'vitest';
import type { AutoRetryEndEvent, AutoRetryStartEvent } from '../../src/shared/events';
import { tinyPng } from '../fixtures/attachment-files';
import { anthropicThroughSimulator, startServices, type Started } from './fixtures/services';

const SIM1 = { provider: 'simulator', model: 'resolute-sim-1' };
const SIM2 = { provider: 'simulator', model: 'resolute-sim-2' };
const SIM3 = { provider: 'simulator', model: 'resolute-sim-3' };

let app: Started;
afterEach(() => app.stop());

const models = () => app.sim.requests.map((r) => r.model);
const starts = () => app.events.filter((e): e is AutoRetryStartEvent => e.type === 'auto_retry_start');
const ends = () => app.events.filter((e): e is AutoRetryEndEvent => e.type === 'auto_retry_end');

describe('fallback models', () => {
  it('a usage limit with no other key switches to the next model at once; the switch holds for the session', async () => {
    app = await startServices({ providers: { fallback: [SIM2, SIM3] } });
    app.sim.setScript('@resolute-sim-1 usage_limit:30*');
    await app.services.session.prompt('first');
    expect(models()).toEqual(['resolute-sim-1', 'resolute-sim-2']);
    expect(starts()).toEqual([
      expect.objectContaining({ attempt: 1, delayMs: 0, switchedModel: { from: SIM1, to: SIM2 } }),
    ]);
    expect(ends()).toEqual([expect.objectContaining({ success: true, outcome: 'recovered' })]);
    expect(app.services.session.model.id).toBe('resolute-sim-2');
    expect(app.services.domains.session.snapshot().model).toMatchObject({ id: 'resolute-sim-2' });

    const detail = app.services.history.getSession(app.services.session.sessionId)!;
    expect(detail.turns.filter((t) => t.role === 'assistant').map((t) => [t.model, t.stopReason])).toEqual([
      ['resolute-sim-1', 'error'],
      ['resolute-sim-2', 'stop'],
    ]);
    const switched = detail.decisions.find((d) => d.action === 'retry' && d.finalDecision === null)!;
    expect(switched.context).toMatchObject({
      modelId: 'resolute-sim-1',
      switchedTo: { provider: 'simulator', modelId: 'resolute-sim-2' },
    });
    expect(switched.reason).toMatch(/usage limit on simulator\/resolute-sim-1, switched to simulator\/resolute-sim-2/);

    await app.services.session.prompt('second');
    expect(models()).toEqual(['resolute-sim-1', 'resolute-sim-2', 'resolute-sim-2']);
  });

  it('a new session starts on the first choice again, or keeps the switch when the setting says so', async () => {
    app = await startServices({ providers: { fallback: [SIM2] } });
    // No wait hint: a hint would hold the next prompt to sim-1 until then (rate-limit pacing).
    app.sim.setScript('@resolute-sim-1 usage_limit:0*');
    await app.services.session.prompt('one');
    app.services.domains.session.newSession();
    expect(app.services.session.model.id).toBe('resolute-sim-1');
    app.services.settings.update({ providers: { newSessionUsesFirstChoice: false } });
    await app.services.session.prompt('two'); // sim-1 is limited again: switches again
    app.services.domains.session.newSession();
    expect(app.services.session.model.id).toBe('resolute-sim-2');
    await app.services.session.prompt('three');
    expect(models()).toEqual([
      'resolute-sim-1',
      'resolute-sim-2',
      'resolute-sim-1',
      'resolute-sim-2',
      'resolute-sim-2',
    ]);
  });

  it('another key of the provider is tried before the next model', async () => {
    app = await startServices({ providers: { fallback: [SIM2] } });
    await app.services.domains.providers.addKey('simulator', 'sim-key-a');
    await app.services.domains.providers.addKey('simulator', 'sim-key-b');
    app.sim.setScript('@resolute-sim-1 usage_limit:30*');
    await app.services.session.prompt('keys first');
    expect(app.sim.requests.map((r) => [r.model, r.apiKey])).toEqual([
      ['resolute-sim-1', 'sim-key-a'],
      ['resolute-sim-1', 'sim-key-b'],
      ['resolute-sim-2', 'sim-key-b'],
    ]);
    expect(starts().map((s) => s.switchedModel ?? null)).toEqual([null, { from: SIM1, to: SIM2 }]);
  });

  it('when the whole list is used up the chain ends at once, naming what was tried', async () => {
    app = await startServices({ providers: { fallback: [SIM2, SIM3] } });
    app.sim.setScript(
      '@resolute-sim-1 usage_limit:30* @resolute-sim-2 usage_limit:30* @resolute-sim-3 usage_limit:30*',
    );
    await app.services.session.prompt('nothing left');
    expect(models()).toEqual(['resolute-sim-1', 'resolute-sim-2', 'resolute-sim-3']);
    expect(ends()).toEqual([expect.objectContaining({ success: false, outcome: 'exhausted' })]);
    expect(ends()[0].finalError).toMatch(
      /^Usage limit on every model of the fallback list: tried simulator\/resolute-sim-1, simulator\/resolute-sim-2, simulator\/resolute-sim-3\. /,
    );
  });

  it('a fallback model the provider does not offer is refused with a message naming it', async () => {
    app = await startServices();
    // Through the settings pane's path: a real provider's models come from pi-ai's catalogue, loaded first.
    await expect(
      app.services.domains.settings.update({
        providers: { fallback: [{ provider: 'openai', model: 'no-such-model' }] },
      }),
    ).rejects.toThrow(/providers\.fallback\.0\.model: OpenAI does not offer "no-such-model"/);
    expect(() => app.services.settings.update({ providers: { fallback: [SIM2, SIM2] } })).toThrow(/twice/);
    expect(app.services.settings.get().providers.fallback).toEqual([]);
  });
});

describe('rate-limit pacing', () => {
  it('used-up rate-limit headers hold the next prompt until the reset, then it goes out', async () => {
    app = await startServices();
    app.sim.setScript('ok_limited:1.5');
    await app.services.session.prompt('uses the last request');
    const from = app.events.length;
    const started = Date.now();
    const second = app.services.session.prompt('waits');
    const wait = await app.next('rate_limit_wait', from);
    expect(wait).toMatchObject({ provider: 'simulator', text: 'waits' });
    expect(wait.waitMs).toBeGreaterThan(1000);
    expect(app.services.domains.session.snapshot().pacing).toMatchObject({ provider: 'simulator' });
    expect(app.sim.requests).toHaveLength(1);
    await second;
    expect(await app.next('rate_limit_wait_end', from)).toMatchObject({ outcome: 'reset' });
    expect(app.sim.requests).toHaveLength(2);
    expect(app.sim.requests[1].at - started).toBeGreaterThanOrEqual(1000);
  });

  it('"Send anyway" sends at once; Stop sends nothing', async () => {
    app = await startServices();
    app.sim.setScript('ok_limited:60, ok_limited:60');
    await app.services.session.prompt('one');
    let from = app.events.length;
    const anyway = app.services.session.prompt('two');
    await app.next('rate_limit_wait', from);
    expect(app.services.session.sendAnyway()).toBe(true);
    await anyway;
    expect(await app.next('rate_limit_wait_end', from)).toMatchObject({ outcome: 'sent_anyway' });
    expect(app.sim.requests).toHaveLength(2);

    from = app.events.length;
    const stopped = app.services.session.prompt('three');
    await app.next('rate_limit_wait', from);
    await app.services.session.abort();
    await stopped;
    expect(await app.next('rate_limit_wait_end', from)).toMatchObject({ outcome: 'cancelled' });
    expect(app.sim.requests).toHaveLength(2);
    expect(app.services.session.isBusy).toBe(false);
  });

  it('a held prompt carries its attachments as sent, so a Stop gives the files back too', async () => {
    app = await startServices();
    app.sim.setScript('ok_limited:60');
    await app.services.session.prompt('one');
    const from = app.events.length;
    const png = (await tinyPng()).toString('base64');
    const uploads = [
      { name: 'dot.png', mimeType: 'image/png', data: png },
      { name: 'notes.md', mimeType: 'text/markdown', data: Buffer.from('# Notes').toString('base64') },
    ];
    const prompt = app.services.domains.session.commands['session.prompt'];
    await prompt({ text: 'with files', attachments: uploads });
    const wait = await app.next('rate_limit_wait', from);
    expect(wait.attachments).toEqual(uploads);
    expect(app.services.domains.session.snapshot().pacing?.attachments).toEqual(uploads);
    await app.services.session.abort();
    expect(await app.next('rate_limit_wait_end', from)).toMatchObject({ outcome: 'cancelled' });
    expect(app.sim.requests).toHaveLength(1);
  });

  it("reads Anthropic's headers through the real SDK (the simulator as Anthropic's base URL)", async () => {
    app = await startServices();
    await anthropicThroughSimulator(app.services);
    app.sim.setScript('ok_limited:2');
    await app.services.session.prompt('one');
    const from = app.events.length;
    const second = app.services.session.prompt('two');
    const wait = await app.next('rate_limit_wait', from);
    expect(wait).toMatchObject({ provider: 'anthropic' });
    expect(wait.waitMs).toBeGreaterThan(500);
    expect(app.services.session.sendAnyway()).toBe(true);
    await second;
    expect(app.sim.requests.map((r) => r.api)).toEqual(['anthropic', 'anthropic']);
  });
});

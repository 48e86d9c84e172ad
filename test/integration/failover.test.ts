// Failover that keeps the conversation (docs/retry-policy.md, "Failover"): with a fallback list, a
// chain that runs out of attempts for an outage — 529 overloaded, 503, a refused connection, a
// timeout — goes on with the next model of the list, on another simulated provider, continuing
// from the words the failed attempt streamed. The real composition root over real HTTP: the
// request bodies are asserted at the simulator. Without a list the chain ends as before.
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTINUE_INSTRUCTION } from '../../src/main/core/llm/continue-partial';
import { commands } from '../../src/shared/contract';
import type { ModelRef } from '../../src/shared/settings';
import type { AssistantChatMessage } from '../../src/shared/messages';
import type { SessionEvent } from '../../src/shared/events';
import { RETRY_DEFAULTS } from '../../src/shared/settings-values';
import { anthropicThroughSimulator, retryEnds, retryStarts, startServices, type Started } from './fixtures/services';

const CLAUDE = { provider: 'anthropic', model: 'claude-sonnet-4-5' };
const SIM2: ModelRef = { provider: 'simulator', model: 'resolute-sim-2' };

let app: Started;
afterEach(() => app.stop());

const sent = () => app.sim.requests.map((r) => `${r.api}:${r.model}`);
const decisions = () => app.services.history.getSession(app.services.session.sessionId)!.decisions;

/** The first choice is Anthropic (through the simulator), the fallback the simulator's own model. */
async function withFallback(
  overlay: Record<string, unknown> = {},
  options: Parameters<typeof startServices>[1] = {},
): Promise<Started> {
  const started = await startServices({ providers: { fallback: [SIM2] }, ...overlay }, options);
  await anthropicThroughSimulator(started.services);
  return started;
}

/** A port on 127.0.0.1 that nothing listens on: a connection there is refused. */
async function refusedPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('failover to the next model of the fallback list', () => {
  it('529 overloaded: after its attempts the turn goes on with the fallback, in one decision', async () => {
    app = await withFallback();
    app.sim.setScript('@claude-sonnet-4-5 overloaded*');
    await app.services.session.prompt('hello');
    expect(sent()).toEqual([...Array(4).fill('anthropic:claude-sonnet-4-5'), 'openai-chat:resolute-sim-2']);
    const switched = retryStarts(app).filter((s) => s.switchedModel);
    expect(switched).toEqual([
      expect.objectContaining({ category: 'overloaded', delayMs: 0, switchedModel: { from: CLAUDE, to: SIM2 } }),
    ]);
    expect(retryEnds(app)).toEqual([expect.objectContaining({ success: true, outcome: 'recovered' })]);
    expect(app.events.filter((e) => e.type === 'model_changed').at(-1)).toMatchObject({
      model: { provider: 'simulator', id: 'resolute-sim-2' },
    });
    const record = decisions().filter((d) => d.context.switchedTo);
    expect(record).toHaveLength(1);
    expect(record[0]).toMatchObject({
      category: 'overloaded',
      action: 'retry',
      context: { modelId: 'claude-sonnet-4-5', switchedTo: { provider: 'simulator', modelId: 'resolute-sim-2' } },
    });
    expect(record[0].reason).toMatch(/anthropic\/claude-sonnet-4-5.*simulator\/resolute-sim-2/);
    // Nothing had streamed: the fallback is asked the person's message again, no instruction.
    const last = app.sim.requests.at(-1)!;
    expect(last.lastUserText).toBe('hello');
    expect(JSON.stringify(last.messages)).not.toContain(CONTINUE_INSTRUCTION);

    // The next new prompt goes to the first choice again.
    app.sim.setScript('');
    await app.services.session.prompt('again');
    expect(sent().at(-1)).toBe('anthropic:claude-sonnet-4-5');
  });

  it('an overload in the middle of a reply: the fallback continues from the words it streamed', async () => {
    app = await withFallback();
    app.sim.setScript('@claude-sonnet-4-5 stream_error*');
    await app.services.session.prompt('tell me a story');
    expect(sent().at(-1)).toBe('openai-chat:resolute-sim-2');
    const turns = app.services.history.getSession(app.services.session.sessionId)!.turns;
    const failed = turns.filter((t) => t.role === 'assistant' && t.stopReason === 'error').at(-1)!;
    const words = failed.text;
    expect(words.length).toBeGreaterThan(0);
    const body = app.sim.requests.at(-1)!.messages;
    expect(body.at(-2)).toMatchObject({ role: 'assistant' });
    expect(JSON.stringify(body.at(-2))).toContain(words.trim());
    expect(JSON.stringify(body.at(-1))).toContain(CONTINUE_INSTRUCTION);
    expect(retryEnds(app)).toEqual([expect.objectContaining({ success: true })]);
    // The reply on the fallback is stored as the continuation of the cut-off one, as Continue's is.
    const answer = turns.at(-1)!;
    expect(answer).toMatchObject({ role: 'assistant', stopReason: 'stop', model: 'resolute-sim-2' });
    expect((answer.message as AssistantChatMessage).continues).toEqual({
      timestamp: failed.message.timestamp,
      text: words.trimEnd(),
    });
  });

  it.each([
    ['503*', 4, 'server_error', false],
    ['reset*', 3, 'connection', true],
  ])('%s: after %i requests, failover on the %s row (words carried: %s)', async (fault, count, category, carried) => {
    app = await withFallback();
    app.sim.setScript(`@claude-sonnet-4-5 ${fault}`);
    await app.services.session.prompt('tell me a story');
    expect(sent()).toEqual([...Array(count).fill('anthropic:claude-sonnet-4-5'), 'openai-chat:resolute-sim-2']);
    expect(retryStarts(app).at(-1)).toMatchObject({ category, switchedModel: { to: SIM2 } });
    const last = JSON.stringify(app.sim.requests.at(-1)!.messages.at(-1));
    expect(last.includes(CONTINUE_INSTRUCTION)).toBe(carried);
  });

  it('a refused connection (the provider is down, the network is not): failover to the fallback', async () => {
    app = await startServices({ providers: { fallback: [SIM2] } });
    const port = await refusedPort();
    await app.services.domains.settings.update({
      provider: { id: 'openai-compatible', model: 'down-model', baseUrl: `http://127.0.0.1:${port}/v1` },
    });
    await app.services.session.prompt('hello');
    expect(sent()).toEqual(['openai-chat:resolute-sim-2']);
    expect(retryStarts(app).at(-1)).toMatchObject({
      category: 'connection',
      switchedModel: { from: { provider: 'openai-compatible', model: 'down-model' }, to: SIM2 },
    });
    expect(retryEnds(app)).toEqual([expect.objectContaining({ success: true })]);
  });

  it('a timeout: failover to the fallback', async () => {
    // 150 ms of silence is for the stalls; the switch to the fallback puts the default back, read by
    // its request, so on a loaded machine the fallback's slow first bytes are not a fourth timeout.
    const toDefaultOnSwitch = (event: SessionEvent): void => {
      if (event.type === 'auto_retry_start' && event.switchedModel)
        app.services.settings.update({ retry: { timeoutMs: RETRY_DEFAULTS.timeoutMs } });
    };
    app = await withFallback(
      { retry: { timeoutMs: 150, policy: { timeout: { delayMs: 0 } } } },
      { publish: toDefaultOnSwitch },
    );
    app.sim.setScript('@claude-sonnet-4-5 stall*');
    await app.services.session.prompt('hello');
    expect(sent()).toEqual([...Array(3).fill('anthropic:claude-sonnet-4-5'), 'openai-chat:resolute-sim-2']);
    expect(retryStarts(app).at(-1)).toMatchObject({ category: 'timeout', switchedModel: { to: SIM2 } });
    expect(retryEnds(app)).toEqual([expect.objectContaining({ success: true })]);
  });

  it('the fallback gets its own attempts, the list never wraps, then the chain ends as the table says', async () => {
    app = await withFallback();
    app.sim.setScript('@claude-sonnet-4-5 503* @resolute-sim-2 503*');
    await app.services.session.prompt('hello');
    expect(sent()).toEqual([
      ...Array(4).fill('anthropic:claude-sonnet-4-5'),
      ...Array(4).fill('openai-chat:resolute-sim-2'),
    ]);
    // One counter for the whole chain; its budget grew by the fallback's row.
    expect(retryStarts(app).map((s) => [s.attempt, s.maxAttempts])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
      [4, 7],
      [5, 7],
      [6, 7],
      [7, 7],
    ]);
    expect(retryEnds(app)).toEqual([expect.objectContaining({ success: false, outcome: 'exhausted', attempt: 7 })]);
  });

  it('providers.keepFailoverModel keeps the switch for the next prompts', async () => {
    app = await withFallback({ providers: { fallback: [SIM2], keepFailoverModel: true } });
    app.sim.setScript('@claude-sonnet-4-5 503*');
    await app.services.session.prompt('one');
    await app.services.session.prompt('two');
    expect(sent().slice(-2)).toEqual(['openai-chat:resolute-sim-2', 'openai-chat:resolute-sim-2']);
    expect(app.services.domains.session.snapshot().model).toMatchObject({ id: 'resolute-sim-2' });
  });

  it('a failure the table does not retry does not fail over', async () => {
    app = await withFallback();
    app.sim.setScript('@claude-sonnet-4-5 bad_request*');
    await app.services.session.prompt('hello');
    expect(sent()).toEqual(['anthropic:claude-sonnet-4-5']);
  });

  it('without a fallback list the chain ends as before', async () => {
    app = await startServices();
    await anthropicThroughSimulator(app.services);
    app.sim.setScript('overloaded*');
    await app.services.session.prompt('hello');
    expect(sent()).toEqual(Array(4).fill('anthropic:claude-sonnet-4-5'));
    expect(retryStarts(app).some((s) => s.switchedModel)).toBe(false);
    expect(retryEnds(app)).toEqual([expect.objectContaining({ success: false, outcome: 'exhausted' })]);
  });
});

describe('Continue on another model, by hand (a failed card\'s "Continue on…")', () => {
  it('the chosen model goes on from the words the failed attempt streamed; the next prompt goes back', async () => {
    app = await startServices();
    await anthropicThroughSimulator(app.services);
    app.sim.setScript('@claude-sonnet-4-5 stream_error*');
    await app.services.session.prompt('tell me a story');
    expect(retryEnds(app)).toEqual([expect.objectContaining({ success: false, outcome: 'exhausted' })]);
    const turns = () => app.services.history.getSession(app.services.session.sessionId)!.turns;
    const failed = turns().at(-1)!;
    expect(failed).toMatchObject({ role: 'assistant', stopReason: 'error', model: 'claude-sonnet-4-5' });
    expect(failed.text.length).toBeGreaterThan(0);

    await app.services.domains.session.continueTurn(SIM2);
    expect(sent().at(-1)).toBe('openai-chat:resolute-sim-2');
    const body = app.sim.requests.at(-1)!.messages;
    expect(JSON.stringify(body.at(-2))).toContain(failed.text.trim());
    expect(JSON.stringify(body.at(-1))).toContain(CONTINUE_INSTRUCTION);
    const answer = turns().at(-1)!;
    expect(answer).toMatchObject({ role: 'assistant', stopReason: 'stop', model: 'resolute-sim-2' });
    expect((answer.message as AssistantChatMessage).continues?.timestamp).toBe(failed.message.timestamp);
    expect(app.events.filter((e) => e.type === 'model_changed').at(-1)).toMatchObject({
      model: { provider: 'simulator', id: 'resolute-sim-2' },
    });

    app.sim.setScript('');
    await app.services.session.prompt('again');
    expect(sent().at(-1)).toBe('anthropic:claude-sonnet-4-5');
  });

  it('nothing streamed: the chosen model is asked the message again, without the instruction', async () => {
    app = await startServices();
    await anthropicThroughSimulator(app.services);
    app.sim.setScript('@claude-sonnet-4-5 overloaded*');
    await app.services.session.prompt('hello');
    await app.services.domains.session.continueTurn(SIM2);
    expect(sent()).toEqual([...Array(4).fill('anthropic:claude-sonnet-4-5'), 'openai-chat:resolute-sim-2']);
    const last = app.sim.requests.at(-1)!;
    expect(last.lastUserText).toBe('hello');
    expect(JSON.stringify(last.messages)).not.toContain(CONTINUE_INSTRUCTION);
    // The command's params: a provider/model pair of a known provider, or none (plain Continue).
    const params = commands['session.continue'].params;
    expect(params.safeParse({ on: { provider: 'nowhere', model: 'x' } }).success).toBe(false);
    expect(params.safeParse({ on: { provider: 'simulator', model: '' } }).success).toBe(false);
    expect(params.safeParse({ on: SIM2 }).success).toBe(true);
    expect(params.safeParse({}).success).toBe(true);
  });

  it('offline: the banner\'s "Continue on" ends the paused chain and continues on the chosen model, in one command', async () => {
    app = await startServices();
    await anthropicThroughSimulator(app.services);
    const { session } = app.services.domains;
    // Without a chain paused offline the flag is refused and nothing runs.
    expect(() => session.commands['session.continue']({ on: SIM2, endOfflinePause: true })).toThrow(/paused offline/);
    app.sim.setOffline(true);
    const turn = app.services.session.prompt('while offline');
    await app.next('auto_retry_paused');
    expect(session.commands['session.continue']({ on: SIM2, endOfflinePause: true })).toEqual({ accepted: true });
    expect(retryEnds(app)).toEqual([expect.objectContaining({ outcome: 'cancelled' })]);
    // The continue, offline too, pauses a chain of its own, which the network's return ends.
    app.sim.setOffline(false);
    await turn;
    await app.services.session.settled();
    // The held retry to the first model never went; the continue went to the chosen one.
    expect(sent()).toEqual(['openai-chat:resolute-sim-2']);
    const last = app.services.history.getSession(app.services.session.sessionId)!.turns.at(-1)!;
    expect(last).toMatchObject({ role: 'assistant', stopReason: 'stop', model: 'resolute-sim-2' });
    const params = commands['session.continue'].params;
    expect(params.safeParse({ endOfflinePause: true }).success).toBe(false);
    expect(params.safeParse({ on: SIM2, endOfflinePause: false }).success).toBe(false);
  });
});

// Thinking over real HTTP (docs/thinking-and-context.md): `agent.thinkingLevel` reaches each of
// the four APIs as pi-ai maps it (Chat Completions' reasoning_effort, Responses' reasoning,
// Anthropic's thinking, Gemini's thinkingConfig) with the simulator as each provider; a level is
// remembered per model; the simulator's reasoning_content deltas become a timed thinking block
// that is stored, read back and exported.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionEvent } from '../../src/shared/events';
import type { AssistantChatMessage } from '../../src/shared/messages';
import { AppServices } from '../../src/main/node/app-services';
import { SimulatorServer } from '../../src/main/node/simulator/simulator-server';

let root: string;
let services: AppServices | null = null;
let sim: SimulatorServer | null = null;
const events: SessionEvent[] = [];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'resolute-thinking-'));
  mkdirSync(join(root, 'ws'));
  events.length = 0;
  for (const name of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'GEMINI_API_KEY']) vi.stubEnv(name, '');
});
afterEach(async () => {
  await services?.dispose();
  services = null;
  await sim?.stop();
  sim = null;
  vi.unstubAllEnvs();
  rmSync(root, { recursive: true, force: true });
});

type Provider = 'simulator' | 'anthropic' | 'openai' | 'google';
const MODELS: Record<Provider, string> = {
  simulator: 'resolute-sim-1',
  anthropic: 'claude-sonnet-4-5',
  openai: 'gpt-5-mini',
  google: 'gemini-2.5-flash',
};

async function start(provider: Provider, overlay: Record<string, unknown> = {}): Promise<AppServices> {
  let baseUrl: string | undefined;
  if (provider !== 'simulator') {
    sim = new SimulatorServer({ chunkDelayMs: 1 });
    const v1 = await sim.start();
    const host = v1.replace(/\/v1$/, '');
    baseUrl = provider === 'anthropic' ? host : provider === 'google' ? `${host}/v1beta` : v1;
  }
  services = await AppServices.create({
    host: 'rpc',
    version: 'test',
    dataDir: join(root, 'data'),
    workspace: join(root, 'ws'),
    provider,
    model: MODELS[provider],
    baseUrl,
    apiKey: provider === 'simulator' ? undefined : 'sk-thinking-0001',
    overlay,
    publish: (event) => events.push(event),
  });
  return services;
}

async function reasoningSent(app: AppServices): Promise<Record<string, unknown> | null> {
  const server = sim ?? app.simulator!;
  server.clearRequests();
  await app.session.prompt('hello');
  return server.requests.at(-1)!.reasoning;
}

describe('a thinking level reaches each API as pi-ai maps it', () => {
  it('Chat Completions (the simulator): reasoning_effort, none when off', async () => {
    const app = await start('simulator', { agent: { thinkingLevel: 'high' } });
    expect(await reasoningSent(app)).toEqual({ reasoning_effort: 'high' });
    app.settings.update({ agent: { thinkingLevel: 'off' } });
    expect(await reasoningSent(app)).toBeNull();
  });

  it('OpenAI Responses: reasoning.effort', async () => {
    const app = await start('openai', { agent: { thinkingLevel: 'low' } });
    expect(await reasoningSent(app)).toMatchObject({ reasoning: { effort: 'low' } });
  });

  it('Anthropic Messages: thinking enabled with medium’s budget, disabled when off', async () => {
    const app = await start('anthropic', { agent: { thinkingLevel: 'medium' } });
    expect(await reasoningSent(app)).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 8192 } });
    app.settings.update({ agent: { thinkingLevel: 'off' } });
    expect(await reasoningSent(app)).toEqual({ thinking: { type: 'disabled' } });
  });

  it('Gemini: generationConfig.thinkingConfig', async () => {
    const app = await start('google', { agent: { thinkingLevel: 'high' } });
    const sent = await reasoningSent(app);
    expect(sent?.thinkingConfig).toEqual({ includeThoughts: true, thinkingBudget: 24_576 });
  });
});

describe('the level in use', () => {
  it('is remembered per model; a --set level wins for the run', async () => {
    const app = await start('simulator');
    expect(app.session.thinkingLevel).toBe('off');
    app.settings.update({ agent: { thinkingLevel: 'low', thinkingLevels: { 'simulator/resolute-sim-1': 'low' } } });
    expect(app.session.thinkingLevel).toBe('low');
    app.settings.update({
      provider: { model: 'resolute-sim-2' },
      agent: { thinkingLevel: 'high', thinkingLevels: { 'simulator/resolute-sim-2': 'high' } },
    });
    expect(app.session.thinkingLevel).toBe('high');
    app.settings.update({ provider: { model: 'resolute-sim-1' } });
    expect(app.session.thinkingLevel).toBe('low');
    const changed = events.filter((e) => e.type === 'model_changed').at(-1);
    expect(changed).toMatchObject({ model: { id: 'resolute-sim-1', reasoning: true, thinkingLevel: 'low' } });
    await services!.dispose();
    services = null;
    const run = await start('simulator', { agent: { thinkingLevel: 'minimal' } });
    expect(run.session.thinkingLevel).toBe('minimal');
    expect(run.domains.session.snapshot().model).toMatchObject({ thinkingLevel: 'minimal', contextWindow: 8192 });
  });

  it("RPC's set_thinking_level holds until the settings' level changes", async () => {
    const app = await start('simulator');
    app.session.setThinkingLevel('medium');
    app.settings.update({ ui: { theme: 'dark' } });
    expect(app.session.thinkingLevel).toBe('medium');
    app.settings.update({ agent: { thinkingLevel: 'low' } });
    expect(app.session.thinkingLevel).toBe('low');
  });
});

describe('a thinking block', () => {
  it('streams from reasoning_content, is timed, stored, read back and exported', async () => {
    const app = await start('simulator', { agent: { thinkingLevel: 'medium' } });
    await app.session.prompt('Please think about the colour of the sky.');
    const deltas = events.filter(
      (e) => e.type === 'message_update' && e.assistantMessageEvent.type === 'thinking_delta',
    );
    expect(deltas.length).toBeGreaterThan(3);
    const stored = app.history.getSession(app.session.sessionId)!.turns.at(-1)!.message as AssistantChatMessage;
    const [thinking, text] = stored.content;
    expect(thinking).toMatchObject({ type: 'thinking' });
    expect(thinking.type === 'thinking' && thinking.thinking).toContain('at the "medium" effort asked for');
    expect(thinking.type === 'thinking' && thinking.durationMs).toBeGreaterThan(0);
    expect(text).toMatchObject({ type: 'text' });
    expect(text.type === 'text' && text.text).toMatch(/^Simulated reply/);
    const exported = app.history.exportSession(app.session.sessionId, 'markdown')!.content;
    expect(exported).toMatch(/> \*\*Thinking\*\* · \d+ s\n>\n> The person asked/);
    // The words are not in the answer's text, which goes on to the next request as it was.
    app.simulator!.clearRequests();
    await app.session.prompt('thanks');
    const replayed = app.simulator!.requests[0].messages.find((m) => m.role === 'assistant');
    expect(String(replayed?.content)).not.toContain('The person asked');
  });

  it('is not streamed for a prompt that does not mention thinking', async () => {
    const app = await start('simulator');
    await app.session.prompt('hello');
    const stored = app.history.getSession(app.session.sessionId)!.turns.at(-1)!.message as AssistantChatMessage;
    expect(stored.content.map((b) => b.type)).toEqual(['text']);
  });

  it.each([
    ['anthropic', 'medium'],
    ['openai', 'low'],
    ['google', 'high'],
  ] as const)(
    'streams through the real %s SDK too, stored before the answer; the next request has the words only',
    async (provider, level) => {
      const app = await start(provider, { agent: { thinkingLevel: level } });
      await app.session.prompt('Think about the colour of the sky.');
      const deltas = events.filter(
        (e) => e.type === 'message_update' && e.assistantMessageEvent.type === 'thinking_delta',
      );
      expect(deltas.length).toBeGreaterThan(3);
      const stored = app.history.getSession(app.session.sessionId)!.turns.at(-1)!.message as AssistantChatMessage;
      expect(stored.stopReason).toBe('stop');
      expect(stored.content.map((b) => b.type)).toEqual(['thinking', 'text']);
      const [thinking, text] = stored.content;
      expect(thinking.type === 'thinking' && thinking.thinking).toMatch(/^The person asked/);
      expect(thinking.type === 'thinking' && thinking.durationMs).toBeGreaterThan(0);
      expect(text.type === 'text' && text.text).toMatch(/^Simulated reply/);
      sim!.clearRequests();
      await app.session.prompt('thanks');
      expect(sim!.requests).toHaveLength(1);
      const replayed = sim!.requests[0].messages.find((m) => m.role === 'assistant');
      expect(String(replayed?.content)).toMatch(/^Simulated reply/);
      expect(String(replayed?.content)).not.toContain('The person asked');
    },
  );
});

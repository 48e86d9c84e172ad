// Nothing streamed is lost (docs/retry-policy.md): a reply whose stream fails after some words
// keeps them — in the history and in the runtime context, as pi's RPC `get_messages` shows — and
// Continue sends them back as the model's own message and asks it to go on: as a prefill on
// Anthropic (the request ends with the cut-off reply), with a short instruction after it on the
// others. Through the real composition root and the real SDKs to the simulator's four routes;
// the request bodies are asserted at the simulator, and the continued reply is stored linked to
// the cut-off one and reads back joined after a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CommandRouter } from '../../src/main/router/command-router';
import { AppServices } from '../../src/main/node/app-services';
import { SimulatorServer } from '../../src/main/node/simulator/simulator-server';
import { activePath } from '../../src/shared/history';
import type { AssistantChatMessage } from '../../src/shared/messages';
import type { ResponseFrame } from '../../src/shared/wire';

type Api = 'simulator' | 'openai' | 'anthropic' | 'google';
const MODELS: Record<Exclude<Api, 'simulator'>, string> = {
  openai: 'gpt-4o-mini',
  anthropic: 'claude-sonnet-4-5',
  google: 'gemini-2.5-flash',
};
const FULL_REPLY =
  'Simulated reply: I received "tell me a story". ' +
  "This answer comes from Resolute's built-in simulator. " +
  'Its replies are deterministic, so the same prompt always gets the same answer.';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(api: Api, dataDir?: string) {
  for (const name of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'GEMINI_API_KEY']) vi.stubEnv(name, '');
  const sim = new SimulatorServer({ chunkDelayMs: 1 });
  const v1 = await sim.start();
  const root = v1.replace(/\/v1$/, '');
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), `resolute-continue-${api}-`));
  const provider =
    api === 'simulator'
      ? {}
      : {
          provider: api,
          model: MODELS[api],
          baseUrl: api === 'anthropic' ? root : api === 'google' ? `${root}/v1beta` : v1,
          apiKey: 'sk-continue-0001',
        };
  const services = await AppServices.create({
    host: 'rpc',
    version: 'test',
    dataDir: dir,
    ...provider,
    overlay: { retry: { enabled: false } },
    publish: () => undefined,
  });
  // The built-in simulator is the provider itself; the others talk to this test's own.
  const server = api === 'simulator' ? services.simulator! : sim;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await services.dispose();
    await sim.stop();
  };
  cleanups.push(stop);
  if (!dataDir) cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const router = new CommandRouter(services.commands);
  let id = 1;
  const call = (method: string): Promise<ResponseFrame> =>
    router.dispatch({ kind: 'request', id: id++, method, params: {} });
  return { services, server, call, stop };
}

const stored = (services: AppServices) => activePath(services.history.getSession(services.session.sessionId)!.turns);

describe.each<Api>(['simulator', 'openai', 'anthropic', 'google'])(
  'a stream that fails after some words (%s)',
  (api) => {
    it('keeps them, and Continue goes on from them as one reply', async () => {
      const { services, server, call } = await start(api);
      server.setScript('stream_error');
      await services.session.prompt('tell me a story');

      // What streamed is in the history and in the runtime context (pi's get_messages).
      const failed = stored(services).at(-1)!;
      expect(failed).toMatchObject({ role: 'assistant', stopReason: 'error' });
      expect(failed.text).toBe('Simulated reply: I ');
      const context = services.session.messages.at(-1) as AssistantChatMessage;
      expect(context).toMatchObject({ stopReason: 'error', content: [{ type: 'text', text: 'Simulated reply: I ' }] });

      server.setScript('ok');
      server.clearRequests();
      const reply = await call('session.continue');
      expect(reply.ok).toBe(true);
      await services.session.waitForPendingWork();

      expect(server.requests).toHaveLength(1);
      const sent = server.requests[0].messages.filter((m) => m.role !== 'system');
      const tail = api === 'anthropic' ? sent.slice(-2) : sent.slice(-3);
      expect(tail[0]).toMatchObject({ role: 'user' });
      expect(JSON.stringify(tail[1].content)).toContain('Simulated reply: I');
      expect(tail[1].role).toBe('assistant');
      if (api === 'anthropic') expect(sent.at(-1)!.role).toBe('assistant');
      else expect(JSON.stringify(tail[2].content)).toContain('Continue it exactly where it stopped');

      const continued = stored(services).at(-1)!;
      expect(continued.role).toBe('assistant');
      expect(continued.stopReason).toBe('stop');
      const message = continued.message as AssistantChatMessage;
      expect(message.continues).toEqual({ timestamp: failed.message.timestamp, text: 'Simulated reply: I' });
      expect(message.continues!.text + continued.text).toBe(FULL_REPLY);
      // The cut-off reply stays stored as it was.
      expect(stored(services).at(-2)).toMatchObject({
        id: failed.id,
        stopReason: 'error',
        text: 'Simulated reply: I ',
      });
    });
  },
);

describe('after a restart', () => {
  it('Continue goes on from the stored cut-off reply, and the context reads the continued reply joined', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'resolute-continue-restart-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const first = await start('simulator', dataDir);
    first.server.setScript('stream_error');
    await first.services.session.prompt('tell me a story');
    const sessionId = first.services.session.sessionId;
    await first.stop();

    const second = await start('simulator', dataDir);
    second.services.domains.session.resumeSession(sessionId);
    second.server.setScript('ok');
    second.server.clearRequests();
    expect((await second.call('session.continue')).ok).toBe(true);
    await second.services.session.waitForPendingWork();
    const sent = second.server.requests[0].messages.filter((m) => m.role !== 'system');
    expect(sent.at(-2)).toMatchObject({ role: 'assistant' });
    expect(JSON.stringify(sent.at(-2)!.content)).toContain('Simulated reply: I');
    await second.stop();

    const third = await start('simulator', dataDir);
    third.services.domains.session.resumeSession(sessionId);
    const last = third.services.session.messages.at(-1) as AssistantChatMessage;
    expect(last.content).toEqual([{ type: 'text', text: FULL_REPLY }]);
  });
});

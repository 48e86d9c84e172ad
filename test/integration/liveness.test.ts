// Liveness over real HTTP (docs/retry-policy.md, "Liveness: silence means no bytes", "Two clocks"):
// the real composition root against a small OpenAI-compatible server that counts the chat requests
// it gets. Times are scaled down — retry.timeoutMs 30 s becomes a second or less, the probe runs
// every 50 ms — and every wait is for a state (a count at the server, an event), never for time.
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/shared/events';
import { RETRY_DEFAULTS } from '../../src/shared/settings-values';
import { ChatServer, finish, openStream, words, type ChatExchange } from './fixtures/chat-server';
import { startServices, type Started } from './fixtures/services';

let app: Started | undefined;
let server: ChatServer | undefined;
afterEach(async () => {
  await app?.stop();
  await server?.stop();
  app = undefined;
  server = undefined;
});

/** The linear rows retry at once, so a wrong retry shows as a request, not as a wait. */
const retry = (timeoutMs: number) => ({
  retry: { timeoutMs, policy: { timeout: { delayMs: 1 }, invalid_output: { delayMs: 1 } } },
});

async function serve(script: (exchange: ChatExchange) => void | Promise<void>): Promise<string> {
  server = new ChatServer(script);
  return server.start();
}

/** A cloud provider (OpenRouter) whose base URL is the test server: a proxy, still a cloud provider. */
async function cloudApp(url: string, timeoutMs: number): Promise<Started> {
  app = await startServices(retry(timeoutMs));
  await app.services.domains.settings.update({
    provider: { id: 'openrouter', model: 'openai/gpt-4o', baseUrls: { openrouter: url } },
  });
  await app.services.domains.providers.addKey('openrouter', 'sk-or-test');
  return app;
}

/** The OpenAI-compatible provider at a loopback address: a local server. */
async function localApp(url: string, timeoutMs: number): Promise<Started> {
  app = await startServices(retry(timeoutMs), { livenessProbeMs: 50 });
  await app.services.domains.settings.update({
    provider: { id: 'openai-compatible', model: 'local-model', baseUrl: url },
  });
  return app;
}

const lastReply = (started: Started) => started.services.session.lastAssistantText();
const failedTurns = (started: Started) =>
  started.services.history
    .getSession(started.services.session.sessionId)!
    .turns.filter((t) => t.role === 'assistant' && t.stopReason === 'error');
const ofType = (events: SessionEvent[], type: SessionEvent['type']) => events.filter((e) => e.type === type);

describe('silence means no bytes', () => {
  it('keep-alive comments past the idle limit keep the request: one request, the reply arrives', async () => {
    const idleMs = 2000;
    const url = await serve(async ({ res, n }) => {
      openStream(res);
      if (n > 1) {
        // Keep-alives every ~100 ms until the server's clock is half the limit past it: past the
        // limit however a busy machine stretches the sleeps (15 of them took 8 s at a load of 18).
        for (const until = Date.now() + idleMs * 1.5; Date.now() < until;) {
          res.write(': keep-alive\n\n');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      words(res, n > 1 ? 'Hello after the queue' : 'Warm');
      finish(res);
    });
    // A first exchange at the default limit loads the provider's SDK and opens the connection: at a
    // load of 18 those alone passed a 1 s limit, and the request timed out before the server had it.
    const started = await cloudApp(url, RETRY_DEFAULTS.timeoutMs);
    await started.services.session.prompt('warm up');
    started.services.settings.update({ retry: { timeoutMs: idleMs } }); // read per request
    await started.services.session.prompt('hi');
    expect(server!.chatRequests).toBe(2); // the warm-up's and this prompt's one: never retried
    expect(lastReply(started)).toBe('Hello after the queue');
    expect(failedTurns(started)).toEqual([]);
  });

  it.each([
    ['a cloud provider', cloudApp],
    ['a local server', localApp],
  ])('a stall after words times out at retry.timeoutMs and is retried by the timeout row: %s', async (_, make) => {
    const url = await serve(({ res, n }) => {
      openStream(res);
      words(res, n === 1 ? 'The first words' : 'Answered on the retry');
      if (n > 1) finish(res);
      // The first answer stalls after its words: no byte more until the client gives up.
    });
    const started = await make(url, 400);
    await started.services.session.prompt('hi');
    expect(server!.chatRequests).toBe(2);
    expect(server!.closedEarly).toBe(1);
    expect(lastReply(started)).toBe('Answered on the retry');
    expect(failedTurns(started)).toEqual([
      expect.objectContaining({ errorCategory: 'timeout', errorMessage: 'Request timed out: no bytes for 0.4 s' }),
    ]);
    expect(ofType(started.events, 'auto_retry_end')).toEqual([expect.objectContaining({ outcome: 'recovered' })]);
  });
});

describe('two clocks: a local server gets a first-token wait, watched by a probe', () => {
  it('a local server silent past the idle limit before its first byte is answered with one request', async () => {
    // Silent until the app has probed it 8 times (8 × 50 ms, past the 300 ms idle limit: "40 s" at
    // the default 30 s), then the answer; the first-token wait stays at its default (10 min).
    let shown: unknown;
    const url = await serve(async ({ res, gone }) => {
      const probesBefore = server!.probes;
      await Promise.race([server!.until(() => server!.probes >= probesBefore + 8), gone]);
      if (res.destroyed) return;
      // What a window that comes to this chat now is given: the wait, since the request went out.
      shown = app!.services.session.snapshot({ turns: [], chains: [], decisions: [], hasOlderTurns: false }).promptWait;
      openStream(res);
      words(res, 'Processed the long prompt');
      finish(res);
    });
    const started = await localApp(url, 300);
    await started.services.session.prompt('a long prompt');
    expect(server!.chatRequests).toBe(1);
    expect(lastReply(started)).toBe('Processed the long prompt');
    expect(failedTurns(started)).toEqual([]);
    const types = started.events.map((e) => e.type).filter((t) => t.startsWith('prompt_processing'));
    expect(types).toEqual(['prompt_processing_start', 'prompt_processing_end']);
    const start = started.events.find((e) => e.type === 'prompt_processing_start');
    expect(shown).toEqual({ startedAt: start && 'startedAt' in start ? start.startedAt : -1 });
  });

  it('a dead local server (the probe is refused) fails as `connection`, its request closed', async () => {
    const url = await serve(() => {
      // The server goes away while the request is held: nothing listens for the probe any more.
      server!.server.close();
    });
    const started = await localApp(url, 300);
    await started.services.session.prompt('hi');
    expect(server!.chatRequests).toBe(1);
    expect(server!.closedEarly).toBe(1);
    const [first] = failedTurns(started);
    expect(first).toMatchObject({ errorCategory: 'connection' });
    expect(first.errorMessage).toMatch(/local server at http:\/\/127\.0\.0\.1:\d+\/v1 refused the connection/);
  });

  it('Stop while the server processes the prompt closes the connection and sends nothing again', async () => {
    const url = await serve(() => undefined);
    const started = await localApp(url, 300);
    const prompt = started.services.session.prompt('hi');
    await started.next('prompt_processing_start');
    await started.services.session.abort();
    await prompt;
    await server!.until(() => server!.closedEarly === 1);
    expect(server!.chatRequests).toBe(1);
    expect(ofType(started.events, 'prompt_processing_end')).toHaveLength(1);
    expect(ofType(started.events, 'auto_retry_start')).toEqual([]);
  });
});

// The chat's message actions through the real composition root and command router, over real HTTP
// to the simulator: edit and resend (a branch in SQLite, the old turns kept), regenerate and the
// failed card's Retry (each exactly one new request), Test connection (the real path, classified),
// rename, the fault script re-armed when the same script is entered again, and the Markdown demo.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandRouter } from '../../src/main/router/command-router';
import { AppServices } from '../../src/main/node/app-services';
import { activePath } from '../../src/shared/history';
import type { ResponseFrame } from '../../src/shared/wire';

let services: AppServices;
let router: CommandRouter;
let dataDir: string;
let nextId = 1;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'resolute-actions-'));
  services = await AppServices.create({
    host: 'rpc',
    version: 'test',
    dataDir,
    overlay: { retry: { baseDelayMs: 1, jitterMaxMs: 0, enabled: false } },
    publish: () => undefined,
  });
  router = new CommandRouter(services.commands);
});

afterAll(async () => {
  await services.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});

async function call(method: string, params: object = {}): Promise<ResponseFrame> {
  return router.dispatch({ kind: 'request', id: nextId++, method, params });
}

async function ok(method: string, params: object = {}): Promise<unknown> {
  const reply = await call(method, params);
  if (!reply.ok) throw new Error(`${reply.error.code}: ${reply.error.message}`);
  return reply.result;
}

const sim = () => services.simulator!;
const turns = () => services.history.getSession(services.session.sessionId)!.turns;
const pathTexts = () => activePath(turns()).map((t) => t.text || `!${t.errorMessage}`);

describe('message actions over the real path', () => {
  it('edit and resend sends one request with the edited text and keeps the old branch stored', async () => {
    sim().setScript('');
    await services.session.prompt('first question');
    await services.session.prompt('second question');
    const second = turns().find((t) => t.text === 'second question')!;
    sim().clearRequests();
    await ok('session.edit', { turnId: second.id, text: 'second, edited' });
    await services.session.waitForPendingWork();
    expect(sim().requests.map((r) => r.lastUserText)).toEqual(['second, edited']);
    expect(turns()).toHaveLength(6);
    expect(pathTexts()).toEqual([
      'first question',
      expect.stringContaining('first question'),
      'second, edited',
      expect.stringContaining('second, edited'),
    ]);
  });

  it('the failed card Retry sends exactly one request and keeps the failure; regenerate replaces a reply', async () => {
    sim().setScript('503');
    await services.session.prompt('will fail once');
    sim().clearRequests();
    await ok('session.regenerate');
    await services.session.waitForPendingWork();
    expect(sim().requests).toHaveLength(1);
    expect(pathTexts().slice(-3)).toEqual([
      'will fail once',
      '!503 Service Unavailable',
      expect.stringContaining('will fail once'),
    ]);
    await ok('session.regenerate');
    await services.session.waitForPendingWork();
    expect(sim().requests).toHaveLength(2);
    // Regenerate replaces everything after the question: the failure and the first answer.
    expect(pathTexts().slice(-3)).toEqual([
      expect.stringContaining('second, edited'),
      'will fail once',
      expect.stringContaining('will fail once'),
    ]);
    expect(activePath(turns()).at(-1)?.branchFrom).toBe(turns().find((t) => t.text === 'will fail once')!.seq + 1);
  });

  it('refuses an edit of an unknown turn with an error reply, not a notice', async () => {
    const reply = await call('session.edit', { turnId: 'nope', text: 'x' });
    expect(reply).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('Test connection answers from the simulator, and classifies its auth error', async () => {
    sim().setScript('');
    expect(await ok('providers.test')).toMatchObject({ ok: true, provider: 'simulator', category: null });
    sim().setScript('auth');
    expect(await ok('providers.test')).toMatchObject({ ok: false, category: 'auth' });
    expect(sim().requests.at(-1)?.step).toBe('auth');
    expect(turns().some((t) => t.text.includes('single word'))).toBe(false);
  });

  it('renames a session and refuses an unknown one', async () => {
    const id = services.session.sessionId;
    expect(await ok('history.rename', { sessionId: id, title: 'My own title' })).toMatchObject({
      title: 'My own title',
    });
    expect(services.session.title).toBe('My own title');
    expect(await call('history.rename', { sessionId: 'nope', title: 'x' })).toMatchObject({ ok: false });
  });

  it('entering the same fault script again re-arms it from its first step', async () => {
    await ok('simulator.setScript', { script: '503,ok' });
    await services.session.prompt('uses the 503');
    await ok('simulator.setScript', { script: '503,ok' });
    sim().clearRequests();
    await services.session.prompt('the 503 again');
    expect(sim().requests.map((r) => r.step)).toEqual(['503']);
    expect(await call('simulator.setScript', { script: 'nonsense' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_params' },
    });
  });

  it('a prompt that mentions markdown gets the Markdown demo reply', async () => {
    sim().setScript('');
    await services.session.prompt('Show me some Markdown');
    expect(services.session.lastAssistantText()).toMatch(/^# Markdown from the simulator[\s\S]*\| :-- \|[\s\S]*```ts/);
  });

  it('saving an export to a chosen file needs the desktop host', async () => {
    const reply = await call('history.saveExport', { sessionId: services.session.sessionId, format: 'markdown' });
    expect(reply).toMatchObject({ ok: false, error: { message: expect.stringMatching(/desktop app/) } });
  });
});

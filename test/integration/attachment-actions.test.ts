// Attachments through the command router and the real composition root, over real HTTP to the
// simulator: a refusal is an invalid_params reply with nothing sent; a retry after a 503, Edit
// (keeping or dropping them), Regenerate and a resume after a restart all send the same image again.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CommandRouter } from '../../src/main/router/command-router';
import { AppServices } from '../../src/main/node/app-services';
import { writeExport } from '../../src/main/node/export-files';
import { activePath } from '../../src/shared/history';
import type { ResponseFrame } from '../../src/shared/wire';
import { tinyPng } from '../fixtures/attachment-files';

let services: AppServices;
let router: CommandRouter;
let dataDir: string;
let nextId = 1;
let png = '';

const create = () =>
  AppServices.create({
    host: 'rpc',
    version: 'test',
    dataDir,
    overlay: { retry: { baseDelayMs: 1, jitterMaxMs: 0 } },
    publish: () => undefined,
    // As the desktop app's save dialog does, with the folder the person "chose" fixed.
    saveFile: async (file) => {
      const path = join(dataDir, 'exports', file.filename);
      mkdirSync(dirname(path), { recursive: true });
      await writeExport(path, file);
      return path;
    },
  });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'resolute-attach-actions-'));
  png = (await tinyPng()).toString('base64');
  services = await create();
  router = new CommandRouter(services.commands);
});
afterAll(async () => {
  await services.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(() => {
  services.simulator!.setScript('');
  services.simulator!.clearRequests();
});

const call = (method: string, params: object = {}): Promise<ResponseFrame> =>
  router.dispatch({ kind: 'request', id: nextId++, method, params });
const sim = () => services.simulator!;
const lastUserTurn = (): string =>
  activePath(services.history.getSession(services.session.sessionId)!.turns).findLast((t) => t.role === 'user')!.id;
const imagesSent = () => sim().requests.map((r) => r.images.length);
const image = { name: 'dot.png', mimeType: 'image/png', data: '' };

/** Run a command that starts a turn, and wait until that turn has ended with `requests` requests in all. */
async function turn(method: string, params: object, requests: number): Promise<void> {
  const reply = await call(method, params);
  expect(reply.ok ? 'ok' : reply.error.message).toBe('ok');
  const started = Date.now();
  while (services.simulator!.requests.length < requests && Date.now() - started < 10_000)
    await new Promise((resolve) => setTimeout(resolve, 10));
  await services.session.waitForPendingWork();
}

describe('attachments and the message actions', () => {
  it('a refused attachment is an invalid_params reply naming it, and nothing is sent', async () => {
    const reply = await call('session.prompt', {
      text: 'hi',
      attachments: [{ name: 'a.zip', mimeType: 'application/zip', data: 'UEs=' }],
    });
    expect(reply).toMatchObject({
      ok: false,
      error: { code: 'invalid_params', message: expect.stringContaining('"a.zip"') },
    });
    expect(sim().requests).toHaveLength(0);
  });

  it('empty text with no attachment is still refused', async () => {
    const reply = await call('session.prompt', { text: '  ' });
    expect(reply).toMatchObject({
      ok: false,
      error: { code: 'invalid_params', message: 'session.prompt: text: must not be empty' },
    });
  });

  it('a retry after a 503 sends the image again', async () => {
    sim().setScript('503,ok');
    expect(await call('session.prompt', { text: 'Look', attachments: [{ ...image, data: png }] })).toMatchObject({
      ok: true,
    });
    await services.session.waitForPendingWork();
    expect(imagesSent()).toEqual([1, 1]);
  });

  it('Regenerate and Edit send it again; Edit can leave it out', async () => {
    await turn('session.regenerate', {}, 1);
    await turn('session.edit', { turnId: lastUserTurn(), text: 'Look again' }, 2);
    // Edit the edited message (the branch's), leaving its image out.
    await turn('session.edit', { turnId: lastUserTurn(), text: 'No picture now', keepAttachments: [] }, 3);
    expect(imagesSent()).toEqual([1, 1, 0]);
    expect(sim().requests[1].lastUserText).toBe('Look again');
  });

  it('after a restart the resumed conversation still carries the image to the model', async () => {
    expect(await call('session.new')).toMatchObject({ ok: true });
    await turn('session.prompt', { text: 'Keep it', attachments: [{ ...image, data: png }] }, 1);
    const sessionId = services.session.sessionId;
    await services.dispose();
    services = await create();
    router = new CommandRouter(services.commands);
    expect(await call('session.resume', { sessionId })).toMatchObject({ ok: true });
    await turn('session.regenerate', {}, 1);
    expect(services.simulator!.requests.at(-1)?.images).toEqual([
      { mimeType: 'image/png', bytes: Buffer.from(png, 'base64').length },
    ]);
  });

  it('a saved Markdown export writes the image as a file beside it, linked from the .md', async () => {
    expect(await call('session.new')).toMatchObject({ ok: true });
    await turn('session.prompt', { text: 'Export me', attachments: [{ ...image, data: png }] }, 1);
    const reply = await call('history.saveExport', { sessionId: services.session.sessionId, format: 'markdown' });
    if (!reply.ok) throw new Error(reply.error.message);
    const { path } = reply.result as { path: string };
    const markdown = readFileSync(path, 'utf8');
    const link = /!\[dot\.png\]\(([^)]+)\)/.exec(markdown)?.[1] ?? '';
    expect(link).toMatch(/^resolute-export-me-\d{4}-\d{2}-\d{2}\/1-dot\.png$/);
    expect(markdown).not.toContain('data:image/png');
    const saved = join(dirname(path), link);
    expect(existsSync(saved)).toBe(true);
    expect(readFileSync(saved).equals(Buffer.from(png, 'base64'))).toBe(true);
  });
});

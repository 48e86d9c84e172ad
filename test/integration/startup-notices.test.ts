// Notices raised while the app starts — a damaged settings or credentials file, a stale lock taken
// over — happen before any client listens; they are kept and handed to every client that comes
// later: in app.info (which the window reads on connect) through the real command router.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, parseCommonFlags, type LaunchedApp } from '../../src/main/modes/launch';
import type { AppInfo } from '../../src/shared/contract';

let dir: string;
let app: LaunchedApp;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'resolute-notices-'));
  mkdirSync(join(dir, 'data'));
  writeFileSync(join(dir, 'data', 'settings.json'), '{ "retry": { "enabled": false, "maxRetries": 7');
  writeFileSync(join(dir, 'data', 'credentials.json'), 'null');
  app = await launchApp(parseCommonFlags(['--data-dir', join(dir, 'data')]), 'browser');
});

afterAll(async () => {
  await app.services.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('start-up notices', () => {
  it('app.info carries what went wrong at start, for a client that connects later', async () => {
    const reply = await app.router.dispatch({ kind: 'request', id: 1, method: 'app.info', params: {} });
    expect(reply.ok).toBe(true);
    const { notices } = (reply as { result: AppInfo }).result;
    expect(notices).toEqual([
      expect.objectContaining({ level: 'error', message: expect.stringMatching(/settings file was invalid.*kept as/) }),
      expect.objectContaining({ level: 'error', message: expect.stringMatching(/credentials file could not be read/) }),
    ]);
    expect(new Set(notices.map((n) => n.id)).size).toBe(2);
  });
});

// The Electron IPC transport against the real app (launchApp on a temporary data folder: real
// router, real SQLite, real simulator) and a FAKE ipcMain and window (electron-fakes.ts: the
// Electron binary cannot run here). Checks the answer to our window, the refusal of every other
// sender, event forwarding, and that unwiring stops both.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ResponseFrame } from '../../../src/shared/wire';
import { IPC_CHANNELS } from '../../../src/shared/ipc';
import { launchApp, parseCommonFlags, type LaunchedApp } from '../../../src/main/modes/launch';
import { FakeFrame, FakeIpcMain, FakeWebContents, FakeWindow } from './electron-fakes';

// security.ts (the sender check) imports electron's app/session/shell for its other functions.
vi.mock('electron', () => ({ app: {}, session: {}, shell: {} }));
const { wireIpc } = await import('../../../src/main/electron/ipc-transport');

const BASE = 'file:///app/out/renderer/';
const CALL = IPC_CHANNELS.call;
const EVENTS = IPC_CHANNELS.event;
const request = { kind: 'request', id: 7, method: 'app.info', params: {} };

describe('wireIpc', () => {
  let dataDir: string;
  let launched: LaunchedApp;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'resolute-ipc-'));
    launched = await launchApp(parseCommonFlags(['--data-dir', dataDir]), 'electron');
  });

  afterAll(async () => {
    await launched.services.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function wire(win: FakeWindow | null) {
    const ipcMain = new FakeIpcMain();
    const unwire = wireIpc({
      ipcMain,
      callChannel: CALL,
      eventChannel: EVENTS,
      window: () => win?.asBrowserWindow() ?? null,
      rendererBase: BASE,
      router: launched.router,
      hub: launched.hub,
    });
    return { ipcMain, unwire };
  }

  it('answers a request from our window through the router', async () => {
    const win = new FakeWindow(`${BASE}index.html`);
    const { ipcMain, unwire } = wire(win);
    const reply = (await ipcMain.invoke(CALL, win.webContents, win.webContents.mainFrame, request)) as ResponseFrame;
    expect(reply).toMatchObject({ kind: 'response', id: 7, ok: true, result: { host: 'electron' } });
    unwire();
  });

  it('turns a malformed frame into an error reply, not a throw', async () => {
    const win = new FakeWindow(`${BASE}index.html`);
    const { ipcMain, unwire } = wire(win);
    const reply = (await ipcMain.invoke(CALL, win.webContents, win.webContents.mainFrame, { kind: 'nonsense' })) as {
      ok: boolean;
    };
    expect(reply.ok).toBe(false);
    unwire();
  });

  it.each([
    ['another webContents', (_win: FakeWindow) => ({ sender: new FakeWebContents(`${BASE}index.html`), frame: null })],
    ['a subframe of our window', (win: FakeWindow) => ({ sender: win.webContents, frame: new FakeFrame(BASE) })],
    [
      'our window navigated elsewhere',
      (win: FakeWindow) => {
        win.webContents.mainFrame.url = 'https://example.com/';
        return { sender: win.webContents, frame: win.webContents.mainFrame };
      },
    ],
    [
      'a destroyed window',
      (win: FakeWindow) => {
        win.destroyed = true;
        return { sender: win.webContents, frame: win.webContents.mainFrame };
      },
    ],
    ['no frame at all', (win: FakeWindow) => ({ sender: win.webContents, frame: null })],
  ])('refuses %s without reaching the router', async (_, from) => {
    const win = new FakeWindow(`${BASE}index.html`);
    const { ipcMain, unwire } = wire(win);
    const dispatch = vi.spyOn(launched.router, 'dispatch');
    const { sender, frame } = from(win);
    const reply = await ipcMain.invoke(CALL, sender as FakeWebContents, frame as FakeFrame | null, request);
    expect(reply).toEqual({
      kind: 'response',
      id: null,
      ok: false,
      error: { code: 'unauthorized', message: 'IPC from an untrusted sender' },
    });
    expect(dispatch).not.toHaveBeenCalled();
    dispatch.mockRestore();
    unwire();
  });

  it('refuses everything while there is no window yet', async () => {
    const { ipcMain, unwire } = wire(null);
    const stranger = new FakeWebContents(`${BASE}index.html`);
    const reply = (await ipcMain.invoke(CALL, stranger, stranger.mainFrame, request)) as { ok: boolean };
    expect(reply.ok).toBe(false);
    unwire();
  });

  it('forwards session events to the window, skips a destroyed one, and stops once unwired', () => {
    const win = new FakeWindow(`${BASE}index.html`);
    const { ipcMain, unwire } = wire(win);
    const notice = { type: 'notice', level: 'info', message: 'hello' } as const;
    launched.hub.publish(notice);
    expect(win.webContents.sent).toEqual([{ channel: EVENTS, payload: notice }]);
    win.destroyed = true;
    launched.hub.publish(notice);
    expect(win.webContents.sent).toHaveLength(1);
    win.destroyed = false;
    unwire();
    launched.hub.publish(notice);
    expect(win.webContents.sent).toHaveLength(1);
    expect(ipcMain.handlers.has(CALL)).toBe(false);
  });
});

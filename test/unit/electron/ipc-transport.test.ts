// The Electron IPC transport against the real app (launchApp on a temporary data folder: real
// router, real SQLite, real simulator) and a FAKE ipcMain and window (electron-fakes.ts: the
// Electron binary cannot run here). Checks the answer to our window, the refusal of every other
// sender, event forwarding, and that unwiring stops both; and that a streaming message goes as
// patches which the renderer's IpcBridge (over the preload's transport) decodes to the very events
// the window got whole before, also after the page reloads mid-stream.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SessionEvent } from '../../../src/shared/events';
import type { TurnRecord } from '../../../src/shared/history';
import type { ChatMessage } from '../../../src/shared/messages';
import type { WireEvent } from '../../../src/shared/message-patch';
import type { ResponseFrame } from '../../../src/shared/wire';
import { IPC_CHANNELS } from '../../../src/shared/ipc';
import { EventHub, windowStream } from '../../../src/main/router/event-hub';
import { launchApp, parseCommonFlags, type LaunchedApp } from '../../../src/main/modes/launch';
import { createIpcTransport } from '../../../src/preload/transport';
import { IpcBridge } from '../../../src/renderer/src/bridge/ipc-bridge';
import { COMMAND_NAMES } from '../../../src/shared/contract';
import { FakeFrame, FakeIpcMain, FakeWebContents, FakeWindow } from './electron-fakes';

// security.ts (the sender check) imports electron's app/session/shell for its other functions.
vi.mock('electron', () => ({ app: {}, session: {}, shell: {} }));
const { wireIpc } = await import('../../../src/main/electron/ipc-transport');

const BASE = 'file:///app/out/renderer/';
const CALL = IPC_CHANNELS.call;
const EVENTS = IPC_CHANNELS.event;
const request = { kind: 'request', id: 7, method: 'app.info', params: {} };

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

describe('wireIpc', () => {
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

function reply(text: string, output: number): ChatMessage {
  return {
    role: 'assistant',
    content: [{ type: 'text', text }],
    usage: { input: 3, output },
    stopReason: 'stop',
    timestamp: 42,
  } as unknown as ChatMessage;
}

/** A reply of 400 tokens, a provider event every 4 ms (so several a display frame), its end and its stored turn. */
function* streamedReply(): Generator<SessionEvent> {
  yield { type: 'message_start', message: reply('', 0) };
  let text = '';
  for (let i = 0; i < 400; i += 1) {
    text += i % 40 === 39 ? `"line ${i}"\n` : `w${i} `;
    yield {
      type: 'message_update',
      message: reply(text, i),
      assistantMessageEvent: { type: 'text_delta', contentIndex: 0, delta: 'w', partial: reply(text, i) },
    } as SessionEvent;
  }
  const final = reply(text, 400);
  yield { type: 'message_end', message: final };
  const turn = { id: 't1', sessionId: 's1', seq: 2, role: 'assistant', text, message: final, createdAt: 42 };
  yield { type: 'turn_persisted', turn: turn as unknown as TurnRecord };
  yield { type: 'turn_end', message: final, toolResults: [] };
  yield { type: 'agent_end', messages: [final] };
}

/** The page's side: the preload's transport over a fake ipcRenderer that the test hands what was sent. */
function page() {
  const listeners = new Set<(event: unknown, payload: WireEvent) => void>();
  const ipc = {
    invoke: () => Promise.reject(new Error('not used')),
    on: (_channel: string, listener: (event: unknown, payload: WireEvent) => void) => listeners.add(listener),
    removeListener: (_channel: string, listener: (event: unknown, payload: WireEvent) => void) =>
      listeners.delete(listener),
  };
  const seen: SessionEvent[] = [];
  new IpcBridge(createIpcTransport(ipc, COMMAND_NAMES)).onEvent((event) => seen.push(event));
  // Electron copies each payload across (structured clone).
  const deliver = (payload: unknown) => listeners.forEach((l) => l({}, structuredClone(payload) as WireEvent));
  return { seen, deliver };
}

describe('wireIpc, a streaming message', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function streamTo(win: FakeWindow) {
    const hub = new EventHub();
    const ipcMain = new FakeIpcMain();
    const unwire = wireIpc({
      ipcMain,
      callChannel: CALL,
      eventChannel: EVENTS,
      window: () => win.asBrowserWindow(),
      rendererBase: BASE,
      router: launched.router,
      hub,
    });
    // What the window got before patches: the same pacing, every event whole.
    const whole: SessionEvent[] = [];
    hub.subscribe(windowStream((event) => whole.push(structuredClone(event))).push);
    return { hub, ipcMain, unwire, whole };
  }

  it('goes as patches that the IpcBridge decodes to the whole events, a fraction of their bytes', () => {
    vi.useFakeTimers();
    const win = new FakeWindow(`${BASE}index.html`);
    const { hub, unwire, whole } = streamTo(win);
    for (const event of streamedReply()) {
      hub.publish(event);
      vi.advanceTimersByTime(4);
    }
    vi.advanceTimersByTime(100);
    const { seen, deliver } = page();
    win.webContents.sent.forEach(({ payload }) => deliver(payload));
    const types = win.webContents.sent.map(({ payload }) => (payload as WireEvent).type);
    expect(types.filter((t) => t === 'message_patch').length).toBeGreaterThan(50);
    expect(types).toContain('message_end_patch');
    expect(types).toContain('turn_persisted_ref');
    // The 16 ms pacing is kept: the same events, as many, in the same order.
    expect(whole.filter((e) => e.type === 'message_update').length).toBeLessThan(150);
    expect(seen).toEqual(whole);
    const bytes = (events: unknown[]) => events.reduce<number>((n, e) => n + JSON.stringify(e).length, 0);
    expect(bytes(win.webContents.sent.map(({ payload }) => payload))).toBeLessThan(bytes(whole) / 10);
    unwire();
  });

  it('starts the message over whole once a reloaded page asks for the snapshot', async () => {
    vi.useFakeTimers();
    const win = new FakeWindow(`${BASE}index.html`);
    const { hub, ipcMain, unwire, whole } = streamTo(win);
    const events = [...streamedReply()];
    const delivered = () => win.webContents.sent.length;
    const publish = (slice: SessionEvent[]) =>
      slice.forEach((event) => {
        hub.publish(event);
        vi.advanceTimersByTime(4);
      });
    publish(events.slice(0, 100));
    // The page reloads: a new bridge listens (what was sent before is gone), then asks for the snapshot.
    const reloaded = page();
    const from = delivered();
    const wholeFrom = whole.length;
    const getState = { kind: 'request', id: 1, method: 'session.getState', params: {} };
    await expect(ipcMain.invoke(CALL, win.webContents, win.webContents.mainFrame, getState)).resolves.toMatchObject({
      ok: true,
    });
    publish(events.slice(100));
    vi.advanceTimersByTime(100);
    win.webContents.sent.slice(from).forEach(({ payload }) => reloaded.deliver(payload));
    expect((win.webContents.sent[from]?.payload as WireEvent).type).toBe('message_update');
    expect(reloaded.seen).toEqual(whole.slice(wholeFrom));
    unwire();
  });
});

// The browser-mode bridge against a fake socket: request/response correlation by id, error replies
// and timeouts as BridgeError, events to listeners, calls queued until open, in-flight calls failed
// on a drop, reconnect with capped backoff, and no reconnect once the server refused the token;
// and the launch token as the page keeps it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../../src/shared/bridge';
import type { SessionEvent } from '../../../src/shared/events';
import {
  WebSocketBridge,
  socketUrlFromLocation,
  type SocketConnection,
  type SocketHandlers,
} from '../../../src/renderer/src/bridge/websocket-bridge';
import { socketProtocols, takeLaunchToken, type TokenWindow } from '../../../src/renderer/src/bridge/launch-token';

class FakeSocket implements SocketConnection {
  readonly sent: { id: number; method: string; params: unknown }[] = [];
  isClosed = false;
  constructor(
    readonly url: string,
    readonly handlers: SocketHandlers,
    readonly protocols: string[],
  ) {}
  send(data: string): void {
    this.sent.push(JSON.parse(data) as { id: number; method: string; params: unknown });
  }
  close(): void {
    this.isClosed = true;
  }
  reply(id: number, result: unknown): void {
    this.handlers.onMessage(JSON.stringify({ kind: 'response', id, ok: true, result }));
  }
  fail(id: number, code: string, message: string): void {
    this.handlers.onMessage(JSON.stringify({ kind: 'response', id, ok: false, error: { code, message } }));
  }
}

function setup(options: { requestTimeoutMs?: number } = {}) {
  const sockets: FakeSocket[] = [];
  const bridge = new WebSocketBridge({
    url: 'ws://127.0.0.1:1/ws',
    protocols: ['resolute', 'token.t'],
    requestTimeoutMs: options.requestTimeoutMs ?? 1_000,
    reconnectInitialMs: 100,
    reconnectMaxMs: 400,
    createSocket: (url, handlers, protocols) => {
      const socket = new FakeSocket(url, handlers, protocols);
      sockets.push(socket);
      return socket;
    },
  });
  const latest = (): FakeSocket => sockets[sockets.length - 1];
  return { bridge, sockets, latest };
}

describe('WebSocketBridge', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends request frames with increasing ids and resolves each by its own id, in any order', async () => {
    const { bridge, latest } = setup();
    latest().handlers.onOpen();
    const state = bridge.call('session.getState', {});
    const abort = bridge.call('session.abortRetry', {});
    const [first, second] = latest().sent;
    expect(first).toEqual({ kind: 'request', id: 1, method: 'session.getState', params: {} });
    expect(second).toMatchObject({ id: 2, method: 'session.abortRetry' });
    latest().reply(2, { aborted: true });
    latest().reply(1, { sessionId: 's1' });
    await expect(abort).resolves.toEqual({ aborted: true });
    await expect(state).resolves.toEqual({ sessionId: 's1' });
  });

  it('rejects an error reply with a BridgeError carrying the code and the message', async () => {
    const { bridge, latest } = setup();
    latest().handlers.onOpen();
    const call = bridge.call('settings.update', { patch: { retry: { maxRetries: 99 } } });
    latest().fail(1, 'invalid_params', 'retry.maxRetries: must be at most 9');
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeError);
    expect(error).toMatchObject({ code: 'invalid_params', message: 'retry.maxRetries: must be at most 9' });
  });

  it('times out a call with no answer and ignores the late reply', async () => {
    const { bridge, latest } = setup({ requestTimeoutMs: 500 });
    latest().handlers.onOpen();
    const call = bridge.call('history.list', {});
    const settled = call.catch((e: unknown) => e);
    vi.advanceTimersByTime(500);
    const error = await settled;
    expect(error).toBeInstanceOf(BridgeError);
    expect(error).toMatchObject({ code: 'timeout' });
    expect(() => latest().reply(1, [])).not.toThrow();
  });

  it('delivers event frames to every listener until unsubscribed; junk frames are ignored', () => {
    const { bridge, latest } = setup();
    const seen: SessionEvent[] = [];
    const off = bridge.onEvent((e) => seen.push(e));
    latest().handlers.onOpen();
    latest().handlers.onMessage('not json');
    latest().handlers.onMessage(JSON.stringify({ kind: 'event', event: { type: 'agent_start' } }));
    off();
    latest().handlers.onMessage(JSON.stringify({ kind: 'event', event: { type: 'agent_end', messages: [] } }));
    expect(seen).toEqual([{ type: 'agent_start' }]);
  });

  it('queues calls made before the socket opens and sends them on open', async () => {
    const { bridge, latest } = setup();
    const call = bridge.call('app.info', {});
    expect(latest().sent).toEqual([]);
    latest().handlers.onOpen();
    expect(latest().sent.map((f) => f.method)).toEqual(['app.info']);
    latest().reply(1, { version: '0.1.0' });
    await expect(call).resolves.toEqual({ version: '0.1.0' });
  });

  it('on a drop fails in-flight calls, reports disconnected, reconnects with backoff and reports connected', async () => {
    const { bridge, sockets, latest } = setup();
    const states: boolean[] = [];
    bridge.onConnection((c) => states.push(c));
    latest().handlers.onOpen();
    const inFlight = bridge.call('session.prompt', { text: 'hi' }).catch((e: unknown) => e);
    latest().handlers.onClose();
    expect(await inFlight).toMatchObject({ code: 'disconnected' });
    expect(bridge.isConnected).toBe(false);

    vi.advanceTimersByTime(99);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    // A failed reconnect does not repeat "disconnected"; the next wait doubles.
    latest().handlers.onClose();
    vi.advanceTimersByTime(199);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);
    latest().handlers.onOpen();
    expect(states).toEqual([true, false, true]);
    expect(bridge.isConnected).toBe(true);
  });

  it('caps the reconnect wait and resets it after a successful open', () => {
    const { sockets, latest } = setup();
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      latest().handlers.onClose();
      const before = sockets.length;
      let waited = 0;
      while (sockets.length === before) {
        vi.advanceTimersByTime(1);
        waited++;
      }
      waits.push(waited);
    }
    expect(waits).toEqual([100, 200, 400, 400, 400]);
    latest().handlers.onOpen();
    latest().handlers.onClose();
    vi.advanceTimersByTime(100);
    expect(sockets).toHaveLength(7);
  });

  it('reports "down" when the very first connection fails, so the UI can say it is reconnecting', () => {
    const { bridge, latest } = setup();
    const states: boolean[] = [];
    bridge.onConnection((c) => states.push(c));
    latest().handlers.onClose();
    expect(states).toEqual([false]);
  });

  it('ignores callbacks from a socket it already replaced', async () => {
    const { bridge, sockets } = setup();
    const first = sockets[0];
    first.handlers.onClose();
    vi.advanceTimersByTime(100);
    const second = sockets[1];
    second.handlers.onOpen();
    first.handlers.onClose();
    expect(bridge.isConnected).toBe(true);
    const call = bridge.call('app.info', {});
    second.reply(1, { ok: 1 });
    await expect(call).resolves.toEqual({ ok: 1 });
  });

  it('dispose() closes the socket, rejects pending calls and stops reconnecting', async () => {
    const { bridge, sockets, latest } = setup();
    latest().handlers.onOpen();
    const call = bridge.call('history.list', {}).catch((e: unknown) => e);
    bridge.dispose();
    expect(sockets[0].isClosed).toBe(true);
    expect(await call).toMatchObject({ code: 'disconnected' });
    vi.advanceTimersByTime(10_000);
    expect(sockets).toHaveLength(1);
    await expect(bridge.call('app.info', {})).rejects.toBeInstanceOf(BridgeError);
  });

  it('offers its protocols on every connect', () => {
    const { sockets, latest } = setup();
    latest().handlers.onClose();
    vi.advanceTimersByTime(100);
    expect(sockets.map((s) => s.protocols)).toEqual([
      ['resolute', 'token.t'],
      ['resolute', 'token.t'],
    ]);
  });

  it('stops for good when the server refuses the token (close 4401) and says why', async () => {
    const { bridge, sockets, latest } = setup();
    const states: [boolean, string | undefined][] = [];
    bridge.onConnection((c, refusal) => states.push([c, refusal]));
    const waiting = bridge.call('app.info', {}).catch((e: unknown) => e);
    latest().handlers.onOpen();
    latest().handlers.onClose(4401);
    expect(await waiting).toMatchObject({ code: 'unauthorized' });
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    expect(states).toEqual([
      [true, undefined],
      [false, 'unauthorized'],
    ]);
  });

  it('retries the connection when the socket constructor throws', () => {
    let calls = 0;
    new WebSocketBridge({
      url: 'ws://bad',
      reconnectInitialMs: 100,
      createSocket: () => {
        calls++;
        throw new Error('SyntaxError');
      },
    });
    expect(calls).toBe(1);
    vi.advanceTimersByTime(100);
    expect(calls).toBe(2);
  });
});

describe('socketUrlFromLocation', () => {
  it('builds ws://<same host>/ws, with no token in it', () => {
    expect(socketUrlFromLocation({ protocol: 'http:', host: '127.0.0.1:5123' })).toBe('ws://127.0.0.1:5123/ws');
    expect(socketUrlFromLocation({ protocol: 'https:', host: 'localhost' })).toBe('wss://localhost/ws');
  });
});

describe('the launch token', () => {
  function fakeWindow(search: string, stored: Record<string, string> = {}, meta: string | null = null) {
    const replaced: string[] = [];
    let pageMeta = meta;
    const win: TokenWindow = {
      document: {
        querySelector: (selector) =>
          selector === 'meta[name="resolute-launch-token"]' && pageMeta !== null
            ? { getAttribute: (name) => (name === 'content' ? pageMeta : null), remove: () => void (pageMeta = null) }
            : null,
      },
      location: { search, pathname: '/', hash: '#x' },
      history: { state: null, replaceState: (_state, _title, url) => void replaced.push(String(url)) },
      sessionStorage: {
        getItem: (key) => stored[key] ?? null,
        setItem: (key, value) => void (stored[key] = value),
      },
    };
    return { win, replaced, stored, meta: () => pageMeta };
  }

  it("from a launch link's page: taken out of the page, the spent code out of the address, kept for a reload", () => {
    const first = fakeWindow('?launch=spent-code', {}, 'tok_EN-9');
    expect(takeLaunchToken(first.win)).toBe('tok_EN-9');
    expect(first.meta()).toBeNull();
    expect(first.replaced).toEqual(['/#x']);
    const reload = fakeWindow('', first.stored);
    expect(takeLaunchToken(reload.win)).toBe('tok_EN-9');
    // The spent link loaded again in the same tab (the server serves the page without a token): the tab's own.
    const again = fakeWindow('?launch=spent-code', first.stored);
    expect(takeLaunchToken(again.win)).toBe('tok_EN-9');
    expect(again.replaced).toEqual(['/#x']);
  });

  it('is taken out of the address, kept for this tab and found there on a reload', () => {
    const first = fakeWindow('?token=abc_DEF-1&lang=ja');
    expect(takeLaunchToken(first.win)).toBe('abc_DEF-1');
    expect(first.replaced).toEqual(['/?lang=ja#x']);
    const reload = fakeWindow('', first.stored);
    expect(takeLaunchToken(reload.win)).toBe('abc_DEF-1');
    expect(reload.replaced).toEqual([]);
  });

  it('is null in a tab that never had it, and a malformed one is not offered', () => {
    expect(takeLaunchToken(fakeWindow('').win)).toBeNull();
    expect(takeLaunchToken(fakeWindow('?token=a%20b').win)).toBeNull();
    expect(socketProtocols(null)).toEqual(['resolute']);
    expect(socketProtocols('t')).toEqual(['resolute', 'token.t']);
  });
});

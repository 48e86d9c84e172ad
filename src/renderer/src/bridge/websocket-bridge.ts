// The browser-mode bridge: the contract's commands as wire frames over a WebSocket to the local
// server (ws://<host>/ws, the launch token offered as a subprotocol). Correlates replies by id,
// rejects with BridgeError on an error reply, a timeout or a dropped socket, and reconnects with
// capped exponential backoff — except after the server refused the token, which no retry mends.
// Only pick-bridge.ts constructs it; the socket is injectable so tests drive it with a fake.
import { BridgeError, replyError, type ResoluteBridge } from '../../../shared/bridge';
import type { CommandName, CommandParams, CommandResult } from '../../../shared/contract';
import type { SessionEvent } from '../../../shared/events';
import { PatchDecoder } from '../../../shared/message-patch';
import { SOCKET_UNAUTHORIZED } from '../../../shared/socket';
import type { ServerFrame } from '../../../shared/wire';

export interface SocketHandlers {
  onOpen(): void;
  onMessage(data: string): void;
  /** `code` is the WebSocket close code, when the socket got one. */
  onClose(code?: number): void;
}

export interface SocketConnection {
  send(data: string): void;
  close(): void;
}

export type SocketFactory = (url: string, handlers: SocketHandlers, protocols: string[]) => SocketConnection;

export interface WebSocketBridgeOptions {
  url: string;
  /** Offered on every connect (the launch token rides here, beside the protocol name). */
  protocols?: string[];
  createSocket?: SocketFactory;
  /**
   * Per-call timeout, ms. Default 30 000. session.prompt needs no longer one: it is answered as
   * soon as the turn starts, and the turn itself arrives as events.
   */
  requestTimeoutMs?: number;
  /** First reconnect wait, ms, doubled per failure. Default 250. */
  reconnectInitialMs?: number;
  /** Reconnect wait cap, ms. Default 5 000. */
  reconnectMaxMs?: number;
}

interface PendingCall {
  method: CommandName;
  frame: string;
  isSent: boolean;
  timer: ReturnType<typeof setTimeout>;
  resolve(result: unknown): void;
  reject(error: BridgeError): void;
}

const browserSocketFactory: SocketFactory = (url, handlers, protocols) => {
  const socket = new WebSocket(url, protocols);
  socket.onopen = () => handlers.onOpen();
  socket.onmessage = (event: MessageEvent) => {
    if (typeof event.data === 'string') handlers.onMessage(event.data);
  };
  // An error is always followed by close; reconnecting is decided there.
  socket.onclose = (event: CloseEvent) => handlers.onClose(event.code);
  return { send: (data) => socket.send(data), close: () => socket.close() };
};

export class WebSocketBridge implements ResoluteBridge {
  readonly host = 'browser' as const;
  readonly #options: Required<WebSocketBridgeOptions>;
  readonly #pending = new Map<number, PendingCall>();
  readonly #eventListeners = new Set<(event: SessionEvent) => void>();
  readonly #connectionListeners = new Set<(connected: boolean, refusal?: 'unauthorized') => void>();
  #socket: SocketConnection | null = null;
  #isOpen = false;
  #nextId = 1;
  #reconnectDelayMs: number;
  #reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  #isDisposed = false;
  #attempt: symbol | null = null;
  /** Per socket, as the server's encoder is: a new socket starts each streaming message whole. */
  #patches = new PatchDecoder();
  /** Report "down" once per outage, not once per failed reconnect attempt. */
  #hasReportedDown = false;

  constructor(options: WebSocketBridgeOptions) {
    this.#options = {
      createSocket: browserSocketFactory,
      protocols: [],
      requestTimeoutMs: 30_000,
      reconnectInitialMs: 250,
      reconnectMaxMs: 5_000,
      ...options,
    };
    this.#reconnectDelayMs = this.#options.reconnectInitialMs;
    this.#connect();
  }

  get isConnected(): boolean {
    return this.#isOpen;
  }

  call<N extends CommandName>(method: N, params: CommandParams<N>): Promise<CommandResult<N>> {
    if (this.#isDisposed) return Promise.reject(new BridgeError('disconnected', 'the connection is closed'));
    const id = this.#nextId++;
    const frame = JSON.stringify({ kind: 'request', id, method, params });
    const timeoutMs = this.#options.requestTimeoutMs;
    return new Promise<CommandResult<N>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#settle(id)?.reject(
          new BridgeError('timeout', `${method} got no answer within ${Math.round(timeoutMs / 1000)} s`),
        );
      }, timeoutMs);
      const call: PendingCall = {
        method,
        frame,
        isSent: false,
        timer,
        resolve: (r) => resolve(r as CommandResult<N>),
        reject,
      };
      this.#pending.set(id, call);
      // Calls made while (re)connecting wait in the map and go out on open; their timer already runs.
      if (this.#isOpen) this.#send(call);
    });
  }

  onEvent(listener: (event: SessionEvent) => void): () => void {
    this.#eventListeners.add(listener);
    return () => this.#eventListeners.delete(listener);
  }

  onConnection(listener: (connected: boolean, refusal?: 'unauthorized') => void): () => void {
    this.#connectionListeners.add(listener);
    return () => this.#connectionListeners.delete(listener);
  }

  /** Close for good: no reconnect, every pending call rejects. */
  dispose(): void {
    this.#isDisposed = true;
    if (this.#reconnectTimer) clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = null;
    this.#attempt = null;
    this.#socket?.close();
    this.#socket = null;
    this.#isOpen = false;
    for (const id of [...this.#pending.keys()]) {
      this.#settle(id)?.reject(new BridgeError('disconnected', 'the connection is closed'));
    }
  }

  #connect(): void {
    this.#reconnectTimer = null;
    if (this.#isDisposed) return;
    // Each attempt gets its own identity, so callbacks of a replaced socket are ignored even if
    // a factory calls them synchronously, before it has returned the socket.
    const attempt = Symbol('socket-attempt');
    this.#attempt = attempt;
    this.#patches = new PatchDecoder();
    const handlers: SocketHandlers = {
      onOpen: () => this.#handleOpen(attempt),
      onMessage: (data) => {
        if (attempt === this.#attempt) this.#handleMessage(data);
      },
      onClose: (code) => this.#handleClose(attempt, code),
    };
    try {
      const socket = this.#options.createSocket(this.#options.url, handlers, this.#options.protocols);
      if (attempt !== this.#attempt) return;
      this.#socket = socket;
      if (this.#isOpen) this.#flush();
    } catch {
      this.#handleClose(attempt);
    }
  }

  #handleOpen(attempt: symbol): void {
    if (attempt !== this.#attempt || this.#isDisposed) return;
    this.#isOpen = true;
    this.#reconnectDelayMs = this.#options.reconnectInitialMs;
    this.#hasReportedDown = false;
    this.#emitConnection(true);
    this.#flush();
  }

  /** Send the calls made while the socket was down, oldest first (Map keeps insertion order). */
  #flush(): void {
    for (const call of [...this.#pending.values()]) if (!call.isSent) this.#send(call);
  }

  #handleClose(attempt: symbol, code?: number): void {
    if (attempt !== this.#attempt) return;
    if (code === SOCKET_UNAUTHORIZED) return this.#refused();
    this.#attempt = null;
    this.#socket = null;
    const wasOpen = this.#isOpen;
    this.#isOpen = false;
    // A sent request may or may not have run: fail it rather than resend (prompt is not idempotent).
    for (const [id, call] of [...this.#pending]) {
      if (call.isSent)
        this.#settle(id)?.reject(new BridgeError('disconnected', `connection lost before ${call.method} was answered`));
    }
    if (wasOpen || !this.#hasReportedDown) this.#emitConnection(false);
    this.#hasReportedDown = true;
    if (!this.#isDisposed) this.#scheduleReconnect();
  }

  #handleMessage(data: string): void {
    let frame: ServerFrame;
    try {
      frame = JSON.parse(data) as ServerFrame;
    } catch {
      return;
    }
    if (frame?.kind === 'event') {
      const event = this.#patches.decode(frame.event);
      if (!event) return;
      for (const listener of [...this.#eventListeners]) {
        try {
          listener(event);
        } catch (error) {
          console.error('session event listener failed', error);
        }
      }
      return;
    }
    if (frame?.kind !== 'response' || typeof frame.id !== 'number') return;
    const call = this.#settle(frame.id);
    if (!call) return; // late reply after a timeout: already rejected
    if (frame.ok) call.resolve(frame.result);
    else call.reject(replyError(frame.error, call.method));
  }

  #send(call: PendingCall): void {
    try {
      if (!this.#socket) return;
      this.#socket.send(call.frame);
      call.isSent = true;
    } catch {
      // The socket is closing; the close handler reconnects and the call is sent after that.
    }
  }

  /** Remove a pending call and stop its timer; undefined if it was already settled. */
  #settle(id: number): PendingCall | undefined {
    const call = this.#pending.get(id);
    if (!call) return undefined;
    clearTimeout(call.timer);
    this.#pending.delete(id);
    return call;
  }

  /** The server refused the token: stop for good and say so (the page needs the printed URL). */
  #refused(): void {
    for (const id of [...this.#pending.keys()]) {
      this.#settle(id)?.reject(new BridgeError('unauthorized', 'the server refused this page: no valid launch token'));
    }
    this.dispose();
    for (const listener of [...this.#connectionListeners]) listener(false, 'unauthorized');
  }

  #scheduleReconnect(): void {
    if (this.#isDisposed || this.#reconnectTimer) return;
    const delayMs = this.#reconnectDelayMs;
    this.#reconnectDelayMs = Math.min(this.#reconnectDelayMs * 2, this.#options.reconnectMaxMs);
    this.#reconnectTimer = setTimeout(() => this.#connect(), delayMs);
  }

  #emitConnection(connected: boolean): void {
    for (const listener of [...this.#connectionListeners]) listener(connected);
  }
}

/** The WebSocket URL of the page's own server (the token is offered as a subprotocol, not here). */
export function socketUrlFromLocation(location: Pick<Location, 'protocol' | 'host'>): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/ws`;
}

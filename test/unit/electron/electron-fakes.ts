// A small FAKE of the few Electron APIs the main process's wiring touches: ipcMain, a window with its
// webContents and frames, the app's events, the default session and shell. It exists because the
// Electron binary cannot be downloaded on these machines (importing the real 'electron' package
// would try to); the code under test takes these objects as parameters or, for security.ts, gets
// them through vi.mock('electron'). Behaviour is recorded, never simulated beyond what is asserted.
import type { BrowserWindow, IpcMainInvokeEvent, WebContents, WebFrameMain } from 'electron';

type Listener = (...args: unknown[]) => unknown;

/** on/once/emit, the part of Node's EventEmitter Electron objects share. */
export class FakeEmitter {
  private readonly listeners = new Map<string, Listener[]>();

  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }

  once(event: string, listener: Listener): this {
    const wrapped: Listener = (...args) => {
      this.listeners.set(
        event,
        (this.listeners.get(event) ?? []).filter((l) => l !== wrapped),
      );
      return listener(...args);
    };
    return this.on(event, wrapped);
  }

  emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }

  count(event: string): number {
    return this.listeners.get(event)?.length ?? 0;
  }
}

export class FakeFrame {
  constructor(public url: string) {}
}

export class FakeWebContents extends FakeEmitter {
  readonly sent: { channel: string; payload: unknown }[] = [];
  readonly mainFrame: FakeFrame;
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;

  constructor(url: string) {
    super();
    this.mainFrame = new FakeFrame(url);
  }

  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload });
  }

  getURL(): string {
    return this.mainFrame.url;
  }

  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
}

export class FakeWindow extends FakeEmitter {
  readonly webContents: FakeWebContents;
  destroyed = false;
  minimized = false;
  visible = true;
  focused = false;
  maximized = false;
  normalBounds = { x: 10, y: 20, width: 900, height: 700 };
  readonly calls: string[] = [];

  constructor(url = 'file:///app/out/renderer/index.html') {
    super();
    this.webContents = new FakeWebContents(url);
  }

  isDestroyed = () => this.destroyed;
  isMinimized = () => this.minimized;
  isVisible = () => this.visible;
  isFocused = () => this.focused;
  isMaximized = () => this.maximized;
  getNormalBounds = () => this.normalBounds;
  restore = () => {
    this.calls.push('restore');
    this.minimized = false;
  };
  show = () => {
    this.calls.push('show');
    this.visible = true;
  };
  focus = () => {
    this.calls.push('focus');
    this.focused = true;
  };
  hide = () => {
    this.calls.push('hide');
    this.visible = false;
  };

  /** The fake typed as what the code under test declares; only the members above exist. */
  asBrowserWindow(): BrowserWindow {
    return this as unknown as BrowserWindow;
  }
}

export type InvokeHandler = (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>;

export class FakeIpcMain {
  readonly handlers = new Map<string, InvokeHandler>();

  handle(channel: string, handler: InvokeHandler): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, handler);
  }

  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }

  /** What ipcRenderer.invoke from `sender`'s `frame` would get back. */
  invoke(channel: string, sender: FakeWebContents, frame: FakeFrame | null, payload: unknown): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    const event = { sender: sender as unknown as WebContents, senderFrame: frame as unknown as WebFrameMain };
    return handler(event as IpcMainInvokeEvent, payload);
  }
}

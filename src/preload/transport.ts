// The preload's transport, kept apart from Electron so that tests can run it: a request must name
// a command of the contract (checked here, before anything crosses, against the table's names that
// the build put in) and always resolves with a reply frame — the main process's, or an error frame
// of the same shape — so a refusal keeps its code on the way to the page. Events arrive on their
// own channel, and so do the desktop menu's app commands (only declared ids pass) and resolute://
// links (only such strings pass; those sent before the page listens are kept for it). index.ts
// hands it ipcRenderer.
import { isAppCommandId, type AppCommandId } from '../shared/app-commands';
import { unknownCommandError } from '../shared/command-names';
import { isDeepLinkText } from '../shared/deep-link-text';
import type { CommandName } from '../shared/contract';
import type { WireEvent } from '../shared/message-patch';
import { IPC_CHANNELS, type IpcTransport } from '../shared/ipc';
import type { RequestFrame, ResponseFrame } from '../shared/wire';
import { errorText } from '../shared/text';

/** The part of Electron's ipcRenderer the transport uses. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, payload: unknown) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, payload: unknown) => void): unknown;
}

/** `commandNames`: the command table's names (index.ts has them from the build). */
export function createIpcTransport(ipc: IpcRendererLike, commandNames: readonly string[]): IpcTransport {
  const listed: ReadonlySet<string> = new Set(commandNames);
  let nextId = 1;
  const links = linkChannel(ipc);
  return {
    async request(method: CommandName, params: unknown): Promise<ResponseFrame> {
      const id = nextId++;
      if (!listed.has(method)) return { kind: 'response', id, ok: false, error: unknownCommandError(String(method)) };
      try {
        const frame: RequestFrame = { kind: 'request', id, method, params };
        return (await ipc.invoke(IPC_CHANNELS.call, frame)) as ResponseFrame;
      } catch (error) {
        // Electron itself failed the call (no handler yet, the window is closing): same shape as any failure.
        const message = errorText(error);
        return { kind: 'response', id, ok: false, error: { code: 'failed', message } };
      }
    },
    onEvent(listener: (event: WireEvent) => void): () => void {
      const handler = (_event: unknown, payload: unknown) => listener(payload as WireEvent);
      ipc.on(IPC_CHANNELS.event, handler);
      return () => ipc.removeListener(IPC_CHANNELS.event, handler);
    },
    onAppCommand(listener: (id: AppCommandId) => void): () => void {
      const handler = (_event: unknown, id: unknown) => {
        if (isAppCommandId(id)) listener(id);
      };
      ipc.on(IPC_CHANNELS.appCommand, handler);
      return () => ipc.removeListener(IPC_CHANNELS.appCommand, handler);
    },
    onLink: links.subscribe,
  };
}

/** Links kept until the page listens: this many at most. */
const KEPT_LINKS = 8;

/**
 * The link channel, listened to from the preload's start: the main process sends a link once the
 * page has loaded, which can be before the page's script subscribes (it waits for its language).
 */
function linkChannel(ipc: IpcRendererLike): { subscribe: (listener: (url: string) => void) => () => void } {
  const kept: string[] = [];
  const listeners = new Set<(url: string) => void>();
  ipc.on(IPC_CHANNELS.link, (_event: unknown, url: unknown) => {
    if (!isDeepLinkText(url)) return;
    if (listeners.size === 0) kept.splice(0, kept.push(url) - KEPT_LINKS);
    for (const listener of listeners) listener(url);
  });
  return {
    subscribe(listener) {
      listeners.add(listener);
      for (const url of kept.splice(0)) listener(url);
      return () => listeners.delete(listener);
    },
  };
}

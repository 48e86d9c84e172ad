// The contract over Electron IPC: one invoke channel answered by the command router — only for our
// own window's top frame, loaded from our renderer (security.ts isTrustedSender) — and every
// session event pushed to that window, paced by windowStream and a streaming message sent as
// patches (shared/message-patch.ts), which the renderer's IpcBridge decodes. ipcMain and the window
// are passed in, so the wiring is unit-tested against a fake (test/unit/electron/ipc-transport.test.ts).
import type { BrowserWindow, IpcMain, IpcMainInvokeEvent } from 'electron';
import type { SessionEvent } from '../../shared/events';
import { PatchEncoder } from '../../shared/message-patch';
import type { ResponseFrame } from '../../shared/wire';
import { windowStream } from '../router/event-hub';
import { isTrustedSender } from './security';

export interface IpcTransportOptions {
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>;
  callChannel: string;
  eventChannel: string;
  /** The main window, or null before it exists and after it closed. */
  window(): BrowserWindow | null;
  /** The renderer's base URL (file:// folder or the dev server); other origins are refused. */
  rendererBase: string;
  router: { dispatch(frame: unknown): Promise<ResponseFrame> };
  hub: { subscribe(listener: (event: SessionEvent) => void): () => void };
}

const UNTRUSTED: ResponseFrame = {
  kind: 'response',
  id: null,
  ok: false,
  error: { code: 'unauthorized', message: 'IPC from an untrusted sender' },
};

/**
 * A page asks for the snapshot once it listens, on every load (store/app-store.ts startEventPump):
 * from then on it must get each streaming message whole first, since its decoder is new.
 */
const startsOver = (frame: unknown): boolean =>
  typeof frame === 'object' && frame !== null && (frame as { method?: unknown }).method === 'session.getState';

/** Wire the channels; the returned function unwires them (the handler and the event forwarding). */
export function wireIpc(options: IpcTransportOptions): () => void {
  const { ipcMain, callChannel, eventChannel } = options;
  let patches = new PatchEncoder();
  ipcMain.handle(callChannel, async (event: IpcMainInvokeEvent, frame: unknown): Promise<ResponseFrame> => {
    if (!isTrustedSender(options.window(), event.sender, event.senderFrame, options.rendererBase)) return UNTRUSTED;
    if (startsOver(frame)) patches = new PatchEncoder();
    return options.router.dispatch(frame);
  });
  const stream = windowStream((event) => {
    const win = options.window();
    // Encoded only when sent: the encoder's bases are what the window has.
    if (win && !win.isDestroyed()) win.webContents.send(eventChannel, patches.encode(event));
  });
  const unsubscribe = options.hub.subscribe(stream.push);
  return () => {
    unsubscribe();
    stream.close();
    ipcMain.removeHandler(callChannel);
  };
}

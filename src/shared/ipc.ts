// The Electron IPC contract, named once: the two channels between the preload and the main
// process, and the small transport the preload exposes to the page (window.resoluteIpc). The
// renderer's IpcBridge turns that transport into the same ResoluteBridge the WebSocket gives.
// No zod here: the sandboxed preload bundles this file. See docs/architecture.md.
import type { AppCommandId } from './app-commands';
import type { CommandName } from './contract';
import type { WireEvent } from './message-patch';
import type { ResponseFrame } from './wire';

export const IPC_CHANNELS = {
  /** invoke: one request frame in, one response frame back. */
  call: 'resolute:call',
  /** main → window: one event per message, a streaming one as patches (message-patch.ts). */
  event: 'resolute:event',
  /** main → window: the id of an app command chosen in the desktop menu (app-commands.ts). */
  appCommand: 'resolute:app-command',
  /** main → window: a resolute:// link the OS handed the app (docs/hosts.md, "Deep links"), unread. */
  link: 'resolute:link',
} as const;

/** What the preload exposes. Replies come back as frames, so an error keeps its code on the way. */
export interface IpcTransport {
  /** Resolves with the reply frame, an error reply included; never rejects for a refused command. */
  request(method: CommandName, params: unknown): Promise<ResponseFrame>;
  /** Events as sent: the renderer's IpcBridge decodes the patches. */
  onEvent(listener: (event: WireEvent) => void): () => void;
  /** Only the ids of app-commands.ts pass; anything else sent on the channel is dropped. */
  onAppCommand(listener: (id: AppCommandId) => void): () => void;
  /** resolute:// links, those that came before the page listened first; anything else is dropped. */
  onLink(listener: (url: string) => void): () => void;
}

// Chooses the renderer's one bridge: IPC through the preload's transport in Electron, else a
// WebSocket to the browser-mode server. Called once by main.tsx; nothing else in the renderer
// knows which host it runs in.
import type { ResoluteBridge } from '../../../shared/bridge';
import { IpcBridge } from './ipc-bridge';
import { WebSocketBridge, socketUrlFromLocation } from './websocket-bridge';

export function pickBridge(win: Window = window): ResoluteBridge {
  if (win.resoluteIpc) return new IpcBridge(win.resoluteIpc);
  return new WebSocketBridge({ url: socketUrlFromLocation(win.location) });
}

// Chooses the renderer's one bridge: the preload's IPC bridge in Electron, else a WebSocket to
// the browser-mode server. Called once by main.tsx; nothing else in the renderer knows which
// host it runs in.
import type { ResoluteBridge } from '../../../shared/bridge';
import { WebSocketBridge, socketUrlFromLocation } from './websocket-bridge';

export function pickBridge(win: Window = window): ResoluteBridge {
  if (win.resoluteBridge) return win.resoluteBridge;
  return new WebSocketBridge({ url: socketUrlFromLocation(win.location) });
}

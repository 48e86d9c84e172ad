// Chooses the renderer's one bridge: IPC through the preload's transport in Electron, else a
// WebSocket to the browser-mode server, presenting the launch token the page holds. Called once
// by main.tsx; nothing else in the renderer knows which host it runs in.
import type { ResoluteBridge } from '../../../shared/bridge';
import { IpcBridge } from './ipc-bridge';
import { socketProtocols, takeLaunchToken } from './launch-token';
import { WebSocketBridge, socketUrlFromLocation } from './websocket-bridge';

export function pickBridge(win: Window = window): ResoluteBridge {
  if (win.resoluteIpc) return new IpcBridge(win.resoluteIpc);
  return new WebSocketBridge({
    url: socketUrlFromLocation(win.location),
    protocols: socketProtocols(takeLaunchToken(win)),
  });
}

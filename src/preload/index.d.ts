// The global the preload exposes in the Electron window (absent in the browser mode, where the
// renderer uses its WebSocket bridge instead).
import type { IpcTransport } from '../shared/ipc';

declare global {
  interface Window {
    resoluteIpc?: IpcTransport;
  }
}

export {};

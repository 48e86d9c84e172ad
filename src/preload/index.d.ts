// The global the preload exposes in the Electron window (absent in the browser mode, where the
// renderer uses its WebSocket bridge instead).
import type { ResoluteBridge } from '../shared/bridge';

declare global {
  interface Window {
    resoluteBridge?: ResoluteBridge;
  }
}

export {};

// The event fan-out: every SessionEvent (and settings change) reaches every connected client —
// the Electron window, each browser-mode socket, RPC stdout, extensions. A client that throws is
// isolated from the others. Fed by the composition root; read by the transports.
import type { SessionEvent, SessionEventListener } from '../../shared/events';

export class EventHub {
  private readonly listeners = new Set<SessionEventListener>();

  publish = (event: SessionEvent): void => {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // One broken client must not starve the others.
      }
    }
  };

  subscribe(listener: SessionEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

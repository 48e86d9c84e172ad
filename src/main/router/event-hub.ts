// The events' way out to every client: the EventHub fans each SessionEvent (and settings change)
// out to the Electron window, each browser-mode socket, RPC stdout and extensions, a client that
// throws isolated from the others; windowStream shapes and paces what the app's own windows get
// (electron/ipc-transport.ts and modes/browser/browser-server.ts each send through one). RPC
// clients and extensions get every event whole and at once. Fed by the composition root.
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

// ---- what the app's windows are sent, and when ----

/** One display frame: a window paints at most this often, so newer updates replace older ones. */
export const WINDOW_FRAME_MS = 16;

/**
 * The window builds its chat from stored turns (the session snapshot's newest page, turn_persisted),
 * never from the agent's runtime context. agent_end carries that whole context, as pi's RPC
 * protocol has it: for a session of 10,000 turns some 4 MB to serialise, send and parse at the end
 * of every run. The window gets agent_end with an empty list (docs/performance.md, "Long transcripts"),
 * and turn_end without its message's content and tool results.
 * A message_update carries the whole message so far twice (`message` and pi-ai's
 * `assistantMessageEvent.partial`); the window reads `message` only, and after coalescing the
 * event's own `delta` would be the last one's alone, so both are left out.
 */
export function windowEvent(event: SessionEvent): SessionEvent {
  if (event.type === 'agent_end') return { type: 'agent_end', messages: [] };
  // The same goes for turn_end: its message came whole in message_end and comes stored in turn_persisted.
  if (event.type === 'turn_end')
    return { type: 'turn_end', message: { ...event.message, content: [] }, toolResults: [] };
  if (event.type === 'message_update') {
    const { type, contentIndex } = event.assistantMessageEvent;
    return { type: 'message_update', message: event.message, assistantMessageEvent: { type, contentIndex } };
  }
  return event;
}

export interface WindowStream {
  push(event: SessionEvent): void;
  /** Drops what is pending and stops the timer (the window or socket is gone). */
  close(): void;
}

/**
 * A streaming reply publishes one message_update per provider event (thousands a reply at real
 * token rates), each holding the whole message so far. The window gets the first at once (a slow
 * stream is not delayed), then at most one per display frame: the newest of each streaming
 * message, which holds everything the ones it replaces did. Any other event sends what is pending
 * first, so the order is kept. Keyed per message, so two sessions streaming side by side each keep
 * their own newest update (docs/performance.md, "Streaming to the window").
 */
export function windowStream(send: (event: SessionEvent) => void, frameMs = WINDOW_FRAME_MS): WindowStream {
  const pending = new Map<string, SessionEvent>();
  let timer: ReturnType<typeof setTimeout> | null = null;

  const flush = (): void => {
    const events = [...pending.values()];
    pending.clear();
    for (const event of events) send(event);
  };
  const tick = (): void => {
    // Nothing came during the frame: the next update goes out at once again (the leading edge).
    timer = pending.size > 0 ? setTimeout(tick, frameMs) : null;
    flush();
  };

  return {
    push(event) {
      const shaped = windowEvent(event);
      if (shaped.type !== 'message_update') {
        flush();
        send(shaped);
        return;
      }
      if (timer === null) {
        timer = setTimeout(tick, frameMs);
        send(shaped);
        return;
      }
      const key = `${shaped.message.role}:${shaped.message.timestamp}`;
      pending.set(key, shaped);
    },
    close() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      pending.clear();
    },
  };
}

// What the app's own windows are sent of each session event: the Electron renderer (electron/
// ipc-transport.ts) and the browser mode's socket (modes/browser/browser-server.ts). RPC clients
// and extensions get every event whole.
import type { SessionEvent } from '../../shared/events';

/**
 * The window builds its chat from stored turns (the session snapshot's newest page, turn_persisted),
 * never from the agent's runtime context. agent_end carries that whole context, as pi's RPC
 * protocol has it: for a session of 10,000 turns some 4 MB to serialise, send and parse at the end
 * of every run. The window gets agent_end with an empty list (docs/architecture.md, "Long transcripts").
 */
export function windowEvent(event: SessionEvent): SessionEvent {
  return event.type === 'agent_end' ? { type: 'agent_end', messages: [] } : event;
}

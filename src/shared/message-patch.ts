// The browser mode's socket sends a streaming message as changes: after a message_update sent
// whole, each next one of the same message is the splice that turns the JSON text sent last into
// the new one (for a growing reply, the new words and little else). The encoder is per socket
// (host/window-events.ts windowStream), the decoder per socket (renderer websocket-bridge.ts); a
// socket is ordered and reliable, and both forget every base at any other event, so they agree.
import type { AssistantDelta, SessionEvent } from './events';
import type { ChatMessage } from './messages';

/** Replace the characters [at, cut) of the JSON text last sent for `key` with `text`. */
export interface MessagePatchEvent {
  type: 'message_patch';
  key: string;
  at: number;
  cut: number;
  text: string;
  assistantMessageEvent: AssistantDelta;
}

type MessageUpdate = Extract<SessionEvent, { type: 'message_update' }>;

/** One streaming message's identity: a session streams one message at a time. */
export const messageKey = (message: ChatMessage): string => `${message.role}:${message.timestamp}`;

/** The splice from `before` to `after`: their common head and tail kept. */
export function splice(before: string, after: string): { at: number; cut: number; text: string } {
  const most = Math.min(before.length, after.length);
  let at = 0;
  while (at < most && before.charCodeAt(at) === after.charCodeAt(at)) at += 1;
  let tail = 0;
  while (tail < most - at && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail))
    tail += 1;
  return { at, cut: before.length - tail, text: after.slice(at, after.length - tail) };
}

/** The sending side: message_update → a patch against what this socket sent last of the message. */
export class PatchEncoder {
  private readonly sent = new Map<string, string>();

  encode(event: SessionEvent): SessionEvent | MessagePatchEvent {
    if (event.type !== 'message_update') {
      this.sent.clear();
      return event;
    }
    const key = messageKey(event.message);
    const json = JSON.stringify(event.message);
    const before = this.sent.get(key);
    this.sent.set(key, json);
    if (before === undefined) return event;
    return { type: 'message_patch', key, ...splice(before, json), assistantMessageEvent: event.assistantMessageEvent };
  }
}

/** The receiving side: a patch back into the message_update it stands for; null if its base is unknown. */
export class PatchDecoder {
  private readonly bases = new Map<string, string>();

  decode(event: SessionEvent | MessagePatchEvent): SessionEvent | null {
    if (event.type === 'message_update') {
      this.bases.set(messageKey(event.message), JSON.stringify(event.message));
      return event;
    }
    if (event.type !== 'message_patch') {
      this.bases.clear();
      return event;
    }
    const base = this.bases.get(event.key);
    if (base === undefined) return null;
    const json = base.slice(0, event.at) + event.text + base.slice(event.cut);
    try {
      const message = JSON.parse(json) as ChatMessage;
      this.bases.set(event.key, json);
      const update: MessageUpdate = {
        type: 'message_update',
        message,
        assistantMessageEvent: event.assistantMessageEvent,
      };
      return update;
    } catch {
      return null; // never, on an ordered socket; the message's end puts the whole message right anyway
    }
  }
}

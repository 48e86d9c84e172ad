// The browser mode's socket sends a streaming message as changes: after a message_update sent
// whole, each next one of the same message is the splice that turns the JSON text sent last into
// the new one (for a growing reply, the new words and little else). Its message_end is one more
// splice, and the stored turn that follows names that message instead of carrying it again. The
// encoder is per socket (modes/browser/browser-server.ts) or per window (electron/ipc-transport.ts),
// the decoder per socket (renderer websocket-bridge.ts) or IPC subscription (ipc-bridge.ts); both
// channels are ordered and reliable, and both ends keep the same bases, so they agree.
import type { AssistantDelta, SessionEvent } from './events';
import type { TurnRecord } from './history';
import { messageText, type ChatMessage } from './messages';

/**
 * Replace the characters [at, cut) of the JSON text last sent for `key` with `text`. A patch is
 * sent once a display frame, so its framing counts: `key` is left out when it is the previous
 * update's or patch's, `cut` when nothing is cut (a growing reply only appends).
 */
export interface MessagePatchEvent {
  type: 'message_patch';
  key?: string;
  at: number;
  cut?: number;
  text: string;
  /** Left out when it is the one this message's last update had (most are text_delta on block 0). */
  assistantMessageEvent?: AssistantDelta;
}

/** A message_end: the splice from the last update's JSON text to the ended message's. */
export interface MessageEndPatchEvent {
  type: 'message_end_patch';
  key: string;
  at: number;
  cut: number;
  text: string;
}

/** A turn_persisted whose message is the one just ended (`key`); `text` is left out when it is messageText's. */
export interface TurnRefEvent {
  type: 'turn_persisted_ref';
  key: string;
  turn: Omit<TurnRecord, 'message' | 'text'> & { text?: string };
}

/** What the socket carries beside whole session events. */
export type WireOnlyEvent = MessagePatchEvent | MessageEndPatchEvent | TurnRefEvent;

/** An event as the window's transport carries it: whole, or one of the above. */
export type WireEvent = SessionEvent | WireOnlyEvent;

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

/** The sending side: each event → what this socket's window lacks of it. */
export class PatchEncoder {
  /** The JSON text last sent of each streaming message, and its update's assistantMessageEvent. */
  private readonly sent = new Map<string, Sent>();
  /** The message whose message_end went last, until its stored turn follows. */
  private ended: { key: string; json: string } | null = null;
  /** The message of the update or patch that went last; null after any other event. */
  private lastKey: string | null = null;

  encode(event: SessionEvent): WireEvent {
    if (event.type === 'message_update') return this.update(event);
    this.lastKey = null;
    if (event.type === 'message_end') return this.end(event.message);
    if (event.type === 'turn_persisted') return this.turn(event);
    this.sent.clear();
    return event;
  }

  private update(event: MessageUpdate): SessionEvent | MessagePatchEvent {
    const key = messageKey(event.message);
    const json = JSON.stringify(event.message);
    const delta = JSON.stringify(event.assistantMessageEvent);
    const before = this.sent.get(key);
    const lastKey = this.lastKey;
    this.sent.set(key, { json, delta });
    this.lastKey = key;
    if (before === undefined) return event;
    const { at, cut, text } = splice(before.json, json);
    const patch: MessagePatchEvent = {
      type: 'message_patch',
      ...(key === lastKey ? {} : { key }),
      at,
      ...(cut === at ? {} : { cut }),
      text,
    };
    if (delta !== before.delta) patch.assistantMessageEvent = event.assistantMessageEvent;
    return patch;
  }

  private end(message: ChatMessage): SessionEvent | MessageEndPatchEvent {
    const key = messageKey(message);
    const json = JSON.stringify(message);
    const before = this.sent.get(key);
    this.sent.clear();
    this.ended = { key, json };
    if (before === undefined) return { type: 'message_end', message };
    return { type: 'message_end_patch', key, ...splice(before.json, json) };
  }

  private turn(event: Extract<SessionEvent, { type: 'turn_persisted' }>): SessionEvent | TurnRefEvent {
    const ended = this.ended;
    this.sent.clear();
    this.ended = null;
    const { message, text, ...rest } = event.turn;
    if (ended === null || JSON.stringify(message) !== ended.json) return event;
    return {
      type: 'turn_persisted_ref',
      key: ended.key,
      turn: text === messageText(message) ? rest : { ...rest, text },
    };
  }
}

/** The receiving side: a wire event back into the session event it stands for; null if its base is unknown. */
export class PatchDecoder {
  private readonly bases = new Map<string, Base>();
  private ended: { key: string; json: string } | null = null;
  /** As the encoder's: the message of the update or patch that came last. */
  private lastKey: string | null = null;

  decode(event: WireEvent): SessionEvent | null {
    if (event.type !== 'message_update' && event.type !== 'message_patch') this.lastKey = null;
    switch (event.type) {
      case 'message_update':
        this.lastKey = messageKey(event.message);
        this.bases.set(this.lastKey, { json: JSON.stringify(event.message), delta: event.assistantMessageEvent });
        return event;
      case 'message_patch':
        return this.patch(event);
      case 'message_end':
        this.bases.clear();
        this.ended = { key: messageKey(event.message), json: JSON.stringify(event.message) };
        return event;
      case 'message_end_patch':
        return this.endPatch(event);
      case 'turn_persisted_ref':
        return this.turn(event);
      case 'turn_persisted':
        this.bases.clear();
        this.ended = null;
        return event;
      default:
        this.bases.clear();
        return event;
    }
  }

  private patch(event: MessagePatchEvent): SessionEvent | null {
    const key = event.key ?? this.lastKey;
    this.lastKey = key;
    const base = key === null ? undefined : this.bases.get(key);
    const change = { at: event.at, cut: event.cut ?? event.at, text: event.text };
    const message = base === undefined ? null : parsed(applySplice(base.json, change));
    // Never on an ordered channel once the stream has started over (a new socket, a window's snapshot request).
    if (key === null || base === undefined || message === null) return null;
    const delta = event.assistantMessageEvent ?? base.delta;
    this.bases.set(key, { json: message.json, delta });
    const update: MessageUpdate = { type: 'message_update', message: message.value, assistantMessageEvent: delta };
    return update;
  }

  private endPatch(event: MessageEndPatchEvent): SessionEvent | null {
    const base = this.bases.get(event.key);
    this.bases.clear();
    const message = base === undefined ? null : parsed(applySplice(base.json, event));
    if (message === null) return null;
    this.ended = { key: event.key, json: message.json };
    return { type: 'message_end', message: message.value };
  }

  private turn(event: TurnRefEvent): SessionEvent | null {
    const ended = this.ended;
    this.bases.clear();
    this.ended = null;
    const message = ended?.key === event.key ? parsed(ended.json) : null;
    if (message === null) return null;
    const turn: TurnRecord = { text: messageText(message.value), ...event.turn, message: message.value };
    return { type: 'turn_persisted', turn };
  }
}

interface Sent {
  json: string;
  /** The update's assistantMessageEvent, as JSON text. */
  delta: string;
}

interface Base {
  json: string;
  delta: AssistantDelta;
}

const applySplice = (base: string, change: { at: number; cut: number; text: string }): string =>
  base.slice(0, change.at) + change.text + base.slice(change.cut);

/** A message from its JSON text, with that text; null if it does not parse. */
function parsed(json: string): { json: string; value: ChatMessage } | null {
  try {
    return { json, value: JSON.parse(json) as ChatMessage };
  } catch {
    return null;
  }
}

// The socket's patches of a streaming message (src/shared/message-patch.ts): what the encoder
// sends decodes to the very message, for a growing reply, a change in the middle (usage, a new
// block), two messages at once and after other events; and a patch is about the size of the change.
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/shared/events';
import type { TurnRecord } from '../../../src/shared/history';
import { messageText, type ChatMessage } from '../../../src/shared/messages';
import { PatchDecoder, PatchEncoder, splice } from '../../../src/shared/message-patch';

function reply(blocks: string[], output: number, timestamp = 1): ChatMessage {
  return {
    role: 'assistant',
    content: blocks.map((text) => ({ type: 'text', text })),
    usage: { input: 3, output },
    stopReason: 'stop',
    timestamp,
  } as unknown as ChatMessage;
}

const update = (message: ChatMessage): SessionEvent => ({
  type: 'message_update',
  message,
  assistantMessageEvent: { type: 'text_delta', contentIndex: 0 },
});

describe('message patches', () => {
  it('decode to the very messages the encoder was given, each a splice the size of the change', () => {
    const encoder = new PatchEncoder();
    const decoder = new PatchDecoder();
    const sent: ChatMessage[] = [];
    const got: ChatMessage[] = [];
    let text = '';
    for (let i = 0; i < 300; i += 1) {
      text += `w${i} "q" `;
      const blocks = i < 200 ? [text] : [text, `second ${i}`];
      const message = reply(blocks, i);
      sent.push(message);
      const wire = JSON.parse(JSON.stringify(encoder.encode(update(message)))) as Parameters<PatchDecoder['decode']>[0];
      if (i > 0) {
        expect(wire.type).toBe('message_patch');
        expect(JSON.stringify(wire).length).toBeLessThan(300);
      }
      const decoded = decoder.decode(wire);
      if (decoded?.type === 'message_update') got.push(decoded.message);
    }
    expect(got).toEqual(sent);
  });

  it('keeps two streaming messages apart and starts over whole after any other event', () => {
    const encoder = new PatchEncoder();
    const decoder = new PatchDecoder();
    const a = reply(['a'], 1, 1);
    const b = reply(['b'], 1, 2);
    for (const message of [a, b]) decoder.decode(encoder.encode(update(message)) as never);
    const a2 = decoder.decode(encoder.encode(update(reply(['ab'], 2, 1))) as never);
    const b2 = decoder.decode(encoder.encode(update(reply(['bc'], 2, 2))) as never);
    expect(a2).toMatchObject({ message: { content: [{ text: 'ab' }] } });
    expect(b2).toMatchObject({ message: { content: [{ text: 'bc' }] } });
    expect(decoder.decode(encoder.encode({ type: 'message_end', message: a }) as never)).toMatchObject({
      type: 'message_end',
    });
    expect(encoder.encode(update(reply(['abc'], 3, 1)))).toMatchObject({ type: 'message_update' });
  });

  it('drops a patch whose base it never got (a new socket starts whole)', () => {
    const encoder = new PatchEncoder();
    encoder.encode(update(reply(['a'], 1)));
    expect(new PatchDecoder().decode(encoder.encode(update(reply(['ab'], 2))) as never)).toBeNull();
  });

  it('sends the end of a streamed message and its stored turn as what the window lacks, decoding to the very events', () => {
    const encoder = new PatchEncoder();
    const decoder = new PatchDecoder();
    const long = 'word '.repeat(4000);
    const roundTrip = (event: SessionEvent) => {
      const wire = JSON.stringify(encoder.encode(event));
      return { size: wire.length, decoded: decoder.decode(JSON.parse(wire) as never) };
    };
    roundTrip(update(reply([long.slice(0, -5)], 1, 7)));
    const final = reply([long], 2, 7);
    const end: SessionEvent = { type: 'message_end', message: final };
    const ended = roundTrip(end);
    expect(ended.decoded).toEqual(end);
    expect(ended.size).toBeLessThan(300);
    const turn = {
      id: 't1',
      sessionId: 's1',
      seq: 2,
      role: 'assistant',
      text: messageText(final),
      message: final,
      model: 'm',
      provider: 'p',
      stopReason: 'stop',
      errorMessage: null,
      errorCategory: null,
      chainId: null,
      createdAt: 5,
      usage: null,
      costUsd: null,
    } as TurnRecord;
    const persisted: SessionEvent = { type: 'turn_persisted', turn };
    const stored = roundTrip(persisted);
    expect(stored.decoded).toEqual(persisted);
    expect(stored.size).toBeLessThan(400);
    // A stored turn that is not the message just ended (or whose text differs) goes whole.
    const other: SessionEvent = {
      type: 'turn_persisted',
      turn: { ...turn, text: 'edited', message: reply(['x'], 1, 8) },
    };
    const whole = roundTrip(other);
    expect(whole.decoded).toEqual(other);
    expect(whole.size).toBeGreaterThan(100);
  });

  it('leaves out of a patch the assistantMessageEvent it repeats, and the decoder puts it back', () => {
    const encoder = new PatchEncoder();
    const decoder = new PatchDecoder();
    const thinking: SessionEvent = {
      type: 'message_update',
      message: reply(['a'], 1, 4),
      assistantMessageEvent: { type: 'thinking_delta', contentIndex: 1 },
    };
    const wires = [update(reply(['a'], 1, 4)), update(reply(['ab'], 1, 4)), update(reply(['abc'], 1, 4)), thinking].map(
      (event) => JSON.parse(JSON.stringify(encoder.encode(event))) as Parameters<PatchDecoder['decode']>[0],
    );
    expect(wires[1]).not.toHaveProperty('assistantMessageEvent');
    expect(wires[2]).not.toHaveProperty('assistantMessageEvent');
    expect(wires[3]).toHaveProperty('assistantMessageEvent', { type: 'thinking_delta', contentIndex: 1 });
    const decoded = wires.map((wire) => decoder.decode(wire));
    expect(decoded[2]).toEqual(update(reply(['abc'], 1, 4)));
    expect(decoded[3]).toEqual(thinking);
  });

  it('leaves out the key and cut a patch repeats, keeping them where two messages take turns', () => {
    const encoder = new PatchEncoder();
    const decoder = new PatchDecoder();
    const sent: SessionEvent[] = [];
    const wires: Record<string, unknown>[] = [];
    // One message growing alone, then two taking turns (two sessions side by side), then one that shrinks.
    const steps = [...['a', 'ab', 'abc'].map((t) => reply([t], 1, 1)), reply(['x'], 1, 2), reply(['abcd'], 1, 1)];
    steps.push(reply(['xy'], 1, 2), reply(['xz'], 1, 2));
    for (const message of steps) {
      const event = update(message);
      sent.push(event);
      wires.push(JSON.parse(JSON.stringify(encoder.encode(event))) as Record<string, unknown>);
    }
    expect(wires.map((w) => [w.type, w.key ?? null, w.cut ?? null])).toEqual([
      ['message_update', null, null],
      ['message_patch', null, null],
      ['message_patch', null, null],
      ['message_update', null, null],
      ['message_patch', 'assistant:1', null],
      ['message_patch', 'assistant:2', null],
      // "xy" → "xz" cuts the "y": the only patch here that says where its cut ends.
      ['message_patch', null, expect.any(Number)],
    ]);
    const patch = JSON.stringify({ kind: 'event', event: wires[2] });
    // The framing of a one-character patch: 65 bytes, 95 with the key and cut it repeats.
    expect(patch.length - JSON.stringify('c').length).toBeLessThan(70);
    expect(wires.map((wire) => decoder.decode(wire as never))).toEqual(sent);
  });

  it('a message_end of a message never streamed on this socket goes whole', () => {
    const end: SessionEvent = { type: 'message_end', message: reply(['hi'], 1, 9) };
    expect(new PatchEncoder().encode(end)).toEqual(end);
  });

  it('splices by the common head and tail', () => {
    expect(splice('{"t":"ab","n":1}', '{"t":"abc","n":2}')).toEqual({ at: 8, cut: 15, text: 'c","n":2' });
    expect(splice('same', 'same')).toEqual({ at: 4, cut: 4, text: '' });
  });
});

// The socket's patches of a streaming message (src/shared/message-patch.ts): what the encoder
// sends decodes to the very message, for a growing reply, a change in the middle (usage, a new
// block), two messages at once and after other events; and a patch is about the size of the change.
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/shared/events';
import type { ChatMessage } from '../../../src/shared/messages';
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

  it('splices by the common head and tail', () => {
    expect(splice('{"t":"ab","n":1}', '{"t":"abc","n":2}')).toEqual({ at: 8, cut: 15, text: 'c","n":2' });
    expect(splice('same', 'same')).toEqual({ at: 4, cut: 4, text: '' });
  });
});

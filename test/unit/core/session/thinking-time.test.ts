// ThinkingClock: a thinking block's time runs from its thinking_start to the first event of
// anything else (the answer's words, a tool call, its own end, the message's end), once; a new
// message starts over. Events are built as pi-agent-core emits them, on a fake clock.
import type { AgentEvent } from '@mariozechner/pi-agent-core';
import { describe, expect, it } from 'vitest';
import { ThinkingClock } from '../../../../src/main/core/session/thinking-time';

interface Block {
  type: string;
  thinking?: string;
  text?: string;
  durationMs?: number;
}

function update(type: string, content: Block[], contentIndex = 0): AgentEvent {
  const partial = { role: 'assistant', content };
  return {
    type: 'message_update',
    message: partial,
    assistantMessageEvent: { type, contentIndex, delta: '', partial },
  } as unknown as AgentEvent;
}
const end = (content: Block[]) =>
  ({ type: 'message_end', message: { role: 'assistant', content } }) as unknown as AgentEvent;
const start = () => ({ type: 'message_start', message: { role: 'assistant', content: [] } }) as unknown as AgentEvent;

describe('ThinkingClock', () => {
  it('ends a block’s time when the answer starts, and keeps it', () => {
    let now = 1000;
    const clock = new ThinkingClock(() => now);
    const thinking: Block = { type: 'thinking', thinking: '' };
    const content = [thinking];
    clock.observe(start());
    clock.observe(update('thinking_start', content));
    now = 1500;
    clock.observe(update('thinking_delta', content));
    expect(thinking.durationMs).toBeUndefined();
    now = 3400;
    content.push({ type: 'text', text: '' });
    clock.observe(update('text_start', content, 1));
    expect(thinking.durationMs).toBe(2400);
    now = 9000;
    clock.observe(update('thinking_end', content));
    clock.observe(end(content));
    expect(thinking.durationMs).toBe(2400);
  });

  it('ends it at the message’s end when nothing followed, and times each block apart', () => {
    let now = 0;
    const clock = new ThinkingClock(() => now);
    const first: Block = { type: 'thinking' };
    const second: Block = { type: 'thinking' };
    clock.observe(update('thinking_start', [first]));
    now = 100;
    clock.observe(update('toolcall_start', [first, { type: 'toolCall' }], 1));
    now = 200;
    clock.observe(update('thinking_start', [first, { type: 'toolCall' }, second], 2));
    now = 700;
    clock.observe(end([first, second]));
    expect([first.durationMs, second.durationMs]).toEqual([100, 500]);
  });

  it('a new message starts over: a block of a reply that was cut off is not timed by the next', () => {
    let now = 0;
    const clock = new ThinkingClock(() => now);
    const cut: Block = { type: 'thinking' };
    clock.observe(update('thinking_start', [cut]));
    clock.observe(start());
    now = 5000;
    clock.observe(end([]));
    expect(cut.durationMs).toBeUndefined();
  });
});

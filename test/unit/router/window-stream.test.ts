// The window's streaming rule (src/main/router/event-hub.ts windowStream), on fake timers: the
// first update goes at once, later ones at most one per frame (the newest, per message), any other
// event flushes what is pending first, and pi-ai's duplicate of the message is not sent.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionEvent } from '../../../src/shared/events';
import { messageText, type ChatMessage } from '../../../src/shared/messages';
import { WINDOW_FRAME_MS, windowStream } from '../../../src/main/router/event-hub';

function assistant(text: string, timestamp = 1): ChatMessage {
  return {
    role: 'assistant',
    content: [{ type: 'text', text }],
    api: 'openai-completions',
    provider: 'simulator',
    model: 'sim',
    usage: {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: 'stop',
    timestamp,
  } as ChatMessage;
}

function update(text: string, timestamp = 1): SessionEvent {
  const message = assistant(text, timestamp);
  const assistantMessageEvent = { type: 'text_delta', contentIndex: 0, delta: text.slice(-1), partial: message };
  return { type: 'message_update', message, assistantMessageEvent } as SessionEvent;
}

const textOf = (event: SessionEvent): string =>
  event.type === 'message_update' ? messageText(event.message) : event.type;

describe('windowStream', () => {
  let sent: SessionEvent[];
  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
  });
  afterEach(() => vi.useRealTimers());

  it('sends the first update at once, then only the newest once a frame', () => {
    const stream = windowStream((e) => sent.push(e));
    stream.push(update('a'));
    expect(sent.map(textOf)).toEqual(['a']);
    for (const text of ['ab', 'abc', 'abcd']) stream.push(update(text));
    expect(sent).toHaveLength(1);
    vi.advanceTimersByTime(WINDOW_FRAME_MS);
    expect(sent.map(textOf)).toEqual(['a', 'abcd']);
    // 2,000 updates over one second: about one a frame, never one each.
    for (let i = 0; i < 2000; i++) {
      stream.push(update('x'.repeat(i + 5)));
      if (i % 2 === 1) vi.advanceTimersByTime(1);
    }
    vi.advanceTimersByTime(WINDOW_FRAME_MS * 2);
    expect(sent.length).toBeLessThanOrEqual(2 + Math.ceil(1000 / WINDOW_FRAME_MS) + 1);
    expect(textOf(sent[sent.length - 1]!)).toBe('x'.repeat(2004));
    stream.close();
  });

  it('goes back to the leading edge once a frame passes without updates (a slow stream is not delayed)', () => {
    const stream = windowStream((e) => sent.push(e));
    stream.push(update('a'));
    vi.advanceTimersByTime(WINDOW_FRAME_MS * 3);
    stream.push(update('ab'));
    expect(sent.map(textOf)).toEqual(['a', 'ab']);
    stream.close();
  });

  it('flushes the pending update before any other event, keeping the order', () => {
    const stream = windowStream((e) => sent.push(e));
    stream.push(update('a'));
    stream.push(update('ab'));
    stream.push({ type: 'message_end', message: assistant('ab') });
    expect(sent.map(textOf)).toEqual(['a', 'ab', 'message_end']);
    vi.advanceTimersByTime(WINDOW_FRAME_MS * 2);
    expect(sent).toHaveLength(3);
    stream.close();
  });

  it('keeps the newest update of each streaming message (two sessions side by side)', () => {
    const stream = windowStream((e) => sent.push(e));
    stream.push(update('a', 1));
    stream.push(update('A', 2));
    stream.push(update('ab', 1));
    stream.push(update('AB', 2));
    stream.push(update('abc', 1));
    vi.advanceTimersByTime(WINDOW_FRAME_MS);
    // One frame for both: the window paints them together.
    expect(sent.map(textOf)).toEqual(['a', 'AB', 'abc']);
    stream.close();
  });

  it('sends the message once: no partial, no delta of the last event alone', () => {
    const stream = windowStream((e) => sent.push(e));
    stream.push(update('hello'));
    expect(sent[0]).toMatchObject({ assistantMessageEvent: { type: 'text_delta', contentIndex: 0 } });
    expect(JSON.stringify(sent[0]).split('hello')).toHaveLength(2);
    stream.close();
  });

  it('sends nothing after close', () => {
    const stream = windowStream((e) => sent.push(e));
    stream.push(update('a'));
    stream.push(update('ab'));
    stream.close();
    vi.advanceTimersByTime(WINDOW_FRAME_MS * 2);
    expect(sent).toHaveLength(1);
  });

  it("empties agent_end's context and turn_end's message, which the window has from other events", () => {
    const stream = windowStream((e) => sent.push(e));
    stream.push({ type: 'agent_end', messages: [assistant('a')] });
    stream.push({ type: 'turn_end', message: assistant('the whole reply'), toolResults: [assistant('b')] });
    expect(sent[0]).toEqual({ type: 'agent_end', messages: [] });
    expect(sent[1]).toMatchObject({ type: 'turn_end', message: { role: 'assistant', content: [] }, toolResults: [] });
  });
});

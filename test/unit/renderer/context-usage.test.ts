// The chat header's numbers (docs/thinking-and-context.md): the context meter reads the newest
// reply's reported tokens against the model's window, warns at 70 % and 90 %, and splits the use
// into tool results, messages and the rest (the instructions); the session total adds up every
// stored attempt and says when a price is unknown. Also a reply's thinking as the chat shows it.
import { describe, expect, it } from 'vitest';
import { buildChatItems, thinkingOf, type MessageItem } from '../../../src/renderer/src/chat/chat-items';
import { contextUsage, sessionTotal, sessionTotalOf, shortTokens } from '../../../src/renderer/src/chat/context-usage';
import type { ChatMessage, ToolResultChatMessage } from '../../../src/shared/messages';
import { assistantMessage, turn, userMessage } from './fixtures';

const usage = (totalTokens: number, input = totalTokens) => ({
  input,
  output: totalTokens - input,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens,
});

const toolResult = (text: string): ToolResultChatMessage => ({
  role: 'toolResult',
  toolCallId: 'c1',
  toolName: 'read',
  content: [{ type: 'text', text }],
  isError: false,
  timestamp: 3000,
});

describe('contextUsage', () => {
  it('reads the newest reply that reported tokens, against the window', () => {
    const messages: ChatMessage[] = [
      userMessage('hi'),
      assistantMessage('one', 2000, { usage: usage(1000) }),
      userMessage('again'),
      assistantMessage('', 4000, { usage: usage(0), stopReason: 'error', errorMessage: '503' }),
    ];
    const reading = contextUsage(messages, 10_000)!;
    expect(reading.used).toBe(1000);
    expect(reading.share).toBeCloseTo(0.1);
    expect(reading.level).toBe('ok');
  });

  it('warns from 70 % and says full from 90 %', () => {
    const at = (tokens: number) => contextUsage([assistantMessage('x', 1, { usage: usage(tokens) })], 1000)!.level;
    expect([at(699), at(700), at(899), at(900), at(1200)]).toEqual(['ok', 'warn', 'warn', 'full', 'full']);
  });

  it('splits the tokens into tool results, messages and the instructions (the rest)', () => {
    const messages: ChatMessage[] = [
      userMessage('a'.repeat(400)),
      toolResult('b'.repeat(800)),
      assistantMessage('c'.repeat(400), 5000, { usage: usage(1000) }),
    ];
    expect(contextUsage(messages, 8192)!.parts).toEqual({ instructions: 600, messages: 200, toolResults: 200 });
  });

  it('is null before any reply reported tokens, or without a window', () => {
    expect(contextUsage([userMessage('hi')], 8192)).toBeNull();
    expect(contextUsage([assistantMessage('x', 1, { usage: usage(10) })], undefined)).toBeNull();
  });
});

describe('sessionTotal', () => {
  it('adds every stored attempt, and counts those of unknown price apart', () => {
    const turns = [
      turn(1, userMessage('hi')),
      turn(2, assistantMessage('a'), { usage: usage(100), costUsd: 0.01 }),
      turn(3, assistantMessage('b'), { usage: usage(50), costUsd: null }),
    ];
    expect(sessionTotal(turns)).toEqual({ tokens: 150, costUsd: 0.01, unpriced: 1 });
    expect(sessionTotal(turns.slice(2))).toEqual({ tokens: 50, costUsd: null, unpriced: 1 });
  });
});

describe('sessionTotalOf', () => {
  const turns = [turn(5, assistantMessage('newest'), { usage: usage(40), costUsd: 0.001 })];
  const summary = (tokens: number) => ({
    id: 's',
    title: '',
    createdAt: 0,
    updatedAt: 0,
    model: '',
    provider: '',
    turnCount: 3,
    erroredTurnCount: 0,
    workspace: '',
    usage: { tokens, costUsd: 0.5, unpriced: 0 },
  });

  it('is the stored total of every turn when the summary has one, not only the loaded page', () => {
    expect(sessionTotalOf(summary(9000), turns)).toEqual({ tokens: 9000, costUsd: 0.5, unpriced: 0 });
  });

  it('counts the turns at hand without a summary, or when the summary is a turn behind them', () => {
    expect(sessionTotalOf(undefined, turns)).toEqual({ tokens: 40, costUsd: 0.001, unpriced: 0 });
    expect(sessionTotalOf(summary(10), turns)).toEqual({ tokens: 40, costUsd: 0.001, unpriced: 0 });
  });
});

describe('shortTokens', () => {
  it('writes the meter’s counts as 950, 8.2k, 18.2k, 200k', () => {
    expect([950, 8192, 18_200, 200_000, 131_072].map((n) => shortTokens(n, 'en'))).toEqual([
      '950',
      '8.2k',
      '18.2k',
      '200k',
      '131k',
    ]);
  });
});

describe('a reply’s thinking', () => {
  it('is its thinking blocks, timed or redacted, and a reply that only thought and called a tool keeps a bubble', () => {
    const reply = assistantMessage('', 2000, {
      content: [
        { type: 'thinking', thinking: 'Let me see.', durationMs: 2400 },
        { type: 'thinking', thinking: '', redacted: true },
        { type: 'thinking', thinking: '  ' },
        { type: 'toolCall', id: 'c1', name: 'read', arguments: { path: 'a' } },
      ],
      stopReason: 'toolUse',
    });
    expect(thinkingOf(reply)).toEqual([
      { text: 'Let me see.', durationMs: 2400, redacted: false },
      { text: '', durationMs: null, redacted: true },
    ]);
    const items = buildChatItems({ turns: [turn(1, userMessage('hi')), turn(2, reply)], chains: {}, decisions: [] });
    const bubble = items.find((i): i is MessageItem => i.kind === 'message' && i.role === 'assistant');
    expect(bubble?.thinking).toHaveLength(2);
    expect(items.some((i) => i.kind === 'tool-call')).toBe(true);
  });
});

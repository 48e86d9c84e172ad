// buildChatItems: bubbles for messages, ONE card per retry chain for its errored turns, pending
// and streaming messages after the stored turns, and the verdict each card shows.
import { describe, expect, it } from 'vitest';
import {
  buildChatItems,
  chainVerdict,
  latestAttempt,
  type ErroredChainItem,
} from '../../../src/renderer/src/chat/chat-items';
import { assistantMessage, decision, erroredMessage, turn, userMessage } from './fixtures';

const base = { chains: {}, decisions: [] };

describe('buildChatItems', () => {
  it('renders user and assistant turns as bubbles in order', () => {
    const items = buildChatItems({ ...base, turns: [turn(1, userMessage('hi')), turn(2, assistantMessage('hello'))] });
    expect(items.map((i) => (i.kind === 'message' ? `${i.role}:${i.text}` : i.kind))).toEqual([
      'user:hi',
      'assistant:hello',
    ]);
  });

  it('groups the errored turns of one chain into a single card, then the recovered answer', () => {
    const turns = [
      turn(1, userMessage('hi')),
      turn(2, erroredMessage('503 one', 10), { chainId: 'c1' }),
      turn(3, erroredMessage('503 two', 20), { chainId: 'c1', errorCategory: 'overloaded' }),
      turn(4, assistantMessage('hello', 30), { chainId: 'c1' }),
    ];
    const items = buildChatItems({
      turns,
      chains: { c1: { outcome: 'recovered', attempts: 2, finalError: null } },
      decisions: [decision('d1', 1), decision('d2', 2), decision('dx', 1, { chainId: 'other' })],
    });
    expect(items.map((i) => i.kind)).toEqual(['message', 'errored-chain', 'message']);
    const card = items[1] as ErroredChainItem;
    expect(card.attempts.map((a) => a.errorMessage)).toEqual(['503 one', '503 two']);
    expect(latestAttempt(card).category).toBe('overloaded');
    expect(card.decisions.map((d) => d.id)).toEqual(['d1', 'd2']);
    expect(chainVerdict(card)).toEqual({ kind: 'outcome', outcome: 'recovered', attempts: 2, finalError: null });
  });

  it('gives separate chains separate cards, and an errored turn without a chain its own card', () => {
    const turns = [
      turn(1, erroredMessage('a', 1), { chainId: 'c1' }),
      turn(2, erroredMessage('b', 2), { chainId: 'c2' }),
      turn(3, erroredMessage('401', 3), { errorCategory: 'auth' }),
    ];
    const items = buildChatItems({
      ...base,
      turns,
      decisions: [
        decision('d9', 1, { chainId: null, context: { ...decision('x', 1).context, turnId: 't3' }, action: 'abort' }),
      ],
    });
    expect(items).toHaveLength(3);
    const last = items[2] as ErroredChainItem;
    expect(last.chainId).toBeNull();
    expect(chainVerdict(last)).toMatchObject({ kind: 'decision', decision: { action: 'abort' } });
    expect(chainVerdict(items[0] as ErroredChainItem)).toEqual({ kind: 'unknown' });
  });

  it('appends pending messages and the streaming message after the stored turns', () => {
    const items = buildChatItems({
      ...base,
      turns: [turn(1, userMessage('hi'))],
      pendingMessages: [userMessage('more', 5)],
      streamingMessage: assistantMessage('typ', 6),
    });
    expect(items.map((i) => (i.kind === 'message' ? [i.text, i.isStreaming] : i.kind))).toEqual([
      ['hi', false],
      ['more', false],
      ['typ', true],
    ]);
  });

  it('joins a not-yet-persisted failed attempt to the chain card just above it', () => {
    const items = buildChatItems({
      ...base,
      turns: [turn(1, erroredMessage('503 one', 10), { chainId: 'c1' })],
      pendingMessages: [erroredMessage('503 two', 20)],
    });
    expect(items).toHaveLength(1);
    expect((items[0] as ErroredChainItem).attempts).toHaveLength(2);
  });

  it('shows an aborted (stopped) reply as a bubble, not an error card', () => {
    const stopped = assistantMessage('partial', 5, { stopReason: 'aborted', errorMessage: 'Request was aborted' });
    const items = buildChatItems({ ...base, turns: [turn(1, stopped)] });
    expect(items[0]).toMatchObject({ kind: 'message', stopReason: 'aborted', text: 'partial' });
  });
});

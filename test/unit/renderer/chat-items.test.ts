// buildChatItems: bubbles for messages, ONE card per retry chain for its errored turns with its
// status and retry count, pending and streaming messages after the stored turns, only the active
// path of a branched conversation, and compaction dividers where they happened.
import { describe, expect, it } from 'vitest';
import {
  buildChatItems,
  chainCategories,
  erroredTurnItem,
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
    // Recovered after two failures: two retries were made, and the card knows the question it answered.
    expect(card).toMatchObject({ status: 'recovered', retries: 2, prompt: { turnId: 't1', text: 'hi' } });
    expect(chainCategories(card)).toEqual(['server_error', 'overloaded']);
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
    // A final abort without a chain row is a failure; a chain whose outcome has not arrived still retries.
    expect(last).toMatchObject({ status: 'failed', retries: 0 });
    expect((items[0] as ErroredChainItem).status).toBe('retrying');
  });

  it('counts retries as the banner does: four failed attempts that ran out are three retries', () => {
    const turns = [1, 2, 3, 4].map((n) => turn(n, erroredMessage(`503 #${n}`, n), { chainId: 'c' }));
    const [card] = buildChatItems({
      ...base,
      turns,
      chains: { c: { outcome: 'exhausted', attempts: 3, finalError: '503 #4' } },
    }) as ErroredChainItem[];
    expect(card).toMatchObject({ status: 'failed', retries: 3 });
  });

  it('an interrupted chain the person discarded is given up, not an error to retry; one on offer is not', () => {
    const turns = [turn(1, userMessage('hi')), turn(2, erroredMessage('503', 2), { chainId: 'c' })];
    const chains = { c: { outcome: 'interrupted' as const, attempts: 1, finalError: '503' } };
    const offered = decision('d1', 1, { chainId: 'c' });
    const [, onOffer] = buildChatItems({ ...base, turns, chains, decisions: [offered] }) as ErroredChainItem[];
    expect(onOffer).toMatchObject({ status: 'failed', discarded: false });
    const discard = decision('d2', 1, {
      chainId: 'c',
      action: 'abort',
      finalDecision: 'abort',
      reason: 'interrupted chain discarded by the person',
    });
    const [, given] = buildChatItems({ ...base, turns, chains, decisions: [offered, discard] }) as ErroredChainItem[];
    expect(given).toMatchObject({ status: 'failed', discarded: true });
  });

  it('a reply keeps its key from streaming to stored, so its row is updated, not mounted again', () => {
    const reply = assistantMessage('done', 77);
    const streaming = buildChatItems({ ...base, turns: [turn(1, userMessage('q', 70))], streamingMessage: reply });
    const stored = buildChatItems({ ...base, turns: [turn(1, userMessage('q', 70)), turn(2, reply)] });
    expect(streaming[1].key).toBe(stored[1].key);
    expect(new Set(stored.map((i) => i.key)).size).toBe(stored.length);
  });

  it('shows only the active path: an edited message replaces what followed it', () => {
    const turns = [
      turn(1, userMessage('first')),
      turn(2, assistantMessage('one')),
      turn(3, userMessage('second')),
      turn(4, assistantMessage('two')),
      turn(5, userMessage('second, edited'), { branchFrom: 3 }),
      turn(6, assistantMessage('two, again')),
    ];
    const items = buildChatItems({ ...base, turns });
    expect(items.map((i) => (i.kind === 'message' ? i.text : i.kind))).toEqual([
      'first',
      'one',
      'second, edited',
      'two, again',
    ]);
  });

  it('puts a compaction divider after the turn it followed, and links it to the overflow card', () => {
    const turns = [
      turn(1, userMessage('long')),
      turn(2, erroredMessage('context too long', 2), { chainId: 'o', errorCategory: 'context_overflow' }),
      turn(3, assistantMessage('short answer', 3)),
    ];
    const compaction = { afterSeq: 2, status: 'done' as const, summary: 'Summary', error: null };
    const items = buildChatItems({
      ...base,
      turns,
      chains: { o: { outcome: 'compacted', attempts: 0, finalError: null } },
      compactions: [compaction],
    });
    expect(items.map((i) => i.kind)).toEqual(['message', 'errored-chain', 'compaction', 'message']);
    expect(items[1]).toMatchObject({ status: 'compacted', compaction });
  });

  it('builds the history errored filter card of a whole chain', () => {
    const attempts = [
      turn(2, erroredMessage('503 one', 2), { chainId: 'c' }),
      turn(3, erroredMessage('503 two', 3), { chainId: 'c' }),
    ];
    const chain = {
      id: 'c',
      sessionId: 's',
      outcome: 'exhausted' as const,
      attempts: 1,
      finalError: '503 two',
      startedAt: 1,
      endedAt: 2,
    };
    const card = erroredTurnItem({
      turn: attempts[1],
      attempts,
      session: { id: 's', title: 'S' },
      chain,
      decisions: [],
    });
    expect(card).toMatchObject({ status: 'failed', retries: 1, chainId: 'c' });
    expect(card.attempts.map((a) => a.errorMessage)).toEqual(['503 one', '503 two']);
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

// prependedCount: how many rows an older page put in front of the transcript, which the
// virtualised list subtracts from react-virtuoso's firstItemIndex to keep the reader's place. Fed
// with buildChatItems' own rows, as the chat does, including a retry chain cut by the page edge.
import { describe, expect, it } from 'vitest';
import { buildChatItems } from '../../../src/renderer/src/chat/chat-items';
import { prependedCount } from '../../../src/renderer/src/chat/prepended';
import type { TurnRecord } from '../../../src/shared/history';
import { assistantMessage, erroredMessage, turn, userMessage } from './fixtures';

const rows = (...keys: string[]) => keys.map((key) => ({ key }));
const itemsOf = (turns: TurnRecord[]) => buildChatItems({ turns, chains: {}, decisions: [] });

/** Exchange n: a question and its answer, at seq 2n-1 and 2n. */
function exchange(n: number): TurnRecord[] {
  return [turn(2 * n - 1, userMessage(`q${n}`, n * 1000)), turn(2 * n, assistantMessage(`a${n}`, n * 1000 + 500))];
}

describe('prependedCount', () => {
  it('is 0 when the front did not change: the list grew at the end, or nothing changed', () => {
    expect(prependedCount(rows('a', 'b'), rows('a', 'b', 'c'))).toBe(0);
    expect(prependedCount(rows('a', 'b'), rows('a', 'b'))).toBe(0);
    expect(prependedCount([], rows('a'))).toBe(0);
  });

  it('counts the rows in front of the row that was first', () => {
    expect(prependedCount(rows('c', 'd'), rows('a', 'b', 'c', 'd'))).toBe(2);
  });

  it('counts an older page of real chat rows: two rows per exchange', () => {
    const newest = [...exchange(3), ...exchange(4)];
    const all = [...exchange(1), ...exchange(2), ...newest];
    expect(prependedCount(itemsOf(newest), itemsOf(all))).toBe(4);
  });

  it('anchors on the next row when the first one is gone, and says 0 when none is left', () => {
    expect(prependedCount(rows('gone', 'c', 'd'), rows('a', 'b', 'c', 'd'))).toBe(1);
    expect(prependedCount(rows('x', 'y'), rows('a', 'b'))).toBe(0);
  });

  it('counts the card of a retry chain whose failed attempt was on the older page', () => {
    const chained = { chainId: 'c1' };
    const failed = turn(3, erroredMessage('503', 2200), chained);
    const answer = turn(4, assistantMessage('a2', 2500), chained);
    const newest = [answer, ...exchange(3)];
    const all = [...exchange(1), turn(2, userMessage('q2', 2000)), failed, ...newest];
    const after = itemsOf(all);
    // q1, a1, q2, the chain's card: four rows in front of the answer that was first.
    expect(after.findIndex((i) => i.kind === 'errored-chain')).toBe(3);
    expect(prependedCount(itemsOf(newest), after)).toBe(4);
  });
});

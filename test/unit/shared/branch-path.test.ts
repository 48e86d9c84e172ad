// branchPath: the conversation's versions as a tree (docs/architecture.md, "Branches") — with no
// choice it is activePath()'s path, over random edit/regenerate histories; a choice shows an older
// version and the newest below it; the chat items put the switcher on a version's first message,
// and the cards of failed chains on versions not shown are listed apart.
import { describe, expect, it } from 'vitest';
import { activePath, branchPath } from '../../../src/shared/history';
import { buildChatItems, otherVersionCards, type MessageItem } from '../../../src/renderer/src/chat/chat-items';
import { assistantMessage, erroredMessage, turn, userMessage } from '../renderer/fixtures';

type T = { seq: number; branchFrom: number | null };

/** A random history: turns appended, sometimes as a branch from a turn on the path as it stands. */
function randomTurns(seed: number, length: number): T[] {
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const turns: T[] = [];
  for (let seq = 1; seq <= length; seq += 1) {
    const path = activePath(turns);
    const branch = path.length > 0 && next() < 0.3 ? path[Math.floor(next() * path.length)].seq : null;
    turns.push({ seq, branchFrom: branch });
  }
  return turns;
}

describe('branchPath', () => {
  it('is activePath with no choice, over 300 random histories', () => {
    for (let seed = 1; seed <= 300; seed += 1) {
      const turns = randomTurns(seed, 2 + (seed % 25));
      const shown = branchPath(turns);
      expect(shown.path.map((t) => t.seq)).toEqual(activePath(turns).map((t) => t.seq));
      expect(shown.isLatest).toBe(true);
    }
  });

  it('names the versions at a fork and follows the chosen one, then the newest below it', () => {
    // 1 Q, 2 fail; 3 Q again (from 1), 4 A, 5 Q2, 6 A2; 7 A' (regenerated from 4).
    const turns: T[] = [
      { seq: 1, branchFrom: null },
      { seq: 2, branchFrom: null },
      { seq: 3, branchFrom: 1 },
      { seq: 4, branchFrom: null },
      { seq: 5, branchFrom: null },
      { seq: 6, branchFrom: null },
      { seq: 7, branchFrom: 4 },
    ];
    const latest = branchPath(turns);
    expect(latest.path.map((t) => t.seq)).toEqual([3, 7]);
    expect(latest.versions.get(3)).toEqual({ fork: 0, index: 1, count: 2, seqs: [1, 3] });
    expect(latest.versions.get(7)).toEqual({ fork: 3, index: 1, count: 2, seqs: [4, 7] });
    const older = branchPath(turns, { 3: 4 });
    expect(older.path.map((t) => t.seq)).toEqual([3, 4, 5, 6]);
    expect(older.isLatest).toBe(false);
    expect(branchPath(turns, { 0: 1 }).path.map((t) => t.seq)).toEqual([1, 2]);
    // A choice that names no version there is the newest.
    expect(branchPath(turns, { 0: 99 }).path.map((t) => t.seq)).toEqual([3, 7]);
  });
});

describe('the chat items of versions', () => {
  const turns = [
    turn(1, userMessage('Q', 1)),
    turn(2, erroredMessage('503 a', 2), { chainId: 'c1' }),
    turn(3, erroredMessage('503 b', 3), { chainId: 'c2' }),
    turn(4, userMessage('Q', 4), { branchFrom: 1 }),
    turn(5, assistantMessage('A', 5)),
  ];
  const chains = {
    c1: { outcome: 'exhausted' as const, attempts: 2, finalError: '503 a' },
    c2: { outcome: 'cancelled' as const, attempts: 0, finalError: '503 b' },
  };

  it('puts the switcher on the first message of the version, and shows the one chosen', () => {
    const latest = buildChatItems({ turns, chains, decisions: [] });
    expect(latest.map((i) => i.kind)).toEqual(['message', 'message']);
    expect((latest[0] as MessageItem).versions).toMatchObject({ index: 1, count: 2, fork: 0 });
    expect((latest[1] as MessageItem).versions).toBeUndefined();
    const older = buildChatItems({ turns, chains, decisions: [], branchChoices: { 0: 1 } });
    expect(older.map((i) => i.kind)).toEqual(['message', 'errored-chain', 'errored-chain']);
    expect((older[0] as MessageItem).versions).toMatchObject({ index: 0, count: 2 });
  });

  it('lists the failed chains of the versions not shown, one card each', () => {
    expect(otherVersionCards({ turns, chains, decisions: [] }).map((c) => [c.chainId, c.status])).toEqual([
      ['c1', 'failed'],
      ['c2', 'failed'],
    ]);
    expect(otherVersionCards({ turns, chains, decisions: [], branchChoices: { 0: 1 } })).toEqual([]);
  });
});

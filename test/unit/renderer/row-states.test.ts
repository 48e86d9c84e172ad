// Where each chat row stands (src/renderer/src/chat/row-states.ts): the person's messages offer Edit
// while nothing runs, the last exchange is the one tried again, and every other row keeps one state
// whether a turn runs or not — so a run's start and end render only the rows that can act.
import { describe, expect, it } from 'vitest';
import { buildChatItems, type ChatItem } from '../../../src/renderer/src/chat/chat-items';
import { rowStates } from '../../../src/renderer/src/chat/row-states';
import { READ_ONLY, sameRowState } from '../../../src/renderer/src/chat/same-row';
import { assistantMessage, decision, erroredMessage, turn, userMessage } from './fixtures';

const items: ChatItem[] = buildChatItems({
  turns: [
    turn(1, userMessage('hi', 1)),
    turn(2, assistantMessage('hello', 2)),
    turn(3, userMessage('again', 3)),
    turn(4, erroredMessage('503', 4), { chainId: 'c1' }),
    turn(5, assistantMessage('there', 5), { chainId: 'c1' }),
    turn(6, userMessage('last', 6)),
    turn(7, assistantMessage('done', 7)),
  ],
  chains: { c1: { outcome: 'recovered', attempts: 1, finalError: null } },
  decisions: [decision('d1', 1)],
});
const kinds = items.map((i) => (i.kind === 'message' ? i.role : i.kind));

describe('rowStates', () => {
  it('while nothing runs: every message of the person is live, the last exchange is live and last, the rest read-only', () => {
    expect(kinds).toEqual(['user', 'assistant', 'user', 'errored-chain', 'assistant', 'user', 'assistant']);
    const states = items.map(rowStates(items, false, null));
    expect(states).toEqual([
      { isLive: true, isLast: false },
      READ_ONLY,
      { isLive: true, isLast: false },
      READ_ONLY,
      READ_ONLY,
      { isLive: true, isLast: false },
      { isLive: true, isLast: true },
    ]);
  });

  it("while a turn runs every row is read-only; only the person's messages and the last exchange changed for it", () => {
    const idle = items.map(rowStates(items, false, null));
    const busy = items.map(rowStates(items, true, null));
    expect(busy.every((s) => s === READ_ONLY)).toBe(true);
    const changed = items
      .filter((_, i) => !sameRowState(idle[i], busy[i]))
      .map((i) => (i.kind === 'message' ? i.role : i.kind));
    expect(changed).toEqual(['user', 'user', 'user', 'assistant']);
  });

  it('a chain offered to continue after a restart is not live on its card when it is the last exchange', () => {
    const upToChain = items.slice(0, 4);
    const states = upToChain.map(rowStates(upToChain, false, 'c1'));
    expect(states[3]).toEqual({ isLive: false, isLast: true });
    expect(states[2]).toEqual({ isLive: true, isLast: false });
  });
});

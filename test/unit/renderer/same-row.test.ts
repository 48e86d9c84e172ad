// The chat's row comparison (src/renderer/src/chat/same-row.ts): a retry chain's card rebuilt with
// the same content is the same row (it does not render again at every event of a later failure),
// and any change of what it shows — a new decision, the outcome, an attempt's words — is not.
import { describe, expect, it } from 'vitest';
import { buildChatItems, type ChatItem, type ErroredChainItem } from '../../../src/renderer/src/chat/chat-items';
import { isSameRow } from '../../../src/renderer/src/chat/same-row';
import { assistantMessage, decision, erroredMessage, turn, userMessage } from './fixtures';

function chainCard(outcome: 'recovered' | 'pending', extraDecision = false): ErroredChainItem {
  const items = buildChatItems({
    turns: [
      turn(1, userMessage('hi')),
      turn(2, erroredMessage('503 one', 10), { chainId: 'c1' }),
      turn(3, assistantMessage('hello', 30), { chainId: 'c1' }),
    ],
    chains: { c1: { outcome, attempts: 1, finalError: null } },
    decisions: [decision('d1', 1), ...(extraDecision ? [decision('d2', 2)] : [])],
  });
  return items.find((i): i is ErroredChainItem => i.kind === 'errored-chain')!;
}

const row = (item: ChatItem, isLive = false) => ({ item, row: { isLive, isLast: true } });

describe('isSameRow', () => {
  it('is true for a chain card rebuilt with the same content', () => {
    expect(isSameRow(row(chainCard('recovered')), row(chainCard('recovered')))).toBe(true);
  });

  it('is false once the card shows something else', () => {
    const before = chainCard('recovered');
    expect(isSameRow(row(before), row(chainCard('pending')))).toBe(false);
    expect(isSameRow(row(before), row(chainCard('recovered', true)))).toBe(false);
    const words = structuredClone(before);
    words.attempts[0]!.errorMessage = '503 other';
    expect(isSameRow(row(before), row(words))).toBe(false);
    expect(isSameRow(row(before), row(chainCard('recovered'), true))).toBe(false);
    expect(isSameRow({ ...row(before), isExpanded: true }, row(chainCard('recovered')))).toBe(false);
  });
});

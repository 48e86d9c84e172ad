// estimateRowHeight: where the virtualised transcript places rows it has not measured yet. Only
// its shape matters (longer text, more lines: taller; a quiet note short, a failed card tall).
import { describe, expect, it } from 'vitest';
import { buildChatItems } from '../../../src/renderer/src/chat/chat-items';
import { estimateRowHeight } from '../../../src/renderer/src/chat/row-height';
import { assistantMessage, turn, userMessage } from './fixtures';

const rowOf = (text: string) => buildChatItems({ turns: [turn(1, userMessage(text))], chains: {}, decisions: [] })[0];

describe('estimateRowHeight', () => {
  it('grows with a message: a line of words, then each wrapped or new line', () => {
    const one = estimateRowHeight(rowOf('a short question'));
    const wrapped = estimateRowHeight(rowOf('word '.repeat(60)));
    const lines = estimateRowHeight(rowOf('one\ntwo\nthree\nfour\nfive\nsix\nseven'));
    expect(wrapped).toBeGreaterThan(one);
    expect(lines).toBeGreaterThan(wrapped);
  });

  it('counts a reply the same way as a question', () => {
    const reply = buildChatItems({ turns: [turn(2, assistantMessage('x'.repeat(300)))], chains: {}, decisions: [] });
    expect(estimateRowHeight(reply[0])).toBe(estimateRowHeight(rowOf('x'.repeat(300))));
  });
});

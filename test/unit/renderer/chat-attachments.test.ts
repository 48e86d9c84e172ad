// Attachments in the chat's items (chat-items.ts): a person's message carries its attachment
// blocks for the chips (its text is only their words), and a failed exchange whose message had
// images says so, for the card's hint about a server that does not read them.
import { describe, expect, it } from 'vitest';
import { buildChatItems, type ErroredChainItem, type MessageItem } from '../../../src/renderer/src/chat/chat-items';
import type { UserChatMessage } from '../../../src/shared/messages';
import { pendingFromUploads } from '../../../src/renderer/src/attachments/pending-files';
import { erroredMessage, turn } from './fixtures';

const base = { chains: {}, decisions: [] };
const withImage: UserChatMessage = {
  role: 'user',
  timestamp: 1000,
  content: [
    { type: 'text', text: 'Look' },
    { type: 'image', data: 'AA==', mimeType: 'image/png', file: { name: 'dot.png', mimeType: 'image/png', size: 1 } },
  ],
};

describe('attachments in the chat items', () => {
  it("a person's message lists its attachments", () => {
    const [item] = buildChatItems({ ...base, turns: [turn(1, withImage)] }) as MessageItem[];
    expect(item.text).toBe('Look');
    expect(item.attachments).toEqual([withImage.content[1]]);
  });

  it('a failed exchange knows its message had images', () => {
    const items = buildChatItems({
      ...base,
      turns: [turn(1, withImage), turn(2, erroredMessage('400 image input is not supported', 2000))],
    });
    const card = items.find((i): i is ErroredChainItem => i.kind === 'errored-chain');
    expect(card?.prompt).toMatchObject({ turnId: 't1', hadImages: true });
  });
});

describe('files given back to the composer', () => {
  it('a held prompt’s uploads become chips again: size from the base64, a thumbnail for an image only', () => {
    const chips = pendingFromUploads([
      { name: 'dot.png', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      { name: 'notes.md', mimeType: 'text/markdown', data: 'IyBOb3Rlcw==' },
    ]);
    expect(chips.map(({ name, size, preview }) => ({ name, size, preview }))).toEqual([
      { name: 'dot.png', size: 8, preview: 'data:image/png;base64,iVBORw0KGgo=' },
      { name: 'notes.md', size: 7, preview: null },
    ]);
    expect(new Set(chips.map((c) => c.id)).size).toBe(2);
  });
});

// splitAtShow (chat/drafts.ts): what the box held when another chat was asked for stays with the chat
// left; the words and the files added before the new chat showed go to it, when its draft is empty.
import { describe, expect, it } from 'vitest';
import { splitAtShow, type Draft } from '../../../src/renderer/src/chat/drafts';
import type { PendingFile } from '../../../src/renderer/src/attachments/pending-files';

const file = (name: string): PendingFile => ({
  id: name,
  name,
  mimeType: 'image/png',
  data: 'AA==',
  size: 1,
  preview: null,
});
const empty: Draft = { text: '', files: [], refill: null };

describe('splitAtShow', () => {
  it('gives a picture attached and words typed after New chat to the new chat; the chat left keeps its own', () => {
    const old = file('old.png');
    const dot = file('dot.png');
    const split = splitAtShow(
      { text: 'left here', files: [old] },
      { text: 'the held picture', files: [old, dot] },
      empty,
    );
    expect(split).toEqual({
      left: { text: 'left here', files: [old] },
      shown: { text: 'the held picture', files: [dot] },
    });
  });

  it('moves a picture alone, leaving the words that were there at the ask', () => {
    const dot = file('dot.png');
    expect(splitAtShow({ text: 'mine', files: [] }, { text: 'mine', files: [dot] }, empty)).toEqual({
      left: { text: 'mine', files: [] },
      shown: { text: '', files: [dot] },
    });
  });

  it('keeps each chat its own when nothing changed, nothing was asked, or the chat shown has a draft', () => {
    const box = { text: 'typed', files: [] };
    expect(splitAtShow({ text: 'typed', files: [] }, box, empty)).toBeNull();
    expect(splitAtShow(null, box, empty)).toBeNull();
    expect(splitAtShow({ text: '', files: [] }, box, { ...empty, text: 'its own' })).toBeNull();
    expect(splitAtShow({ text: '', files: [] }, box, { ...empty, files: [file('x.png')] })).toBeNull();
  });
});

// splitBlocks: a Markdown reply cut into top-level blocks so a stream re-parses only its last one.
// Blank lines inside a fence or before an indented continuation do not cut; offsets stay put as
// the text grows, so finished blocks keep their React key and their memoised render.
import { describe, expect, it } from 'vitest';
import { splitBlocks } from '../../../src/renderer/src/markdown/split-blocks';

describe('splitBlocks', () => {
  it('cuts at blank lines, keeping every character', () => {
    const text = '# Title\n\nA paragraph\nstill it.\n\n- one\n- two\n';
    const blocks = splitBlocks(text);
    expect(blocks.map((b) => b.text)).toEqual(['# Title\n\n', 'A paragraph\nstill it.\n\n', '- one\n- two\n']);
    expect(blocks.map((b) => b.text).join('')).toBe(text);
    expect(blocks.map((b) => b.start)).toEqual([0, 9, 32]);
  });

  it('keeps a fenced block whole, blank lines and all, and a list item continued after a blank line', () => {
    const text = '```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n- item\n\n  more of the item\n\nafter';
    expect(splitBlocks(text).map((b) => b.text)).toEqual([
      '```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n',
      '- item\n\n  more of the item\n\n',
      'after',
    ]);
  });

  it('an open fence while streaming keeps the rest in one block; finished blocks keep their offsets', () => {
    const partial = 'Intro\n\n```js\nline 1\n\n';
    const grown = `${partial}line 2\n\`\`\`\n\nNext`;
    const before = splitBlocks(partial);
    const after = splitBlocks(grown);
    expect(before.map((b) => b.start)).toEqual([0, 7]);
    expect(after.map((b) => b.start)).toEqual([0, 7, grown.indexOf('Next')]);
    expect(after[0]).toEqual(before[0]);
  });
});

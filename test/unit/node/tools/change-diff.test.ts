// The bounded diff of a file change (src/main/node/tools/change-diff.ts): small changes get jsdiff's
// line diff; a large replace — 469 KB, every line different — falls back to the whole-file view in
// one pass instead of a 20-second edit-distance search that froze every client.
import { describe, expect, it } from 'vitest';
import { changeDiff } from '../../../../src/main/node/tools/change-diff';
import { unifiedDiff } from '../../../../src/main/node/tools/edit-apply';

/** `count` lines of 52 characters; another `seed` gives other lines, except the first (shared, as a header would be). */
function text(seed: number, count: number): string {
  const lines = Array.from(
    { length: count },
    (_, i) => `line ${i} ${((i * seed * 2654435761) >>> 0).toString(36)} filler`,
  );
  return `${lines.map((line) => line.padEnd(52, '.')).join('\n')}\n`;
}

describe('changeDiff', () => {
  it('a small change is a line diff with context', () => {
    const result = changeDiff('f.txt', 'a\nb\nc\n', 'a\nB\nc\n');
    expect(result).toEqual({ diff: '@@ -1,3 +1,3 @@\n a\n-b\n+B\n c', whole: null });
  });

  it('a new file is all additions, the missing final line break marked as diff marks it', () => {
    expect(changeDiff('n.txt', '', 'x\ny')).toEqual({
      diff: '@@ -0,0 +1,2 @@\n+x\n+y\n\\ No newline at end of file',
      whole: null,
    });
    expect(changeDiff('n.txt', 'gone\n', '').diff).toBe('@@ -1,1 +0,0 @@\n-gone');
  });

  it('a 469 KB replace falls back to the whole-file view instead of searching for the edit distance', () => {
    const before = text(7, 9000);
    const after = text(13, 9000);
    expect(before.length).toBeGreaterThan(469_000);
    const diff = unifiedDiff('big.txt', before, after);
    const lines = diff.split('\n');
    // One hunk: every old line removed, then every new line added.
    expect(lines[0]).toBe('@@ -1,9000 +1,9000 @@');
    expect(lines.filter((line) => line.startsWith('@@'))).toHaveLength(1);
    expect(lines).toHaveLength(1 + 9000 + 9000);
    expect(lines[1]).toBe(`-${before.split('\n')[0]}`);
    expect(lines.at(-1)).toBe(`+${after.split('\n')[8999]}`);
    expect(changeDiff('big.txt', before, after).whole).toEqual({ beforeLines: 9000, afterLines: 9000 });
  });

  it('one changed line in the same large file is still found line by line', () => {
    const before = text(7, 9000);
    const lines = before.split('\n');
    lines[4000] = 'changed';
    const result = changeDiff('big.txt', before, lines.join('\n'));
    expect(result.whole).toBeNull();
    expect(result.diff.split('\n')).toHaveLength(1 + 3 + 2 + 3);
  });
});

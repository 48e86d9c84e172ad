// How `edit` matches (src/main/node/tools/edit-apply.ts): against the original file, each oldText
// unique, no overlaps, nothing changed when any edit fails; CRLF files keep every byte outside the
// replaced spans, and a replacement takes the line ending of the span it replaces.
import { describe, expect, it } from 'vitest';
import { applyEdits } from '../../../../src/main/node/tools/edit-apply';

const FILE = 'alpha\nbeta\ngamma\ndelta\n';

describe('applyEdits', () => {
  it('replaces one unique span and gives a diff', () => {
    const outcome = applyEdits(FILE, [{ oldText: 'beta', newText: 'BETA' }], 'f.txt');
    expect(outcome).toMatchObject({ ok: true, content: 'alpha\nBETA\ngamma\ndelta\n', changed: true });
    if (outcome.ok) expect(outcome.diff).toContain('-beta\n+BETA');
  });

  it('matches every edit against the original, not after the earlier ones', () => {
    const outcome = applyEdits(
      FILE,
      [
        { oldText: 'alpha', newText: 'gamma' },
        { oldText: 'gamma', newText: 'GAMMA' },
      ],
      'f.txt',
    );
    expect(outcome).toMatchObject({ ok: true, content: 'gamma\nbeta\nGAMMA\ndelta\n' });
  });

  it('applies edits given in any order', () => {
    const outcome = applyEdits(
      FILE,
      [
        { oldText: 'delta', newText: 'D' },
        { oldText: 'alpha', newText: 'A' },
      ],
      'f.txt',
    );
    expect(outcome).toMatchObject({ ok: true, content: 'A\nbeta\ngamma\nD\n' });
  });

  it.each([
    ['missing', [{ oldText: 'epsilon', newText: 'x' }], /Could not find oldText/, 0],
    [
      'missing among several',
      [
        { oldText: 'beta', newText: 'b' },
        { oldText: 'zeta', newText: 'z' },
      ],
      /edits\[1\]/,
      1,
    ],
    ['duplicate', [{ oldText: 'a\n', newText: 'x' }], /occurs more than once/, 0],
    ['overlapping occurrences count twice', [{ oldText: 'aa', newText: 'b' }], /occurs more than once/, 0],
    [
      'overlapping edits',
      [
        { oldText: 'alpha\nbeta', newText: 'x' },
        { oldText: 'beta\ngamma', newText: 'y' },
      ],
      /edits\[0\] and edits\[1\] overlap/,
      1,
    ],
    [
      'nested edits',
      [
        { oldText: 'beta\ngamma\ndelta', newText: 'x' },
        { oldText: 'gamma', newText: 'y' },
      ],
      /overlap/,
      1,
    ],
    ['empty oldText', [{ oldText: '', newText: 'x' }], /is empty/, 0],
  ])('refuses %s and changes nothing', (_name, edits, reason, editIndex) => {
    const source = _name.startsWith('overlapping occurrences') ? 'aaa' : FILE;
    const outcome = applyEdits(source, edits, 'f.txt');
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.reason).toMatch(reason);
      expect(outcome.editIndex).toBe(editIndex);
    }
  });

  it('refuses an empty list of edits', () => {
    expect(applyEdits(FILE, [], 'f.txt')).toMatchObject({ ok: false, editIndex: null });
  });

  it('says when the replacement changes nothing', () => {
    expect(applyEdits(FILE, [{ oldText: 'beta', newText: 'beta' }], 'f.txt')).toMatchObject({
      ok: true,
      changed: false,
    });
  });

  describe('line endings', () => {
    const CRLF = 'one\r\ntwo\r\nthree\r\n';

    it('matches a "\\n" oldText in a CRLF file and writes the replacement with CRLF', () => {
      const outcome = applyEdits(CRLF, [{ oldText: 'one\ntwo', newText: 'uno\ndos\ntres' }], 'w.txt');
      expect(outcome).toMatchObject({ ok: true, content: 'uno\r\ndos\r\ntres\r\nthree\r\n' });
    });

    it('keeps every byte outside the replaced span', () => {
      const outcome = applyEdits(CRLF, [{ oldText: 'three', newText: 'THREE' }], 'w.txt');
      expect(outcome).toMatchObject({ ok: true, content: 'one\r\ntwo\r\nTHREE\r\n' });
    });

    it('in a mixed file, a span with LF endings keeps LF', () => {
      const mixed = 'a\r\nb\nc\nd\r\n';
      const outcome = applyEdits(mixed, [{ oldText: 'b\nc', newText: 'B\nC' }], 'm.txt');
      expect(outcome).toMatchObject({ ok: true, content: 'a\r\nB\nC\nd\r\n' });
    });

    it('normalises a CRLF oldText for a LF file', () => {
      const outcome = applyEdits(FILE, [{ oldText: 'alpha\r\nbeta', newText: 'x\r\ny' }], 'f.txt');
      expect(outcome).toMatchObject({ ok: true, content: 'x\ny\ngamma\ndelta\n' });
    });

    it('a byte-order mark stays in place', () => {
      const outcome = applyEdits('\uFEFFfirst\nsecond\n', [{ oldText: 'first', newText: '1st' }], 'b.txt');
      expect(outcome).toMatchObject({ ok: true, content: '\uFEFF1st\nsecond\n' });
    });
  });
});

// Output caps (src/main/node/tools/output-caps.ts): lines and bytes, whichever comes first; the
// head for files and listings, the tail for command output; never a partial line except the one
// overlong last line of a command; the note says what was cut.
import { describe, expect, it } from 'vitest';
import { MAX_BYTES, MAX_LINES, capHead, capLine, capTail, tailNote } from '../../../../src/main/node/tools/output-caps';

const lines = (n: number, width = 3) =>
  Array.from({ length: n }, (_, i) => String(i + 1).padStart(width, '0')).join('\n');

describe('capHead', () => {
  it('leaves short text alone', () => {
    expect(capHead('a\nb')).toMatchObject({ text: 'a\nb', truncated: false, totalLines: 2 });
  });

  it('cuts at the line cap', () => {
    const capped = capHead(lines(MAX_LINES + 5));
    expect(capped).toMatchObject({ truncated: true, cutBy: 'lines', keptLines: MAX_LINES, totalLines: MAX_LINES + 5 });
    expect(capped.text.split('\n').at(-1)).toBe(String(MAX_LINES));
  });

  it('cuts at the byte cap on a line boundary', () => {
    const capped = capHead(lines(20_000, 40));
    expect(capped.cutBy).toBe('bytes');
    expect(new TextEncoder().encode(capped.text).length).toBeLessThanOrEqual(MAX_BYTES);
    expect(capped.text.split('\n').every((l) => l.length === 40)).toBe(true);
  });

  it('counts bytes, not characters', () => {
    const wide = '日本語'.repeat(10); // 90 bytes per line
    const capped = capHead(Array(100).fill(wide).join('\n'), { maxBytes: 200 });
    expect(capped.keptLines).toBe(2);
  });

  it('keeps nothing when the first line alone is too long', () => {
    expect(capHead('x'.repeat(MAX_BYTES + 1))).toMatchObject({ text: '', lineTooLong: true, truncated: true });
  });
});

describe('capTail', () => {
  it('keeps the last lines', () => {
    const capped = capTail(lines(MAX_LINES + 10));
    expect(capped.text.split('\n')[0]).toBe('011');
    expect(tailNote(capped)).toBe(`[Output cut: showing lines 11-${MAX_LINES + 10} of ${MAX_LINES + 10}.]`);
  });

  it('keeps the end of one overlong last line, on a character boundary', () => {
    const capped = capTail('start\n' + 'é'.repeat(MAX_BYTES));
    expect(capped.lineTooLong).toBe(true);
    expect(capped.text.startsWith('é')).toBe(true);
    expect(new TextEncoder().encode(capped.text).length).toBeLessThanOrEqual(MAX_BYTES);
    expect(tailNote(capped)).toMatch(/showing the last .* of line 2/);
  });

  it('says nothing when nothing was cut', () => {
    expect(tailNote(capTail('ok'))).toBeNull();
  });
});

describe('capLine', () => {
  it('shortens a long match line and says so', () => {
    expect(capLine('x'.repeat(600))).toEqual({ text: `${'x'.repeat(500)}… [line cut at 500 characters]`, cut: true });
    expect(capLine('short')).toEqual({ text: 'short', cut: false });
  });
});

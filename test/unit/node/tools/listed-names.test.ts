// Names with a newline in ls, find and grep output (issue 40, item 16; listedName in
// src/main/node/tools/output-caps.ts): one line per name, always. A name with a control character
// or a line break, or one starting with a double quote, is listed as a JSON string; others as they
// are. Real files, real ripgrep.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listedName } from '../../../../src/main/node/tools/output-caps';
import { runFind } from '../../../../src/main/node/tools/find-tool';
import { runGrep } from '../../../../src/main/node/tools/grep-tool';
import { runLs } from '../../../../src/main/node/tools/ls-tool';

let ws: string;
beforeAll(() => {
  ws = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-names-')));
  mkdirSync(join(ws, 'dir\nname'));
  writeFileSync(join(ws, 'a\nb.txt'), 'needle\n');
  writeFileSync(join(ws, '"quoted.txt'), 'needle\n');
  writeFileSync(join(ws, 'plain.txt'), 'needle\n');
  writeFileSync(join(ws, 'dir\nname', 'inner.txt'), 'needle\n');
});
afterAll(() => rmSync(ws, { recursive: true, force: true }));

describe('names that would break a listing', () => {
  it('listedName quotes only what needs it, and the quoted form reads back', () => {
    expect(listedName('plain.txt')).toBe('plain.txt');
    expect(listedName('with space — ünïcode.txt')).toBe('with space — ünïcode.txt');
    expect(listedName('a\nb')).toBe('"a\\nb"');
    expect(listedName('tab\there')).toBe('"tab\\there"');
    expect(listedName('line\u2028sep')).toBe('"line\u2028sep"');
    expect(listedName('"starts with a quote')).toBe('"\\"starts with a quote"');
    expect(JSON.parse(listedName('a\nb'))).toBe('a\nb');
  });

  it('ls: one line per entry', () => {
    expect(runLs(ws, {}).text.split('\n')).toEqual(['"\\"quoted.txt"', '"a\\nb.txt"', '"dir\\nname"/', 'plain.txt']);
  });

  it('find: one line per file, a folder with a newline quoted in the path', async () => {
    expect((await runFind(ws, { pattern: '*.txt' })).text.split('\n')).toEqual([
      '"\\"quoted.txt"',
      '"a\\nb.txt"',
      '"dir\\nname/inner.txt"',
      'plain.txt',
    ]);
  });

  it('grep: the file name quoted before its line number', async () => {
    const lines = (await runGrep(ws, { pattern: 'needle' })).text.split('\n').sort();
    expect(lines).toEqual([
      '"\\"quoted.txt":1: needle',
      '"a\\nb.txt":1: needle',
      '"dir\\nname/inner.txt":1: needle',
      'plain.txt:1: needle',
    ]);
  });
});

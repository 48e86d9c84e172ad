// The file and search tools on a real folder (src/main/node/tools/*-tool.ts, search-tools.ts):
// pi's parameters and defaults, the caps and their notes, binary files refused politely, an edit
// that does not apply leaves the file byte-identical, and find/grep through the real ripgrep.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolFailure } from '../../../../src/main/core/tools/tool-failure';
import { previewEdit, runEdit } from '../../../../src/main/node/tools/edit-tool';
import { runFind } from '../../../../src/main/node/tools/find-tool';
import { runGrep } from '../../../../src/main/node/tools/grep-tool';
import { runLs } from '../../../../src/main/node/tools/ls-tool';
import { runRead } from '../../../../src/main/node/tools/read-tool';
import { previewWrite, runWrite } from '../../../../src/main/node/tools/write-tool';

let ws: string;
let outside: string;

beforeAll(() => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-tools-')));
  ws = join(root, 'ws');
  outside = join(root, 'outside');
  mkdirSync(join(ws, 'src', 'nested'), { recursive: true });
  mkdirSync(join(ws, '.git'));
  mkdirSync(outside);
  writeFileSync(join(ws, 'src', 'main.ts'), 'export const answer = 42;\n// TODO: more\n');
  writeFileSync(join(ws, 'src', 'nested', 'util.ts'), 'export function todo() {}\n');
  writeFileSync(join(ws, 'README.md'), '# Title\nTODO list\n');
  writeFileSync(join(ws, '.git', 'config'), 'TODO in git');
  writeFileSync(join(ws, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
  writeFileSync(join(ws, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
  writeFileSync(join(ws, 'long.txt'), Array.from({ length: 3000 }, (_, i) => `line ${i + 1}`).join('\n'));
  writeFileSync(join(ws, 'crlf.txt'), 'one\r\ntwo\r\nthree\r\n');
  writeFileSync(join(outside, 'secret.txt'), 'TODO secret');
  symlinkSync(outside, join(ws, 'escape'));
});

afterAll(() => rmSync(join(ws, '..'), { recursive: true, force: true }));

describe('read', () => {
  it('reads a text file', () => {
    expect(runRead(ws, { path: 'src/main.ts' })).toEqual({
      text: 'export const answer = 42;\n// TODO: more\n',
      details: {},
      isError: false,
    });
  });

  it('cuts at 2000 lines and says how to go on', () => {
    const { text, details } = runRead(ws, { path: 'long.txt' });
    expect(text.split('\n')[1999]).toBe('line 2000');
    expect(text).toMatch(/\[Showing lines 1-2000 of 3000\. Use offset=2001 to continue\.\]$/);
    expect(details.truncated).toBe(true);
  });

  it('takes offset and limit (1-indexed) and says what is left', () => {
    const { text } = runRead(ws, { path: 'long.txt', offset: 10, limit: 2 });
    expect(text).toBe('line 10\nline 11\n\n[2989 more lines in the file. Use offset=12 to continue.]');
    expect(() => runRead(ws, { path: 'long.txt', offset: 5000 })).toThrow(/beyond the end/);
  });

  it.each(['image.png', 'latin1.txt'])('refuses the binary file %s politely', (path) => {
    expect(runRead(ws, { path })).toMatchObject({
      text: expect.stringMatching(/binary file .* text files only/),
      isError: false,
    });
  });

  it('refuses a folder and a missing file as ordinary errors', () => {
    expect(() => runRead(ws, { path: 'src' })).toThrow(/src is a folder; the file tools read regular files only/);
    expect(() => runRead(ws, { path: 'nope.txt' })).toThrow(/File not found/);
  });

  it('refuses a symlink escape as sandbox_security', () => {
    expect(() => runRead(ws, { path: 'escape/secret.txt' })).toThrow(ToolFailure);
  });
});

describe('ls', () => {
  it('lists sorted, with / after folders, dotfiles included', () => {
    expect(runLs(ws, {}).text).toBe(
      ['.git/', 'crlf.txt', 'escape', 'image.png', 'latin1.txt', 'long.txt', 'README.md', 'src/'].join('\n'),
    );
  });

  it('cuts at the limit and says so', () => {
    expect(runLs(ws, { limit: 2 }).text).toBe('.git/\ncrlf.txt\n\n[2 entries limit reached. Use limit=4 for more]');
  });

  it('refuses to list outside', () => {
    expect(() => runLs(ws, { path: 'escape' })).toThrow(ToolFailure);
  });
});

describe('write and edit', () => {
  it('writes a new file, creating folders, with a diff', () => {
    const outcome = runWrite(ws, { path: 'new/dir/file.txt', content: 'hello\n' });
    expect(outcome.text).toBe('Wrote 6 bytes to new/dir/file.txt.');
    expect(outcome.details.diff).toContain('+hello');
    expect(readFileSync(join(ws, 'new', 'dir', 'file.txt'), 'utf8')).toBe('hello\n');
  });

  it('will not write through a link out of the workspace', () => {
    expect(() => runWrite(ws, { path: 'escape/planted.txt', content: 'x' })).toThrow(ToolFailure);
    expect(() => readFileSync(join(outside, 'planted.txt'))).toThrow();
  });

  it('edits a CRLF file and keeps its line endings', () => {
    const outcome = runEdit(ws, { path: 'crlf.txt', edits: [{ oldText: 'two\nthree', newText: '2\n3' }] });
    expect(outcome.text).toBe('Replaced 1 block(s) in crlf.txt.');
    expect(outcome.details.diff).toContain('-two\n-three\n+2\n+3');
    expect(readFileSync(join(ws, 'crlf.txt'), 'utf8')).toBe('one\r\n2\r\n3\r\n');
  });

  it('a patch that does not apply is patch_apply, and the file stays byte-identical', () => {
    const before = readFileSync(join(ws, 'src', 'main.ts'));
    for (const edits of [
      [{ oldText: 'missing', newText: 'x' }],
      [
        { oldText: 'const answer', newText: 'x' },
        { oldText: 'answer = 42', newText: 'y' },
      ],
    ]) {
      try {
        runEdit(ws, { path: 'src/main.ts', edits });
        throw new Error('the edit applied');
      } catch (error) {
        expect(error).toMatchObject({ category: 'patch_apply', message: expect.stringMatching(/was not changed/) });
      }
    }
    expect(readFileSync(join(ws, 'src', 'main.ts')).equals(before)).toBe(true);
  });

  it('previews an edit as a diff, and nothing for one that cannot apply', () => {
    const edit = { path: 'src/main.ts', edits: [{ oldText: '42', newText: '43' }] };
    expect(previewEdit(ws, edit)).toMatchObject({ kind: 'diff', path: 'src/main.ts', isNewFile: false });
    expect(previewEdit(ws, { ...edit, edits: [{ oldText: 'nope', newText: '' }] })).toBeNull();
    expect(previewWrite(ws, { path: 'brand-new.txt', content: 'a\n' })).toMatchObject({
      isNewFile: true,
      diff: expect.stringContaining('+a'),
    });
  });
});

describe('find and grep (ripgrep)', () => {
  it('finds by glob, relative to the search folder, skipping .git, sorted', async () => {
    expect((await runFind(ws, { pattern: '*.ts' })).text).toBe('src/main.ts\nsrc/nested/util.ts');
    expect((await runFind(ws, { pattern: '*.ts', path: 'src/nested' })).text).toBe('util.ts');
    expect((await runFind(ws, { pattern: '*.none' })).text).toBe('No files found matching the pattern.');
  });

  it('cuts find at its limit with a note', async () => {
    const { text } = await runFind(ws, { pattern: '*.txt', limit: 1 });
    expect(text).toMatch(/^crlf\.txt\n\n\[1 results limit reached\. Use limit=2 for more, or refine the pattern\]$/);
  });

  it('greps with file:line, case options and context, never following the escape link', async () => {
    expect((await runGrep(ws, { pattern: 'TODO' })).text).toBe(
      ['README.md:2: TODO list', 'src/main.ts:2: // TODO: more'].join('\n'),
    );
    expect((await runGrep(ws, { pattern: 'todo', ignoreCase: true, glob: '*.ts' })).text).toBe(
      ['src/main.ts:2: // TODO: more', 'src/nested/util.ts:1: export function todo() {}'].join('\n'),
    );
    expect((await runGrep(ws, { pattern: 'answer', context: 1 })).text).toBe(
      ['src/main.ts:1: export const answer = 42;', 'src/main.ts-2- // TODO: more'].join('\n'),
    );
  });

  it('treats a literal pattern literally and reports a bad regex as an error', async () => {
    expect((await runGrep(ws, { pattern: '(', literal: true })).text).toMatch(/function todo\(\)/);
    await expect(runGrep(ws, { pattern: '(' })).rejects.toThrow(/regex|unclosed/i);
  });

  it('stops at the match limit and says so', async () => {
    const { text } = await runGrep(ws, { pattern: 'line', path: 'long.txt', limit: 3 });
    expect(text.split('\n').slice(0, 3)).toEqual(['long.txt:1: line 1', 'long.txt:2: line 2', 'long.txt:3: line 3']);
    expect(text).toMatch(/\[3 matches limit reached\. Use limit=6 for more, or refine the pattern\]$/);
  });

  it('refuses to search outside', async () => {
    await expect(runGrep(ws, { pattern: 'TODO', path: 'escape' })).rejects.toBeInstanceOf(ToolFailure);
    await expect(runFind(ws, { pattern: '*', path: '../outside' })).rejects.toBeInstanceOf(ToolFailure);
  });
});

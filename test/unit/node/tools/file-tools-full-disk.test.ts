// `write` and `edit` on a real full file system (a 64 KiB tmpfs, mounted for the test: needs root,
// as CI and this project's machines run): the original is left whole and the tool says the write
// failed — never a file cut short behind "Replaced 1 block(s)" (src/main/node/tools/confined-io.ts).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEdit } from '../../../../src/main/node/tools/edit-tool';
import { runWrite } from '../../../../src/main/node/tools/write-tool';

const isRoot = process.getuid?.() === 0 && process.platform === 'linux';
let mountPoint: string;
let ws: string;
const original = `${'keep this line\n'.repeat(1400)}the last line\n`; // ~20 KiB

beforeAll(() => {
  if (!isRoot) return;
  mountPoint = mkdtempSync(join(tmpdir(), 'resolute-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mountPoint]);
  ws = join(mountPoint, 'ws');
  mkdirSync(ws);
  writeFileSync(join(ws, 'filler.bin'), Buffer.alloc(12 * 1024, 1));
  writeFileSync(join(ws, 'code.txt'), original);
});

afterAll(() => {
  if (!isRoot) return;
  execFileSync('umount', [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

// Mounting a file system needs root on Linux; elsewhere (a developer's own account) this cannot run.
describe.skipIf(!isRoot)('on a full disk', () => {
  it('edit fails and leaves the file byte-identical, with no temporary file behind', () => {
    const bigger = 'x'.repeat(50 * 1024);
    expect(() => runEdit(ws, { path: 'code.txt', edits: [{ oldText: 'the last line', newText: bigger }] })).toThrow(
      /Could not write code\.txt \(ENOSPC.*The file was not changed/,
    );
    expect(readFileSync(join(ws, 'code.txt'), 'utf8')).toBe(original);
    expect(readdirSync(ws).sort()).toEqual(['code.txt', 'filler.bin']);
    try {
      runWrite(ws, { path: 'code.txt', content: 'z'.repeat(50 * 1024) });
    } catch (error) {
      expect((error as Error).cause).toMatchObject({ code: 'ENOSPC' });
    }
  });

  it('write fails and leaves the file byte-identical', () => {
    expect(() => runWrite(ws, { path: 'code.txt', content: 'y'.repeat(50 * 1024) })).toThrow(/ENOSPC/);
    expect(readFileSync(join(ws, 'code.txt'), 'utf8')).toBe(original);
  });

  it('a change that fits is written whole', () => {
    runEdit(ws, { path: 'code.txt', edits: [{ oldText: 'the last line', newText: 'the new last line' }] });
    expect(readFileSync(join(ws, 'code.txt'), 'utf8')).toBe(original.replace('the last line', 'the new last line'));
  });
});

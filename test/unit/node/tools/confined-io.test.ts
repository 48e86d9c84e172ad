// What a tool opens after workspace-fs.ts resolved it (src/main/node/tools/confined-io.ts), on real
// files and links: a file or a parent folder swapped for a link leading out between the check and
// the use is refused and nothing outside is read or written; the check that stands in for /proc
// (macOS, Windows) compares the opened file with its real path; a replaced file keeps its mode.
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  chmodSync,
  readdirSync,
  existsSync,
} from 'node:fs';
import { execFileSync, spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolFailure } from '../../../../src/main/core/tools/tool-failure';
import { isOpenedInside, listConfined, readConfined, writeConfined } from '../../../../src/main/node/tools/confined-io';
import { resolveInWorkspace } from '../../../../src/main/node/tools/workspace-fs';

let root: string;
let ws: string;
let outside: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-confined-')));
  ws = join(root, 'ws');
  outside = join(root, 'outside');
  mkdirSync(join(ws, 'dir'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(ws, 'dir', 'file.txt'), 'inside');
  writeFileSync(join(outside, 'file.txt'), 'SECRET');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const anyStat = () => {};

function refusal(run: () => unknown): ToolFailure {
  try {
    run();
  } catch (error) {
    if (error instanceof ToolFailure) return error;
    throw new Error(`expected a ToolFailure, got ${String(error)}`);
  }
  throw new Error('not refused');
}

/** Swap `ws/<name>` for a link to `target` after it was resolved. */
function swapForLink(name: string, target: string): void {
  renameSync(join(ws, name), join(root, `${name}-moved`));
  symlinkSync(target, join(ws, name));
}

describe('a swap between the check and the use', () => {
  it('the file itself swapped for a link out: read refuses (O_NOFOLLOW), naming the swap', () => {
    const file = resolveInWorkspace(ws, 'dir/file.txt', false);
    renameSync(join(ws, 'dir', 'file.txt'), join(root, 'moved.txt'));
    symlinkSync(join(outside, 'file.txt'), join(ws, 'dir', 'file.txt'));
    const failure = refusal(() => readConfined(ws, file, 'dir/file.txt', anyStat));
    expect(failure.category).toBe('sandbox_security');
    expect(failure.message).toBe(
      'Refused: dir/file.txt changed into a link leading outside the workspace while it was opened. Tools work only inside the workspace.',
    );
  });

  it('a parent folder swapped for a link out: read and list refuse, write creates nothing outside', () => {
    const file = resolveInWorkspace(ws, 'dir/file.txt', true);
    const dir = resolveInWorkspace(ws, 'dir', false);
    swapForLink('dir', outside);
    expect(refusal(() => readConfined(ws, file, 'dir/file.txt', anyStat)).category).toBe('sandbox_security');
    expect(refusal(() => listConfined(ws, dir, 'dir')).category).toBe('sandbox_security');
    expect(refusal(() => writeConfined(ws, file, 'dir/file.txt', 'OWNED')).category).toBe('sandbox_security');
    expect(readFileSync(join(outside, 'file.txt'), 'utf8')).toBe('SECRET');
    expect(readdirSync(outside)).toEqual(['file.txt']);
  });

  it("a folder swapped for a link to git's hooks inside the workspace: write refuses, no hook is planted", () => {
    // Hooks run outside the sandbox at the person's next commit; write refuses them by name, so a
    // process racing the tool (a sandboxed MCP server, another chat's bash) would swap a folder.
    mkdirSync(join(ws, '.git', 'hooks'), { recursive: true });
    mkdirSync(join(ws, 'a', 'hooks'), { recursive: true });
    const last = resolveInWorkspace(ws, 'dir/pre-commit', true);
    const deeper = resolveInWorkspace(ws, 'a/hooks/pre-commit', true);
    swapForLink('dir', join(ws, '.git', 'hooks'));
    swapForLink('a', join(ws, '.git'));
    expect(refusal(() => writeConfined(ws, last, 'dir/pre-commit', '#!/bin/sh\n')).category).toBe('sandbox_security');
    expect(refusal(() => writeConfined(ws, deeper, 'a/hooks/pre-commit', '#!/bin/sh\n')).category).toBe(
      'sandbox_security',
    );
    expect(readdirSync(join(ws, '.git', 'hooks'))).toEqual([]);
  });

  it('a file or folder swapped for a link to another one inside is refused too, not followed', () => {
    writeFileSync(join(ws, 'other.txt'), 'other');
    const file = resolveInWorkspace(ws, 'dir/file.txt', false);
    const dir = resolveInWorkspace(ws, 'dir', false);
    renameSync(join(ws, 'dir', 'file.txt'), join(root, 'moved.txt'));
    symlinkSync(join(ws, 'other.txt'), join(ws, 'dir', 'file.txt'));
    expect(refusal(() => readConfined(ws, file, 'dir/file.txt', anyStat)).category).toBe('sandbox_security');
    mkdirSync(join(ws, 'elsewhere'));
    swapForLink('dir', join(ws, 'elsewhere'));
    expect(refusal(() => listConfined(ws, dir, 'dir')).category).toBe('sandbox_security');
  });

  it('with nothing swapped, each works on the file inside', () => {
    const file = resolveInWorkspace(ws, 'dir/file.txt', true);
    expect(readConfined(ws, file, 'dir/file.txt', anyStat).toString()).toBe('inside');
    expect(listConfined(ws, resolveInWorkspace(ws, 'dir', false), 'dir').map((e) => e.name)).toEqual(['file.txt']);
    writeConfined(ws, file, 'dir/file.txt', 'changed');
    expect(readFileSync(join(ws, 'dir', 'file.txt'), 'utf8')).toBe('changed');
  });

  it('a file removed since the check is an ordinary error, not a swap', () => {
    const file = resolveInWorkspace(ws, 'dir/file.txt', false);
    rmSync(join(ws, 'dir', 'file.txt'));
    expect(() => readConfined(ws, file, 'dir/file.txt', anyStat)).toThrow(/ENOENT/);
    try {
      readConfined(ws, file, 'dir/file.txt', anyStat);
    } catch (error) {
      expect(error).not.toBeInstanceOf(ToolFailure);
    }
  });

  it('the check before reading may refuse the file, and then nothing is read', () => {
    const file = resolveInWorkspace(ws, 'dir/file.txt', false);
    expect(() =>
      readConfined(ws, file, 'dir/file.txt', () => {
        throw new Error('too large');
      }),
    ).toThrow('too large');
  });
});

describe('each layer on its own', () => {
  it('the target of a link swapped in is never opened: a writer waiting on a FIFO outside keeps waiting', async () => {
    // Opening a FIFO for reading releases a writer blocked in open(): the one trace an open leaves
    // even when the check after it refuses. Only the no-follow open keeps the link's target shut.
    const fifo = join(outside, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('/bin/sh', ['-c', 'exec 3>"$0"', fifo], { stdio: 'ignore' });
    const waiting = () => {
      try {
        return readFileSync(`/proc/${writer.pid}/wchan`, 'utf8') === 'wait_for_partner';
      } catch {
        return false;
      }
    };
    try {
      for (let i = 0; i < 500 && !waiting(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(waiting()).toBe(true);
      const file = resolveInWorkspace(ws, 'dir/file.txt', false);
      renameSync(join(ws, 'dir', 'file.txt'), join(root, 'moved.txt'));
      symlinkSync(fifo, join(ws, 'dir', 'file.txt'));
      expect(refusal(() => readConfined(ws, file, 'dir/file.txt', anyStat)).category).toBe('sandbox_security');
      expect(waiting()).toBe(true);
    } finally {
      writer.kill('SIGKILL');
    }
  });

  it('no descriptor is left open by reads, listings, writes and refusals, however many', () => {
    const open = () => readdirSync('/proc/self/fd').length;
    const file = resolveInWorkspace(ws, 'dir/file.txt', true);
    const dir = resolveInWorkspace(ws, 'dir', false);
    writeFileSync(join(ws, 'link-later.txt'), 'x');
    const swappedLater = resolveInWorkspace(ws, 'link-later.txt', false);
    rmSync(join(ws, 'link-later.txt'));
    symlinkSync(join(outside, 'file.txt'), join(ws, 'link-later.txt'));
    // A parent swapped: opened, then refused by the check after opening.
    mkdirSync(join(ws, 'sub'));
    writeFileSync(join(ws, 'sub', 'file.txt'), 'x');
    const parentSwapped = resolveInWorkspace(ws, 'sub/file.txt', false);
    swapForLink('sub', outside);
    const before = open();
    for (let i = 0; i < 50; i += 1) {
      readConfined(ws, file, 'dir/file.txt', anyStat);
      listConfined(ws, dir, 'dir');
      writeConfined(ws, file, 'dir/file.txt', `text ${i}`);
      refusal(() => readConfined(ws, swappedLater, 'link-later.txt', anyStat));
      refusal(() => readConfined(ws, parentSwapped, 'sub/file.txt', anyStat));
      expect(() =>
        readConfined(ws, file, 'dir/file.txt', () => {
          throw new Error('too large');
        }),
      ).toThrow('too large');
    }
    // A leak is one per call, 50 or more; a stray descriptor of the test runner's own is not.
    expect(open()).toBeLessThan(before + 5);
  });
});

describe('the check where /proc does not say', () => {
  it('accepts the very file inside and refuses another one, or one whose real path is outside', () => {
    const file = resolveInWorkspace(ws, 'dir/file.txt', false);
    const fd = openSync(file.absolute, 'r');
    try {
      expect(isOpenedInside(ws, fd, file, null)).toBe(true);
      // The name now leads to another file (same folder): not the one opened.
      renameSync(file.absolute, join(ws, 'dir', 'old.txt'));
      writeFileSync(file.absolute, 'another');
      expect(isOpenedInside(ws, fd, file, null)).toBe(false);
      // The name leads outside: refused even though the workspace path was checked.
      rmSync(file.absolute);
      symlinkSync(join(outside, 'file.txt'), file.absolute);
      expect(isOpenedInside(ws, fd, file, null)).toBe(false);
    } finally {
      closeSync(fd);
    }
    const out = openSync(join(outside, 'file.txt'), 'r');
    try {
      expect(isOpenedInside(ws, out, { ...file, absolute: join(outside, 'file.txt') }, null)).toBe(false);
      expect(isOpenedInside(ws, out, file, join(outside, 'file.txt'))).toBe(false);
      expect(isOpenedInside(ws, out, file, join(ws, 'dir', 'file.txt'))).toBe(true);
      // A checked path outside is never accepted, even when the descriptor is that very file.
      const outsideFile = { ...file, absolute: join(outside, 'file.txt') };
      expect(isOpenedInside(ws, out, outsideFile, join(outside, 'file.txt'))).toBe(false);
    } finally {
      closeSync(out);
    }
  });

  it('refuses a folder reached through a parent swapped for a link, even to a folder inside', () => {
    mkdirSync(join(ws, '.git', 'hooks'), { recursive: true });
    mkdirSync(join(ws, 'a', 'hooks'), { recursive: true });
    const folder = resolveInWorkspace(ws, 'a/hooks', false);
    swapForLink('a', join(ws, '.git'));
    const fd = openSync(folder.absolute, 'r');
    try {
      expect(isOpenedInside(ws, fd, folder, null)).toBe(false);
      expect(isOpenedInside(ws, fd, folder, join(ws, '.git', 'hooks'))).toBe(false);
    } finally {
      closeSync(fd);
    }
  });
});

describe('a replaced file', () => {
  it('keeps its mode, leaves no temporary file, and a new file is 0644 less the umask', () => {
    // 0666 is more than a new file gets under the usual umask: only keeping the mode gives it back.
    chmodSync(join(ws, 'dir', 'file.txt'), 0o666);
    writeConfined(ws, resolveInWorkspace(ws, 'dir/file.txt', true), 'dir/file.txt', 'new text');
    expect(statSync(join(ws, 'dir', 'file.txt')).mode & 0o777).toBe(0o666);
    expect(readdirSync(join(ws, 'dir'))).toEqual(['file.txt']);
    writeConfined(ws, resolveInWorkspace(ws, 'dir/sub/new.txt', true), 'dir/sub/new.txt', 'hi');
    const mode = statSync(join(ws, 'dir', 'sub', 'new.txt')).mode & 0o777;
    expect(mode).toBe(0o644 & ~process.umask());
    expect(existsSync(join(ws, 'dir', 'sub', 'new.txt'))).toBe(true);
  });
});

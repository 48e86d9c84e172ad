// The link attacks of a hostile repository or model on the file tools (src/main/node/tools/
// workspace-fs.ts, confined-io.ts), on real links on disk: a chain longer than realpath follows
// (ELOOP), a dangling link whose target runs through a link outside, a link into a sibling folder
// that shares the workspace's name as a prefix, and the git files that run code later outside.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolFailure } from '../../../../src/main/core/tools/tool-failure';
import { resolveInWorkspace } from '../../../../src/main/node/tools/workspace-fs';
import { runEdit } from '../../../../src/main/node/tools/edit-tool';
import { runLs } from '../../../../src/main/node/tools/ls-tool';
import { runRead } from '../../../../src/main/node/tools/read-tool';
import { runWrite } from '../../../../src/main/node/tools/write-tool';

let root: string;
let ws: string;
let home: string;

/** h1 → home, h2 → h1, …, h<n> → h<n-1>, then `name` → h<n>: n + 1 hops, past the kernel's 40. */
function longChain(name: string, hops: number): void {
  symlinkSync(home, join(ws, `${name}-h1`));
  for (let i = 2; i <= hops; i++) symlinkSync(`${name}-h${i - 1}`, join(ws, `${name}-h${i}`));
  symlinkSync(`${name}-h${hops}`, join(ws, name));
}

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-links-')));
  ws = join(root, 'ws');
  home = join(root, 'home');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  mkdirSync(join(home, '.config', 'autostart'), { recursive: true });
  mkdirSync(join(root, 'ws-private'), { recursive: true });
  mkdirSync(join(ws, '.git', 'hooks'), { recursive: true });
  mkdirSync(join(ws, 'sub', '.git'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY');
  writeFileSync(join(root, 'ws-private', 'secret.txt'), 'sibling secret');
  writeFileSync(join(ws, '.git', 'config'), '[core]\n');
  writeFileSync(join(ws, 'notes.txt'), 'hello\n');
  longChain('b', 40);
  longChain('c', 12); // short enough for realpath: must still be refused as leading out
  symlinkSync(home, join(ws, 'evil'));
  symlinkSync('evil/.config/autostart', join(ws, 'a')); // dangling through a link outside
  symlinkSync('evil/.config/nowhere/deeper', join(ws, 'a2'));
  symlinkSync(join(root, 'ws-private'), join(ws, 'sibling'));
  symlinkSync('../ws-private/secret.txt', join(ws, 'sibling-file'));
  symlinkSync('notes.txt', join(ws, 'notes-link')); // inside: allowed
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

function refused(run: () => unknown): ToolFailure {
  try {
    run();
  } catch (error) {
    if (error instanceof ToolFailure) return error;
    throw new Error(`expected a ToolFailure, got: ${String(error)}`);
  }
  throw new Error('the call was not refused');
}

describe('a link chain longer than realpath follows', () => {
  it.each([
    ['read', () => runRead(ws, { path: 'b/.ssh/id_ed25519' })],
    ['ls', () => runLs(ws, { path: 'b/.ssh' })],
    ['write', () => runWrite(ws, { path: 'b/.ssh/planted', content: 'x' })],
    ['edit', () => runEdit(ws, { path: 'b/.ssh/id_ed25519', edits: [{ oldText: 'KEY', newText: 'OWNED' }] })],
  ])('%s is refused as sandbox_security', (_tool, run) => {
    expect(refused(run).category).toBe('sandbox_security');
    expect(readFileSync(join(home, '.ssh', 'id_ed25519'), 'utf8')).toBe('PRIVATE KEY');
    expect(existsSync(join(home, '.ssh', 'planted'))).toBe(false);
  });

  it('a shorter chain out is refused too, naming the first link', () => {
    const failure = refused(() => resolveInWorkspace(ws, 'c/.ssh/id_ed25519', false));
    expect(failure.category).toBe('sandbox_security');
    expect(failure.message).toMatch(/symbolic link c\b/);
  });
});

describe('a dangling link whose target runs through a link outside', () => {
  it('write is refused and creates nothing outside', () => {
    expect(refused(() => runWrite(ws, { path: 'a/pwn.desktop', content: '[Desktop Entry]' })).category).toBe(
      'sandbox_security',
    );
    expect(refused(() => runWrite(ws, { path: 'a2/pwn.desktop', content: 'x' })).category).toBe('sandbox_security');
    expect(existsSync(join(home, '.config', 'autostart', 'pwn.desktop'))).toBe(false);
    expect(existsSync(join(home, '.config', 'nowhere'))).toBe(false);
  });
});

describe('a sibling folder whose name starts with the workspace name', () => {
  it.each([
    ['sibling/secret.txt', false],
    ['sibling/new.txt', true],
    ['sibling-file', false],
    ['sibling-file', true],
  ])('%s (write: %s) is refused', (path, forWrite) => {
    expect(refused(() => resolveInWorkspace(ws, path, forWrite)).category).toBe('sandbox_security');
  });
});

describe('git files that would run code outside the sandbox later', () => {
  it.each([
    '.git/config',
    '.git/hooks/pre-commit',
    'sub/.git/config',
    'sub/.git',
    '.GIT/Config',
    '.git/config.worktree',
  ])('write to %s is refused', (path) => {
    expect(refused(() => runWrite(ws, { path, content: '[core]\n\tfsmonitor = sh -c id\n' })).category).toBe(
      'sandbox_security',
    );
  });

  it('edit of .git/config is refused and the file is unchanged', () => {
    const run = () =>
      runEdit(ws, { path: '.git/config', edits: [{ oldText: '[core]', newText: '[core]\n\tfsmonitor = x' }] });
    expect(refused(run).category).toBe('sandbox_security');
    expect(readFileSync(join(ws, '.git', 'config'), 'utf8')).toBe('[core]\n');
  });

  it('reading git files and writing elsewhere under .git still work', () => {
    expect(runRead(ws, { path: '.git/config' }).text).toBe('[core]\n');
    expect(runWrite(ws, { path: '.git/info/exclude', content: 'build/\n' }).isError).toBe(false);
  });
});

describe('what stays allowed', () => {
  it('a link inside the workspace is followed to its real path, which the result names', () => {
    const path = resolveInWorkspace(ws, 'notes-link', true);
    expect(path.absolute).toBe(join(ws, 'notes.txt'));
    expect(path.real).toBe('notes.txt');
    expect(runRead(ws, { path: 'notes-link' }).text).toBe('hello\n');
  });
});

describe("the walk's edges", () => {
  let edge: string;
  let outside: string;
  beforeAll(() => {
    edge = join(root, 'edge');
    outside = join(root, 'edge-outside');
    mkdirSync(join(edge, 'realdir', 'deep'), { recursive: true });
    mkdirSync(join(edge, 'nested'), { recursive: true });
    mkdirSync(join(edge, 'hooks', 'vendor', '.git', 'info'), { recursive: true });
    mkdirSync(join(edge, '.git'), { recursive: true });
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(edge, 'notes.txt'), 'notes');
    writeFileSync(join(edge, 'a\\b'), 'a backslash is a name character on POSIX');
    writeFileSync(join(edge, '.git', 'config'), '[core]\n');
    writeFileSync(join(outside, 'file.txt'), 'outside');
    symlinkSync('loop-2', join(edge, 'loop-1'));
    symlinkSync('loop-1', join(edge, 'loop-2'));
    // 40 links that stay inside: as many as the kernel follows, so allowed; 41 are not.
    symlinkSync('notes.txt', join(edge, 'in-1'));
    for (let i = 2; i <= 41; i++) symlinkSync(`in-${i - 1}`, join(edge, `in-${i}`));
    symlinkSync(join(outside, 'file.txt'), join(edge, 'out-file'));
    symlinkSync('missing/../notes.txt', join(edge, 'through-missing'));
    symlinkSync('realdir', join(edge, 'dir-link'));
    symlinkSync('dir-link/absent', join(edge, 'dangles-via-dir'));
    symlinkSync('a\\b', join(edge, 'backslash-link'));
    symlinkSync('notes.txt/', join(edge, 'file-slash'));
    symlinkSync('.git/config', join(edge, 'git-config-link'));
    symlinkSync('../../edge-outside', join(edge, 'nested', 'out'));
  });

  it('a loop of links is refused, after the kernel’s 40 hops, naming the limit', () => {
    const failure = refused(() => resolveInWorkspace(edge, 'loop-1', false));
    expect(failure.category).toBe('sandbox_security');
    expect(failure.message).toBe(
      'Refused: loop-1 goes through more than 40 symbolic links. Tools work only inside the workspace.',
    );
    expect(resolveInWorkspace(edge, 'in-40', false).real).toBe('notes.txt');
    expect(refused(() => resolveInWorkspace(edge, 'in-41', false)).message).toMatch(/more than 40 symbolic links/);
  });

  it('past a link outside, every failure is the same refusal: nothing is told of what is there', () => {
    const failure = refused(() => resolveInWorkspace(edge, 'out-file/x', false));
    expect(failure.category).toBe('sandbox_security');
    expect(failure.message).toContain(`out-file/x goes through the symbolic link out-file to ${outside}`);
  });

  it('names a nested link as the path typed it', () => {
    expect(refused(() => resolveInWorkspace(edge, 'nested/out/file.txt', false)).message).toContain(
      'goes through the symbolic link nested/out to',
    );
  });

  it('a ".." after a missing folder is not taken (the kernel would fail there)', () => {
    expect(() => resolveInWorkspace(edge, 'through-missing', false)).toThrow(
      'through-missing: missing does not exist.',
    );
  });

  it('a last link that dangles through a folder link is refused for a write', () => {
    expect(() => resolveInWorkspace(edge, 'dangles-via-dir', true)).toThrow(/which does not exist/);
    expect(resolveInWorkspace(edge, 'dir-link/new.txt', true).absolute).toBe(join(edge, 'realdir', 'new.txt'));
  });

  it('a link target is split as the OS reads it, and a trailing slash after a file is not a folder', () => {
    expect(resolveInWorkspace(edge, 'backslash-link', false).real).toBe('a\\b');
    expect(() => resolveInWorkspace(edge, 'file-slash', false)).toThrow('file-slash: notes.txt is not a folder.');
  });

  it('names where a path really is, "." for the workspace itself', () => {
    expect(resolveInWorkspace(edge, '.', false).real).toBe('.');
    expect(resolveInWorkspace(edge, 'dir-link/deep', false).real).toBe('realdir/deep');
  });

  it('git’s config reached through a link is refused for a write, with the reason', () => {
    const failure = refused(() => resolveInWorkspace(edge, 'git-config-link', true));
    expect(failure.message).toBe(
      "Refused: git-config-link is git's configuration or hooks, which git runs later outside the sandbox. Tools work only inside the workspace.",
    );
  });

  it('names like config and hooks are ordinary outside a git folder', () => {
    for (const path of ['config', 'hooks/pre-commit', 'hooks/vendor/.git/info/exclude'])
      expect(resolveInWorkspace(edge, path, true).stat).toBeNull();
  });
});

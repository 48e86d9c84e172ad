// What the git guard (src/main/node/tools/git-guard.ts) must do, on real folders on disk: which
// git files are created and bound read-only before a call, which git folders are pinned, how
// `.git` files and links are followed (and never to a sibling folder that shares the workspace's
// name), and what the check after a call refuses. The bubblewrap side is in
// test/integration/sandbox-holes.test.ts and git-guard-links.test.ts.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkNewRepositories, findRepositories, guardGit } from '../../../../src/main/node/tools/git-guard';
import { runEdit } from '../../../../src/main/node/tools/edit-tool';
import { runWrite } from '../../../../src/main/node/tools/write-tool';

let root: string;
let ws: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-gitguard-')));
  ws = join(root, 'ws');
  mkdirSync(ws);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A git folder as `git init` leaves one (enough of it for the guard): HEAD, objects, refs, config. */
function gitDir(path: string, config = '[core]\n\tbare = false\n'): string {
  mkdirSync(join(path, 'objects'), { recursive: true });
  mkdirSync(join(path, 'refs'), { recursive: true });
  writeFileSync(join(path, 'HEAD'), 'ref: refs/heads/main\n');
  if (config !== '') writeFileSync(join(path, 'config'), config);
  return path;
}

const BAD = '[core]\n\tfsmonitor = touch /tmp/pwn\n';
const at = (...parts: string[]) => join(ws, ...parts);

describe('before a call: a .git folder', () => {
  it('binds config, hooks and commondir read-only, creating the missing ones first', () => {
    gitDir(at('.git'), '');
    const guard = guardGit(ws);
    expect(readFileSync(at('.git', 'config'), 'utf8')).toBe('');
    expect(existsSync(at('.git', 'hooks'))).toBe(true);
    // "." is the git folder itself, as no commondir is; an empty one would stop git.
    expect(readFileSync(at('.git', 'commondir'), 'utf8')).toBe('.\n');
    expect(guard.readOnly).toEqual([at('.git', 'config'), at('.git', 'hooks'), at('.git', 'commondir')]);
    expect(guard.pinned).toEqual([at('.git')]);
  });

  it('keeps an existing config and commondir as they are', () => {
    gitDir(at('.git'), '[user]\n\tname = Me\n');
    writeFileSync(at('.git', 'commondir'), '.\n');
    guardGit(ws);
    expect(readFileSync(at('.git', 'config'), 'utf8')).toBe('[user]\n\tname = Me\n');
  });

  it('creates and binds config.worktree when worktree config is on, and not otherwise', () => {
    gitDir(at('.git'), '[extensions]\n\tworktreeConfig = true\n');
    expect(guardGit(ws).readOnly).toContain(at('.git', 'config.worktree'));
    expect(readFileSync(at('.git', 'config.worktree'), 'utf8')).toBe('');
    rmSync(at('.git', 'config.worktree'));
    writeFileSync(at('.git', 'config'), '[extensions]\n\tworktreeConfig = false\n');
    expect(guardGit(ws).readOnly).not.toContain(at('.git', 'config.worktree'));
    expect(existsSync(at('.git', 'config.worktree'))).toBe(false);
  });

  it('binds worktrees and modules read-only when there', () => {
    gitDir(at('.git'));
    mkdirSync(at('.git', 'worktrees'));
    mkdirSync(at('.git', 'modules'));
    const guard = guardGit(ws);
    expect(guard.readOnly).toContain(at('.git', 'worktrees'));
    expect(guard.readOnly).toContain(at('.git', 'modules'));
  });

  it('pins nested git folders, outer ones first, and never the workspace itself', () => {
    gitDir(at('a', 'b', 'c', '.git'));
    gitDir(at('d', '.git'));
    expect(guardGit(ws).pinned).toEqual([at('d', '.git'), at('a', 'b', 'c', '.git')]);
    // A bare repository as the workspace: the workspace is bound already.
    const bare = gitDir(join(root, 'bare'));
    symlinkSync(bare, at('.git'));
    expect(guardGit(bare).pinned).not.toContain(bare);
  });

  it('does not look inside git folders', () => {
    gitDir(at('.git'));
    gitDir(at('.git', 'inner', '.git'));
    expect(findRepositories(ws).map((repo) => repo.dotGit)).toEqual([at('.git')]);
  });
});

describe('before a call: .git files (linked worktrees, submodules)', () => {
  it('binds the .git file read-only and protects the folders it names, the common one too', () => {
    gitDir(at('.git'));
    mkdirSync(at('.git', 'worktrees', 'wt'), { recursive: true });
    writeFileSync(at('.git', 'worktrees', 'wt', 'commondir'), '../..\n');
    mkdirSync(at('wt'));
    writeFileSync(at('wt', '.git'), `gitdir: ${at('.git', 'worktrees', 'wt')}\n`);
    const guard = guardGit(ws);
    expect(guard.readOnly).toContain(at('wt', '.git'));
    expect(guard.readOnly).toContain(at('.git', 'worktrees', 'wt', 'commondir'));
    expect(guard.readOnly).toContain(at('.git', 'worktrees', 'wt', 'config'));
    expect(guard.pinned).toEqual([at('.git'), at('.git', 'worktrees', 'wt')]);
    // The main folder is protected once, though two entries name it.
    expect(guard.readOnly.filter((path) => path === at('.git', 'config'))).toHaveLength(1);
  });

  it('follows a submodule’s relative gitdir', () => {
    gitDir(at('.git'));
    gitDir(at('.git', 'modules', 'lib'));
    mkdirSync(at('lib'));
    writeFileSync(at('lib', '.git'), 'gitdir: ../.git/modules/lib\n');
    const [top, lib] = findRepositories(ws).sort((a, b) => a.dotGit.length - b.dotGit.length);
    expect(top).toMatchObject({ isFile: false, isLink: false, gitDirs: [at('.git')] });
    expect(lib).toMatchObject({ isFile: true, isLink: false, gitDirs: [at('.git', 'modules', 'lib')], outside: [] });
  });

  it('never binds a sibling folder that shares the workspace’s name (<ws>-other) read-write', () => {
    const sibling = gitDir(`${ws}-other`);
    writeFileSync(at('.git'), `gitdir: ${sibling}\n`);
    const guard = guardGit(ws);
    expect(guard.pinned).toEqual([]);
    expect(guard.readOnly).toEqual([at('.git')]);
    expect(findRepositories(ws)[0]).toMatchObject({ gitDirs: [], outside: [sibling] });
    expect(existsSync(join(sibling, 'commondir'))).toBe(false);
  });

  it('a .git file with no gitdir line, or naming nothing, stands for no folder', () => {
    writeFileSync(at('.git'), 'not a pointer\n');
    expect(findRepositories(ws)[0]).toMatchObject({ isFile: true, gitDirs: [], outside: [null] });
    writeFileSync(at('.git'), 'gitdir: missing\n');
    expect(findRepositories(ws)[0]).toMatchObject({ gitDirs: [], outside: [null] });
  });
});

describe('before a call: links', () => {
  it('a .git link is followed to its real folder, which is protected', () => {
    const real = gitDir(at('real'));
    symlinkSync('real', at('.git'));
    expect(findRepositories(ws)[0]).toMatchObject({ dotGit: at('.git'), isLink: true, isFile: false, gitDirs: [real] });
    const guard = guardGit(ws);
    expect(guard.pinned).toEqual([real]);
    expect(guard.readOnly).toEqual([join(real, 'config'), join(real, 'hooks'), join(real, 'commondir')]);
  });

  it('a .git link to a .git file, and a gitdir through a link, end at the real folder', () => {
    const real = gitDir(at('g3real'));
    symlinkSync('g3real', at('g3'));
    mkdirSync(at('sub'));
    writeFileSync(at('sub', 'pointer'), 'gitdir: ../g3\n');
    symlinkSync('pointer', at('sub', '.git'));
    expect(findRepositories(ws)[0]).toMatchObject({ isLink: true, isFile: true, gitDirs: [real] });
    // A link cannot be bound: what it names is.
    expect(guardGit(ws).readOnly).not.toContain(at('sub', '.git'));
  });

  it('a commondir through a link ends at the real common folder', () => {
    gitDir(at('.git'));
    const common = gitDir(at('common'));
    symlinkSync('common', at('lnk'));
    writeFileSync(at('.git', 'commondir'), '../lnk\n');
    expect(findRepositories(ws)[0].gitDirs).toEqual([at('.git'), common]);
  });

  it('a dangling .git link stands for nothing that exists', () => {
    symlinkSync('nowhere', at('.git'));
    expect(findRepositories(ws)).toEqual([
      { dotGit: at('.git'), isFile: false, isLink: true, gitDirs: [], outside: [null] },
    ]);
  });

  it('other links are not followed', () => {
    const elsewhere = join(root, 'elsewhere');
    gitDir(join(elsewhere, '.git'));
    symlinkSync(elsewhere, at('linked'));
    expect(findRepositories(ws)).toEqual([]);
  });
});

describe('after a call', () => {
  const refusal = (fn: () => void): string => {
    try {
      fn();
    } catch (error) {
      expect(error).toMatchObject({ category: 'sandbox_security' });
      return (error as Error).message;
    }
    return '';
  };

  it('leaves known repositories and harmless new ones alone', () => {
    gitDir(at('.git'), BAD);
    const guard = guardGit(ws);
    gitDir(at('new', '.git'), '[user]\n\tname = Me\n');
    expect(refusal(() => checkNewRepositories(ws, guard))).toBe('');
    expect(readFileSync(at('.git', 'config'), 'utf8')).toBe(BAD);
  });

  it('disarms a new repository whose config or hooks would run commands', () => {
    const guard = guardGit(ws);
    gitDir(at('sub', '.git'), BAD);
    mkdirSync(at('sub', '.git', 'hooks'));
    writeFileSync(at('sub', '.git', 'hooks', 'pre-commit'), '#!/bin/sh\n');
    writeFileSync(at('sub', '.git', 'hooks', 'pre-commit.sample'), '#!/bin/sh\n');
    const message = refusal(() => checkNewRepositories(ws, guard));
    expect(message).toContain('sub/.git (core.fsmonitor, hooks/pre-commit)');
    expect(message).toMatch(/^Refused: the command left a git repository/);
    expect(existsSync(at('sub', '.git', 'config'))).toBe(false);
    expect(existsSync(at('sub', '.git', 'hooks'))).toBe(false);
    expect(readdirSync(at('sub', '.git')).filter((name) => name.includes('.refused-by-resolute-'))).toHaveLength(2);
    // Judged once: the next check does not refuse it again.
    expect(refusal(() => checkNewRepositories(ws, guard))).toBe('');
  });

  it('a git folder replaced by another (same path, new inode) is new', () => {
    gitDir(at('.git'));
    const guard = guardGit(ws);
    // Moved aside, not removed: a removed folder's inode may be given to the new one.
    renameSync(at('.git'), at('.git-old'));
    gitDir(at('.git'), BAD);
    expect(refusal(() => checkNewRepositories(ws, guard))).toContain(': .git (core.fsmonitor)');
  });

  it('a config that is a link is refused in a new repository, and a swapped link in a known one', () => {
    writeFileSync(at('cfg'), '[user]\n\tname = Me\n');
    gitDir(at('.git'), '');
    rmSync(at('.git', 'config'), { force: true });
    symlinkSync('../cfg', at('.git', 'config'));
    const guard = guardGit(ws);
    expect(refusal(() => checkNewRepositories(ws, guard))).toBe('');
    writeFileSync(at('evil'), BAD);
    rmSync(at('.git', 'config'));
    symlinkSync('../evil', at('.git', 'config'));
    expect(refusal(() => checkNewRepositories(ws, guard))).toContain(
      ': .git (config is a symbolic link, core.fsmonitor)',
    );
    expect(existsSync(at('.git', 'config'))).toBe(false);
  });

  it('a new .git link or file naming a folder outside the workspace, or nothing, is moved aside', () => {
    const guard = guardGit(ws);
    const outside = gitDir(join(root, 'outside'));
    symlinkSync(outside, at('.git'));
    mkdirSync(at('sub'));
    writeFileSync(at('sub', '.git'), 'gitdir: /nowhere\n');
    const message = refusal(() => checkNewRepositories(ws, guard));
    expect(message).toContain(`.git (a link naming ${outside})`);
    expect(message).toContain('sub/.git (a file naming nothing that exists)');
    expect(existsSync(at('.git'))).toBe(false);
    expect(existsSync(at('sub', '.git'))).toBe(false);
    expect(existsSync(join(outside, 'config'))).toBe(true);
  });

  it('a .git file naming a folder outside that was there before is left alone', () => {
    const outside = gitDir(join(root, 'outside'));
    writeFileSync(at('.git'), `gitdir: ${outside}\n`);
    const guard = guardGit(ws);
    expect(refusal(() => checkNewRepositories(ws, guard))).toBe('');
    expect(existsSync(at('.git'))).toBe(true);
  });

  it('a new .git link to a new git folder inside is judged by that folder', () => {
    const guard = guardGit(ws);
    gitDir(at('evil'), BAD);
    symlinkSync('evil', at('.git'));
    expect(refusal(() => checkNewRepositories(ws, guard))).toContain('evil (core.fsmonitor)');
    expect(existsSync(at('evil', 'config'))).toBe(false);
  });
});

describe('the file tools never write what git runs', () => {
  it('write and edit of .git/commondir are refused, and the file is unchanged', () => {
    gitDir(at('.git'));
    writeFileSync(at('.git', 'commondir'), '.\n');
    const write = () => runWrite(ws, { path: '.git/commondir', content: '../fake\n' });
    expect(write).toThrow(/git's configuration or hooks/);
    const edit = () => runEdit(ws, { path: '.git/commondir', edits: [{ oldText: '.', newText: '../fake' }] });
    expect(edit).toThrow(/git's configuration or hooks/);
    expect(() => runWrite(ws, { path: '.git/worktrees/wt/commondir', content: '../x\n' })).toThrow(
      /git's configuration or hooks/,
    );
    expect(readFileSync(at('.git', 'commondir'), 'utf8')).toBe('.\n');
  });
});

describe('what the mutation run left (issue 49, item 1)', () => {
  it('a new .git folder whose commondir names a folder outside is moved aside; a known one is not', () => {
    const outside = gitDir(join(root, 'outside'));
    gitDir(at('known', '.git'));
    writeFileSync(at('known', '.git', 'commondir'), `${outside}\n`);
    const guard = guardGit(ws);
    gitDir(at('.git'));
    writeFileSync(at('.git', 'commondir'), `${outside}\n`);
    let message = '';
    try {
      checkNewRepositories(ws, guard);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(`.git (a folder whose commondir is naming ${outside})`);
    expect(message).not.toContain('known');
    expect(existsSync(at('.git'))).toBe(false);
    expect(existsSync(at('known', '.git'))).toBe(true);
  });

  it('disarming moves config, hooks and a linked commondir aside, and names the workspace itself "."', () => {
    const guard = guardGit(ws);
    // The workspace made into a git folder, with a .git link to itself.
    gitDir(ws, BAD);
    mkdirSync(at('hooks'));
    symlinkSync('.', at('commondir'));
    symlinkSync('.', at('.git'));
    let message = '';
    try {
      checkNewRepositories(ws, guard);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(': . (commondir is a symbolic link, core.fsmonitor)');
    for (const name of ['config', 'hooks', 'commondir']) {
      expect(existsSync(at(name))).toBe(false);
      expect(isLinkThere(at(name))).toBe(false);
    }
  });

  it('pins a git folder before the ones inside it, whichever the walk meets first', () => {
    // Two layouts with the names swapped: in one of them the walk meets the inner folder first.
    for (const [main, pointer] of [
      ['a', 'b'],
      ['d', 'c'],
    ]) {
      gitDir(at(main, '.git'));
      gitDir(at(main, '.git', 'modules', 'x'));
      mkdirSync(at(pointer));
      writeFileSync(at(pointer, '.git'), `gitdir: ../${main}/.git/modules/x\n`);
    }
    const pinned = guardGit(ws).pinned;
    for (const main of ['a', 'd'])
      expect(pinned.indexOf(at(main, '.git'))).toBeLessThan(pinned.indexOf(at(main, '.git', 'modules', 'x')));
  });

  it('a gitdir is read from the first line only', () => {
    gitDir(at('real'));
    writeFileSync(at('.git'), 'gitdir: real\ngitdir: elsewhere\n');
    expect(findRepositories(ws)[0].gitDirs).toEqual([at('real')]);
  });
});

function isLinkThere(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

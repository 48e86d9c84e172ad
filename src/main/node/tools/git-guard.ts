// Git metadata the person's own git would run commands from, kept out of a sandboxed command's
// reach (docs/tools.md, "The bash sandbox"). Before a call: every repository found in the
// workspace has its git folder pinned (bound onto itself, so it cannot be renamed and replaced)
// and its config, hooks, commondir, worktrees and modules bound read-only — commits and every
// other write under .git keep working; a `.git` file (worktrees, submodules) is read-only too.
// Links are followed to the real git folder they name — a `.git` link, a gitdir or commondir
// through a link — since git follows them too (issue 40's four routes round the guard).
// After the call: a repository that was not there before (`git init`, a moved-aside folder
// replaced) is checked — config keys against an allow-list, no hooks but git's samples — and if
// it fails, its config and hooks are moved aside and the call is a sandbox_security failure.
// Called by bash-sandbox.ts.
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { unsafeGitSettings, unsafeHooks } from './git-config-check';
import { walkWorkspace } from './workspace-walk';
import { ToolFailure } from '../../core/tools/tool-failure';

/** What git reads from a git folder to decide what to run, and so what is bound read-only. */
const GUARDED = ['config', 'config.worktree', 'hooks', 'commondir', 'worktrees', 'modules'];
/** Of those, the ones a link in place of would let a command swap what git reads. */
const NO_LINKS = ['config', 'config.worktree', 'hooks', 'commondir'];

export interface GitGuard {
  pinned: string[];
  readOnly: string[];
  /**
   * What was there before the call: each git folder by device, inode and the links in it (a
   * replaced folder, or one whose config became another link, is new), and each `.git` file or
   * link with the git folder it named.
   */
  known: Set<string>;
}

export interface Found {
  /** The `.git` entry. */
  dotGit: string;
  /** A `.git` file (a worktree, a submodule) or a link to one: it names the git folder. */
  isFile: boolean;
  /** The `.git` entry is a symbolic link. */
  isLink: boolean;
  /** The real git folders it stands for inside the workspace: its own, and the common one of a worktree. */
  gitDirs: string[];
  /** Real git folders it stands for outside the workspace (or that cannot be resolved: null). */
  outside: (string | null)[];
}

const inside = (workspace: string, path: string): boolean => path === workspace || path.startsWith(workspace + sep);

/** The real path of an existing folder, or null. */
function realDir(path: string): string | null {
  try {
    const real = realpathSync(path);
    return statSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

function readPointer(file: string, prefix: string): string | null {
  try {
    const text = readFileSync(file, 'utf8').split('\n')[0].trim();
    const value = prefix ? (text.startsWith(prefix) ? text.slice(prefix.length).trim() : null) : text;
    return value ? resolve(dirname(file), value) : null;
  } catch {
    return null;
  }
}

/** The git folders a `.git` entry stands for, every link on the way resolved as git resolves it. */
function gitDirsOf(workspace: string, dotGit: string, isFile: boolean): Pick<Found, 'gitDirs' | 'outside'> {
  const named = isFile ? readPointer(dotGit, 'gitdir:') : dotGit;
  const own = named === null ? null : realDir(named);
  if (own === null) return { gitDirs: [], outside: [null] };
  const pointer = readPointer(join(own, 'commondir'), '');
  const dirs = [own, ...(pointer ? [realDir(pointer)] : [])];
  return {
    gitDirs: dirs.filter((dir): dir is string => dir !== null && inside(workspace, dir)),
    outside: dirs.filter((dir) => dir === null || !inside(workspace, dir)),
  };
}

/** A `.git` entry as git sees it: a folder, a file, or a link to either (followed). */
function dotGitKind(path: string, entry: { isDirectory(): boolean; isFile(): boolean; isSymbolicLink(): boolean }) {
  if (!entry.isSymbolicLink()) return entry.isDirectory() ? 'dir' : entry.isFile() ? 'file' : null;
  try {
    const stat = statSync(path);
    return stat.isDirectory() ? 'dir' : stat.isFile() ? 'file' : null;
  } catch {
    return 'dangling';
  }
}

/** Every `.git` in the workspace, links to git folders included (no other link followed, nothing inside git folders). */
export function findRepositories(workspace: string): Found[] {
  const found: Found[] = [];
  walkWorkspace(workspace, (path, entry) => {
    const kind = entry.name === '.git' ? dotGitKind(path, entry) : null;
    if (kind === null) return true;
    if (kind === 'dangling') found.push({ dotGit: path, isFile: false, isLink: true, gitDirs: [], outside: [null] });
    else
      found.push({
        dotGit: path,
        isFile: kind === 'file',
        isLink: entry.isSymbolicLink(),
        ...gitDirsOf(workspace, path, kind === 'file'),
      });
    return false;
  });
  return found;
}

/** A git folder as it stands: its identity and where its links point (a swapped link makes it new). */
function fingerprint(gitDir: string): string | null {
  let stat;
  try {
    stat = lstatSync(gitDir);
  } catch {
    return null;
  }
  const links = NO_LINKS.map((name) => {
    try {
      return `${name}>${readlinkSync(join(gitDir, name))}`;
    } catch {
      return '';
    }
  });
  return [`${stat.dev}:${stat.ino}`, ...links.filter(Boolean)].join('|');
}

/** A `.git` with the git folders it names: changed, it is judged again after the call. */
const pointerKey = (repo: Found): string => `${repo.dotGit}>${[...repo.gitDirs, ...repo.outside].join('>')}`;

/** A file that must exist to be bound read-only over itself (so git cannot create it afresh). */
function ensureFile(path: string, content = ''): void {
  if (!existsSync(path)) {
    if (content) writeFileSync(path, content, { flag: 'wx' });
    else closeSync(openSync(path, 'a'));
  }
}

/** Makes what git would read exist, so that it can be bound read-only and never created by the command. */
function prepare(gitDir: string): void {
  try {
    mkdirSync(join(gitDir, 'hooks'), { recursive: true });
    ensureFile(join(gitDir, 'config'));
    // "." names the git folder itself, as no commondir does; an empty one would stop git ("failed to read").
    ensureFile(join(gitDir, 'commondir'), '.\n');
    // With worktree config on, git reads config.worktree too: it must not be creatable either.
    if (/worktreeconfig\s*=\s*true/i.test(readFileSync(join(gitDir, 'config'), 'utf8')))
      ensureFile(join(gitDir, 'config.worktree'));
  } catch {
    // A git folder we cannot write to: the command cannot either (it is not ours to fix).
  }
}

/** The binds for the repositories there now, and their identities for the check after. */
export function guardGit(workspace: string): GitGuard {
  const guard: GitGuard = { pinned: [], readOnly: [], known: new Set() };
  for (const repo of findRepositories(workspace)) {
    guard.known.add(pointerKey(repo));
    // A link cannot be bound; what it names is, below (and a swapped link is judged after the call).
    if (repo.isFile && !repo.isLink) guard.readOnly.push(repo.dotGit);
    for (const gitDir of repo.gitDirs) {
      prepare(gitDir);
      const id = fingerprint(gitDir);
      if (id === null || guard.known.has(id)) continue;
      guard.known.add(id);
      if (gitDir !== workspace) guard.pinned.push(gitDir);
      for (const name of GUARDED) {
        if (existsSync(join(gitDir, name))) guard.readOnly.push(join(gitDir, name));
      }
    }
  }
  // Outer folders first: a bind over a folder would hide the binds made inside it before.
  guard.pinned.sort((a, b) => a.length - b.length);
  return guard;
}

function problemsOf(gitDir: string): string[] {
  let config = '';
  try {
    config = readFileSync(join(gitDir, 'config'), 'utf8');
  } catch {
    // No config: nothing in it can run.
  }
  let hooks: string[] = [];
  try {
    hooks = readdirSync(join(gitDir, 'hooks'));
  } catch {
    // No hooks folder.
  }
  const links = NO_LINKS.filter((name) => isLink(join(gitDir, name)));
  return [
    ...links.map((name) => `${name} is a symbolic link`),
    ...unsafeGitSettings(config),
    ...unsafeHooks(hooks).map((hook) => `hooks/${hook}`),
  ];
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

const refusedName = (path: string): string => `${path}.refused-by-resolute-${Date.now()}`;

/** Move a refused config and hooks (and config.worktree, commondir) aside, where git does not look. */
function disarm(gitDir: string): void {
  for (const name of NO_LINKS) {
    const path = join(gitDir, name);
    if (existsSync(path) || isLink(path)) renameSync(path, refusedName(path));
  }
}

/**
 * A `.git` file, link or commondir the call left naming a git folder outside the workspace (or none
 * that exists): git would obey a config there that nothing here can check, so it is moved aside.
 */
function judgePointer(workspace: string, repo: Found, guard: GitGuard): string | null {
  if (repo.outside.length === 0) return null;
  const key = pointerKey(repo);
  if (guard.known.has(key)) return null;
  guard.known.add(key);
  renameSync(repo.dotGit, refusedName(repo.dotGit));
  const where = repo.outside.map((dir) => dir ?? 'nothing that exists').join(', ');
  const kind = repo.isLink ? 'link' : repo.isFile ? 'file' : 'folder whose commondir is';
  return `${relative(workspace, repo.dotGit)} (a ${kind} naming ${where})`;
}

/** After a call: a repository that appeared with settings or hooks that run commands is disarmed and refused. */
export function checkNewRepositories(workspace: string, guard: GitGuard): void {
  const refused: string[] = [];
  for (const repo of findRepositories(workspace)) {
    const pointer = judgePointer(workspace, repo, guard);
    if (pointer !== null) refused.push(pointer);
    for (const gitDir of repo.gitDirs) {
      const id = fingerprint(gitDir);
      if (id === null || guard.known.has(id)) continue;
      guard.known.add(id);
      const problems = problemsOf(gitDir);
      if (problems.length === 0) continue;
      disarm(gitDir);
      refused.push(`${relative(workspace, gitDir) || '.'} (${problems.slice(0, 5).join(', ')})`);
    }
  }
  if (refused.length > 0)
    throw new ToolFailure(
      'sandbox_security',
      `Refused: the command left a git repository whose settings or hooks would run commands when you next use git outside the sandbox: ${refused.join('; ')}. Its config and hooks were moved aside (*.refused-by-resolute-*); nothing in them ran.`,
      refused.join('; '),
    );
}

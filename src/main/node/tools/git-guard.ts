// Git metadata the person's own git would run commands from, kept out of a sandboxed command's
// reach (docs/tools.md, "The bash sandbox"). Before a call: every repository found in the
// workspace has its git folder pinned (bound onto itself, so it cannot be renamed and replaced)
// and its config, hooks, commondir, worktrees and modules bound read-only — commits and every
// other write under .git keep working; a `.git` file (worktrees, submodules) is read-only too.
// After the call: a repository that was not there before (`git init`, a moved-aside folder
// replaced) is checked — config keys against an allow-list, no hooks but git's samples — and if
// it fails, its config and hooks are moved aside and the call is a sandbox_security failure.
// Called by bash-sandbox.ts.
import { closeSync, existsSync, lstatSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { unsafeGitSettings, unsafeHooks } from './git-config-check';
import { ToolFailure } from '../../core/tools/tool-failure';

/** The walk stops after this many entries: a bound on the time a huge workspace costs per call. */
const MAX_ENTRIES = 200_000;

export interface GitGuard {
  pinned: string[];
  readOnly: string[];
  /** The git folders there before the call, by device and inode (a replaced one is new). */
  known: Set<string>;
}

interface Found {
  /** The `.git` entry. */
  dotGit: string;
  isFile: boolean;
  /** The git folders it stands for inside the workspace: its own, and the common one of a worktree. */
  gitDirs: string[];
}

const inside = (workspace: string, path: string): boolean => path === workspace || path.startsWith(workspace + sep);

function identity(path: string): string | null {
  try {
    const stat = lstatSync(path);
    return stat.isDirectory() ? `${stat.dev}:${stat.ino}` : null;
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

function gitDirsOf(workspace: string, dotGit: string, isFile: boolean): string[] {
  const own = isFile ? readPointer(dotGit, 'gitdir:') : dotGit;
  if (own === null) return [];
  const common = readPointer(join(own, 'commondir'), '');
  return [own, ...(common ? [common] : [])].filter((dir) => inside(workspace, dir) && identity(dir) !== null);
}

/** Every `.git` in the workspace (not following links, not looking inside git folders). */
export function findRepositories(workspace: string): Found[] {
  const found: Found[] = [];
  const stack = [workspace];
  let entries = 0;
  while (stack.length > 0 && entries < MAX_ENTRIES) {
    const dir = stack.pop() as string;
    let list;
    try {
      list = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of list) {
      entries += 1;
      const path = join(dir, entry.name);
      if (entry.name === '.git' && (entry.isDirectory() || entry.isFile())) {
        found.push({ dotGit: path, isFile: entry.isFile(), gitDirs: gitDirsOf(workspace, path, entry.isFile()) });
      } else if (entry.isDirectory()) stack.push(path);
    }
  }
  return found;
}

/** A file that must exist to be bound read-only over itself (so git cannot create it afresh). */
function ensureFile(path: string): void {
  if (!existsSync(path)) closeSync(openSync(path, 'a'));
}

/** The binds for the repositories there now, and their identities for the check after. */
export function guardGit(workspace: string): GitGuard {
  const guard: GitGuard = { pinned: [], readOnly: [], known: new Set() };
  for (const repo of findRepositories(workspace)) {
    if (repo.isFile) guard.readOnly.push(repo.dotGit);
    for (const gitDir of repo.gitDirs) {
      const id = identity(gitDir);
      if (id === null || guard.known.has(id)) continue;
      guard.known.add(id);
      try {
        mkdirSync(join(gitDir, 'hooks'), { recursive: true });
        ensureFile(join(gitDir, 'config'));
        // With worktree config on, git reads config.worktree too: it must not be creatable either.
        if (/worktreeconfig\s*=\s*true/i.test(readFileSync(join(gitDir, 'config'), 'utf8')))
          ensureFile(join(gitDir, 'config.worktree'));
      } catch {
        // A git folder we cannot write to: the command cannot either (it is not ours to fix).
      }
      if (gitDir !== workspace) guard.pinned.push(gitDir);
      for (const name of ['config', 'config.worktree', 'hooks', 'commondir', 'worktrees', 'modules']) {
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
  return [...unsafeGitSettings(config), ...unsafeHooks(hooks).map((hook) => `hooks/${hook}`)];
}

/** Move a refused config and hooks aside, where git does not look. */
function disarm(gitDir: string): void {
  for (const name of ['config', 'hooks']) {
    const path = join(gitDir, name);
    if (existsSync(path)) renameSync(path, `${path}.refused-by-resolute-${Date.now()}`);
  }
}

/** After a call: a repository that appeared with settings or hooks that run commands is disarmed and refused. */
export function checkNewRepositories(workspace: string, guard: GitGuard): void {
  const refused: string[] = [];
  for (const repo of findRepositories(workspace)) {
    for (const gitDir of repo.gitDirs) {
      const id = identity(gitDir);
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

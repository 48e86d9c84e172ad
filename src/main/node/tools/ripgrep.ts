// ripgrep for `find` and `grep` (docs/tools.md, "find and grep"): fast on a large workspace,
// respecting .gitignore, skipping .git and never following symbolic links; stopped as soon as the
// caller has enough. It runs confined (search-sandbox.ts): its walk follows paths, and a folder
// swapped for a link mid-walk must lead nowhere. Without ripgrep installed, both answer the model
// with an error that says how to install it. Called by find-tool.ts and grep-tool.ts.
import { spawn } from 'node:child_process';
import { cachedExecutable } from './executables';
import { searchPlan, type SearchSandbox } from './search-sandbox';

export const RG_MISSING =
  'ripgrep (rg) is not installed, and find and grep use it. Install it — Debian/Ubuntu: sudo apt install ripgrep; macOS: brew install ripgrep — then try again.';

const BWRAP_REFUSED =
  'bubblewrap could not create the sandbox find and grep run in. The kernel may not allow unprivileged user namespaces: enable them (sudo sysctl -w kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 and later allow bwrap in AppArmor), then try again.';

/** How a search is confined; by default bubblewrap from PATH's absolute entries, nothing hidden. */
export interface SearchOptions {
  signal?: AbortSignal;
  /** Folders ripgrep must never see (the data folder); default none. */
  hidden?: readonly string[];
  /** Default: this platform, bwrap from PATH. */
  platform?: NodeJS.Platform;
  bwrap?: string | null;
}

interface RgRun {
  args: string[];
  /** The workspace's real path: all ripgrep may see. */
  workspace: string;
  /** Where ripgrep starts (inside the workspace). */
  cwd: string;
  options: SearchOptions;
  /** Called per stdout line; return false to stop ripgrep (the limit was reached). */
  onLine: (line: string) => boolean;
  /** What ends a line of ripgrep's output: "\n", or "\0" with `--null`. */
  separator?: string;
}

function sandboxOf(options: SearchOptions): SearchSandbox {
  return {
    platform: options.platform ?? process.platform,
    bwrap: options.bwrap === undefined ? cachedExecutable('bwrap') : options.bwrap,
    hidden: options.hidden ?? [],
  };
}

/** An entry ripgrep could not read, as it said (`path: Permission denied (os error 13)`). */
export interface Unreadable {
  path: string;
  why: string;
}

export interface RgResult {
  /** 0 found, 1 nothing found, 2 found what it could with some entries unreadable. */
  code: number;
  unreadable: Unreadable[];
}

const ENTRY_ERROR = /^(.*): (.*) \(os error \d+\)$/;

/**
 * ripgrep's stderr as entries it could not read, or null when it holds anything else (a bad
 * pattern or glob): then the search did not run and the message is the answer.
 */
function unreadableEntries(stderr: string): Unreadable[] | null {
  const lines = stderr.split('\n').filter((line) => line.trim() !== '');
  const entries = lines.map((line) => ENTRY_ERROR.exec(line.replace(/^rg: /, '')));
  if (entries.length === 0 || entries.some((entry) => entry === null)) return null;
  return entries.map((entry) => ({ path: entry?.[1] ?? '', why: entry?.[2] ?? '' }));
}

/**
 * Run ripgrep; resolves with its exit code and the entries it could not read (one unreadable
 * folder must not hide every match elsewhere), or rejects with its error.
 */
export function runRg({ args, workspace, cwd, options, onLine, separator = '\n' }: RgRun): Promise<RgResult> {
  return new Promise((resolve, reject) => {
    // By absolute path only: a bare "rg" could be the workspace's own (executables.ts).
    const rg = cachedExecutable('rg');
    if (rg === null) return reject(new Error(RG_MISSING));
    const { signal } = options;
    const plan = searchPlan(sandboxOf(options), { rg, args, workspace, cwd });
    const child = spawn(plan.command, plan.args, { cwd: plan.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stopped = false;
    let buffered = '';
    let stderr = '';
    const stop = () => {
      stopped = true;
      child.kill('SIGKILL');
    };
    signal?.addEventListener('abort', stop, { once: true });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (stopped) return;
      const lines = (buffered + chunk).split(separator);
      buffered = lines.pop() ?? '';
      for (const line of lines) if (line && !onLine(line)) return stop();
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(error.code === 'ENOENT' ? RG_MISSING : error.message)),
    );
    child.on('close', (code) => {
      signal?.removeEventListener('abort', stop);
      if (signal?.aborted) return reject(new Error('Search aborted'));
      // bwrap's own failure (exit 1, like "nothing found") is told by its message.
      if (!stopped && /^bwrap:/.test(stderr)) return reject(new Error(`${BWRAP_REFUSED} (${stderr.trim()})`));
      if (!stopped && buffered) onLine(buffered);
      const unreadable = unreadableEntries(stderr) ?? [];
      if (stopped || code === 0 || code === 1) return resolve({ code: stopped ? 0 : (code ?? 0), unreadable });
      if (code === 2 && unreadable.length > 0) return resolve({ code, unreadable });
      reject(new Error(stderr.trim() || `ripgrep exited with code ${code}`));
    });
  });
}

/** The note naming what could not be read: at most five entries, each path cut to 200 characters. */
export function unreadableNote(unreadable: readonly Unreadable[], shown: (path: string) => string): string | false {
  if (unreadable.length === 0) return false;
  const named = unreadable.slice(0, 5).map(({ path, why }) => {
    const name = shown(path);
    return `${name.length > 200 ? `${name.slice(0, 200)}…` : name} (${why})`;
  });
  const more = unreadable.length > 5 ? ` and ${unreadable.length - 5} more` : '';
  const entries = unreadable.length === 1 ? 'entry' : 'entries';
  return `Could not read ${unreadable.length} ${entries} (not searched): ${named.join(', ')}${more}`;
}

/** Never `--follow`: a link is listed as what it is, not walked into. */
export const BASE_ARGS = ['--color=never', '--hidden', '--glob', '!.git', '--no-config'];

// The file-system half of workspace confinement (docs/tools.md, "Confinement"), after the lexical
// rules of node/tools/path-rules.ts: every existing component of a path is checked with lstat, a
// symbolic link anywhere (the last component included) must resolve inside the workspace, and a
// file to be written must not be a hard link. Also where the workspace is: its default folder,
// created on first use, and the check a chosen folder must pass. Used by the node tools.
import { lstatSync, mkdirSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, parse, relative, resolve, sep } from 'node:path';
import { confinePath } from './path-rules';
import { ToolFailure, outsideWorkspace } from '../../core/tools/tool-failure';
import { errorText } from '../../../shared/text';

export interface WorkspacePath {
  /** The real path to operate on. */
  absolute: string;
  /** As the model should see it: relative to the workspace, "/" separated. */
  relative: string;
  /** Where it really is, relative to the workspace ("/" separated): differs when links were followed. */
  real: string;
  /** lstat of `absolute`, or null when nothing is there yet. */
  stat: Stats | null;
}

/** `<Documents or home>/Resolute`: the workspace when none was chosen (created on first use). */
export function defaultWorkspace(home = homedir()): string {
  const documents = join(home, 'Documents');
  return join(isDirectory(documents) ? documents : home, 'Resolute');
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** `path` is `root` or lies under it (a separator after the root: `<ws>-private` is not inside `<ws>`). */
export const isInside = (root: string, path: string): boolean =>
  path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

const errorCode = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | null)?.code;

/**
 * The workspace, ready for a tool: its real path. The default folder is created; any other that
 * is missing or not a folder makes the workspace unusable — a `sandbox` failure saying what to do.
 */
export function openWorkspace(workspace: string, isDefault: boolean): string {
  try {
    if (isDefault) mkdirSync(workspace, { recursive: true, mode: 0o700 });
    const real = realpathSync(workspace);
    if (!statSync(real).isDirectory()) throw new Error('it is not a folder');
    return real;
  } catch (error) {
    const why = errorCode(error) === 'ENOENT' ? 'it does not exist' : (error as Error).message;
    throw new ToolFailure(
      'sandbox',
      `The workspace ${workspace} cannot be used (${why}). Choose another folder with the workspace button in the chat header, or create this one, then continue.`,
      workspace,
    );
  }
}

/**
 * A folder the person chose as a workspace, checked in the main process: absolute, existing, a
 * folder, not the file-system root, and neither holding nor inside Resolute's data folder (the keys, the logs).
 * Returns its real path; throws an Error that says what is wrong.
 */
export function checkWorkspaceChoice(path: string, dataDir: string): string {
  if (!isAbsolute(path)) throw new Error(`"${path}" is not an absolute path; give the full path of a folder.`);
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw new Error(`The folder ${path} does not exist.`);
  }
  if (!statSync(real).isDirectory()) throw new Error(`${path} is not a folder.`);
  if (dirname(real) === real) throw new Error('The root of the file system cannot be a workspace; choose a folder.');
  const data = (() => {
    try {
      return realpathSync(dataDir);
    } catch {
      return resolve(dataDir);
    }
  })();
  if (isInside(real, data))
    throw new Error(`${path} holds Resolute's data folder (${dataDir}) with its keys; choose another folder.`);
  // Inside it, bash could rewrite the logs and the audit trail, and the file tools read the history.
  if (isInside(data, real))
    throw new Error(`${path} is inside Resolute's data folder (${dataDir}); choose a folder outside it.`);
  return real;
}

/** The run's workspace: `--workspace` (created if missing, then checked), else the default folder. */
export function runWorkspace(flag: string | undefined, dataDir: string): string {
  if (flag === undefined) return defaultWorkspace();
  const path = resolve(flag);
  mkdirSync(path, { recursive: true });
  try {
    return checkWorkspaceChoice(path, dataDir);
  } catch (error) {
    throw new Error(`--workspace: ${errorText(error)}`, { cause: error });
  }
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

/** A link's target is split as the OS reads it: a backslash is a name character on POSIX. */
const LINK_SEPARATORS = sep === '\\' ? /[\\/]+/ : /\/+/;

/** As Linux: more links than this in one resolution is ELOOP, and refused. */
const MAX_LINK_HOPS = 40;

interface Walk {
  /** The real path: every link resolved, or the real parent of what does not exist yet. */
  absolute: string;
  stat: Stats | null;
  /** The first link on the way, as typed (for the refusal's message). */
  firstLink: string | null;
  /** The path's last component is a link to something that does not exist (a folder link on the way may dangle: writing creates its target, inside). */
  dangling: boolean;
}

/**
 * Resolve `segments` from the workspace one component at a time, as the kernel does but in
 * userland, so that no fallback ever skips a link: each link's target is spliced into the rest
 * of the path and walked again, a `..` goes to the parent of a real folder, and more than
 * MAX_LINK_HOPS links is a refusal rather than "try it lexically" (the hole that followed a
 * 41-link chain out). Where the walk is outside the workspace, every failure is the same refusal,
 * so a refused path tells nothing of what lies outside.
 */
function walk(workspace: string, input: string, segments: string[]): Walk {
  // Each queued segment remembers whether a link's target brought it (for "dangling").
  const queue = segments.map((name) => ({ name, fromLink: false }));
  let current = workspace;
  let hops = 0;
  let firstLink: string | null = null;
  let typed = 0; // typed segments consumed so far, to name the first link as the model wrote it
  let isLinkLast = false; // the newest link met was the path's last component (nothing typed after it)
  const fail = (reason: string): never => {
    if (!isInside(workspace, current)) throw outsideWorkspace(input, leadsOut(input, firstLink, current));
    throw new Error(reason);
  };
  while (queue.length > 0) {
    const { name: segment, fromLink } = queue.shift() as { name: string; fromLink: boolean };
    if (!fromLink) typed++;
    // `join` takes "", "." and ".." as the kernel does here: `current` is a real folder, links resolved.
    const next = join(current, segment);
    let stat: Stats | null;
    try {
      stat = lstatOrNull(next);
    } catch (error) {
      return fail(`${input} cannot be resolved: ${(error as Error).message}`);
    }
    if (stat === null) {
      // Nothing there: what follows is created (write) or not found. A `..` after a missing folder
      // would be judged lexically here but fail in the kernel, so it is not taken at all.
      if (queue.some((rest) => rest.name === '..')) return fail(`${input}: ${segment} does not exist.`);
      const absolute = join(next, ...queue.map((rest) => rest.name));
      return { absolute, stat: null, firstLink, dangling: fromLink && isLinkLast };
    }
    if (stat.isSymbolicLink()) {
      firstLink ??= segments.slice(0, typed).join('/');
      isLinkLast = queue.every((rest) => rest.fromLink);
      if (++hops > MAX_LINK_HOPS)
        throw outsideWorkspace(input, `${input} goes through more than ${MAX_LINK_HOPS} symbolic links`);
      const target = readLinkOr(next, (error) => fail(`${input} cannot be resolved: ${error.message}`));
      if (isAbsolute(target)) current = parse(target).root;
      queue.unshift(...target.split(LINK_SEPARATORS).map((name) => ({ name, fromLink: true })));
      continue;
    }
    // Anything after a file — a name, or the "" of a trailing slash — is ENOTDIR to the kernel too.
    if (queue.length > 0 && !stat.isDirectory()) return fail(`${input}: ${segment} is not a folder.`);
    current = next;
  }
  return { absolute: current, stat: lstatSync(current), firstLink, dangling: false };
}

/**
 * A link's target; when it cannot be read, `fail` decides — outside the workspace (`/proc/1/root`
 * of another user's process), a refusal like the rest.
 */
function readLinkOr(path: string, fail: (error: Error) => never): string {
  try {
    return readlinkSync(path);
  } catch (error) {
    return fail(error as Error);
  }
}

/** Only a link can lead out (the lexical rules keep the typed path inside), so the refusal names it. */
function leadsOut(input: string, firstLink: string | null, where: string): string {
  return `${input} goes through the symbolic link ${firstLink ?? input} to ${where}`;
}

const GIT_EXECUTABLE = new Set(['config', 'config.worktree', 'hooks', 'commondir']);

/**
 * Git runs what these name — `core.fsmonitor`, hooks, a `.git` file or a `commondir` pointing at
 * another git folder — with the person's full rights the next time they use git in this folder,
 * outside any sandbox. So the file tools never write them (docs/tools.md, "Threat model").
 */
function isGitExecutable(relativeSegments: string[]): boolean {
  const lower = relativeSegments.map((segment) => segment.toLowerCase());
  const git = lower.indexOf('.git');
  if (git === -1) return false;
  if (git === lower.length - 1) return true;
  return lower.slice(git + 1).some((segment) => GIT_EXECUTABLE.has(segment));
}

/**
 * Resolve `input` inside the workspace (its real path), refusing with a `sandbox_security`
 * ToolFailure anything that would leave it. `forWrite`: the file will be written, so it must not
 * be a hard link (its other name may be outside), a dangling link is refused, and so are git's
 * configuration and hooks.
 */
export function resolveInWorkspace(workspace: string, input: string, forWrite: boolean): WorkspacePath {
  const verdict = confinePath(input, workspace);
  if (!verdict.ok) throw outsideWorkspace(input, verdict.reason);
  const found = walk(workspace, input, verdict.segments);
  if (!isInside(workspace, found.absolute))
    throw outsideWorkspace(input, leadsOut(input, found.firstLink, found.absolute));
  const realSegments = relative(workspace, found.absolute).split(sep).filter(Boolean);
  const real = realSegments.length ? realSegments.join('/') : '.';
  if (forWrite && found.dangling)
    throw new Error(
      `${input} goes through the symbolic link ${found.firstLink} to ${found.absolute}, which does not exist.`,
    );
  if (forWrite && (isGitExecutable(verdict.segments) || isGitExecutable(realSegments)))
    throw outsideWorkspace(input, `${input} is git's configuration or hooks, which git runs later outside the sandbox`);
  if (forWrite && found.stat?.isFile() && found.stat.nlink > 1)
    throw outsideWorkspace(
      input,
      `${input} has ${found.stat.nlink} hard links, and another of its names may be outside`,
    );
  return { absolute: found.absolute, relative: verdict.relative, real, stat: found.stat };
}

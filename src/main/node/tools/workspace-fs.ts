// The file-system half of workspace confinement (docs/tools.md, "Confinement"), after the lexical
// rules of core/tools/path-rules.ts: every existing component of a path is checked with lstat, a
// symbolic link anywhere (the last component included) must resolve inside the workspace, and a
// file to be written must not be a hard link. Also where the workspace is: its default folder,
// created on first use, and the check a chosen folder must pass. Used by the node tools.
import { lstatSync, mkdirSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { confinePath } from '../../core/tools/path-rules';
import { ToolFailure, outsideWorkspace } from '../../core/tools/tool-failure';

export interface WorkspacePath {
  /** The real path to operate on. */
  absolute: string;
  /** As the model should see it: relative to the workspace, "/" separated. */
  relative: string;
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

const isInside = (root: string, path: string): boolean =>
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
 * folder, not the file-system root, and not one that holds Resolute's data folder (the keys).
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
    throw new Error(
      `${path} holds Resolute's data folder (${dataDir}) with its keys; choose a folder inside it or elsewhere.`,
    );
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
    throw new Error(`--workspace: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
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

/** Where a symbolic link leads; a dangling one is resolved lexically, so its target can be judged. */
function linkTarget(link: string): string {
  try {
    return realpathSync(link);
  } catch {
    return resolve(dirname(link), readlinkSync(link));
  }
}

/**
 * Resolve `input` inside the workspace (its real path), refusing with a `sandbox_security`
 * ToolFailure anything that would leave it. `forWrite`: the file will be written, so it must not
 * be a hard link (its other name may be outside) and a dangling link is refused.
 */
export function resolveInWorkspace(workspace: string, input: string, forWrite: boolean): WorkspacePath {
  const verdict = confinePath(input, workspace);
  if (!verdict.ok) throw outsideWorkspace(input, verdict.reason);
  let current = workspace;
  for (const [i, segment] of verdict.segments.entries()) {
    const next = join(current, segment);
    const stat = lstatOrNull(next);
    if (!stat)
      return { absolute: join(next, ...verdict.segments.slice(i + 1)), relative: verdict.relative, stat: null };
    if (!stat.isSymbolicLink()) {
      current = next;
      continue;
    }
    const target = linkTarget(next);
    if (!isInside(workspace, target))
      throw outsideWorkspace(input, `${input} goes through the symbolic link ${segment} to ${target}`);
    if (forWrite && lstatOrNull(target) === null && i === verdict.segments.length - 1)
      throw new Error(`${input} is a symbolic link to ${target}, which does not exist.`);
    current = target;
  }
  const stat = lstatOrNull(current);
  if (forWrite && stat?.isFile() && stat.nlink > 1)
    throw outsideWorkspace(input, `${input} has ${stat.nlink} hard links, and another of its names may be outside`);
  return { absolute: current, relative: verdict.relative, stat };
}

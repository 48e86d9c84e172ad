// Reading and writing a path that workspace-fs.ts has resolved, without trusting that it is still
// what was checked (docs/tools.md, "Threat model"): the file or folder is opened without following
// a link, then the opened descriptor's real location is checked inside the workspace — on Linux
// through /proc/self/fd, which names exactly what was opened; elsewhere by comparing the opened
// file with the real path's. A write goes to a temporary file beside the original, every byte
// written and fsynced, then renamed over it: a full disk or a crash leaves the original whole.
// Used by the file tools (file-access.ts, ls-tool.ts, write-tool.ts, edit-tool.ts).
import {
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  type Dirent,
  type Stats,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { outsideWorkspace } from '../../core/tools/tool-failure';
import { isInside, type WorkspacePath } from './workspace-fs';

// Windows has neither flag; there the check after opening is what holds.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const DIRECTORY = constants.O_DIRECTORY ?? 0;
// Opening a FIFO for reading waits for a writer, on the main thread that serves every window; with
// O_NONBLOCK it returns at once (and changes nothing for a regular file or a folder).
const NONBLOCK = constants.O_NONBLOCK ?? 0;
const usesProcFd = process.platform === 'linux';

const errorCode = (error: unknown): string => (error as NodeJS.ErrnoException | null)?.code ?? 'error';

/** Where the descriptor really is, from /proc (Linux); null where the OS does not say. */
function openedPath(fd: number): string | null {
  if (!usesProcFd) return null;
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

/**
 * Is the opened descriptor the checked file, inside the workspace? `where` is its path from /proc;
 * where the OS does not say (null), the file's real path must name the very file that was opened
 * (same device and inode). Either must be the checked path itself, not merely somewhere inside: a
 * parent folder swapped for a link to `.git` would otherwise put a write into `.git/hooks`.
 */
export function isOpenedInside(
  workspace: string,
  fd: number,
  file: WorkspacePath,
  where: string | null = openedPath(fd),
): boolean {
  if (where !== null) return where === file.absolute && isInside(workspace, where);
  const opened = fstatSync(fd);
  const real = realpathSync(file.absolute);
  const named = statSync(real);
  return real === file.absolute && isInside(workspace, real) && opened.ino === named.ino && opened.dev === named.dev;
}

const swapped = (input: string) =>
  outsideWorkspace(input, `${input} changed into a link leading outside the workspace while it was opened`);

/** A path naming the opened descriptor itself (Linux), else the checked path. */
const viaDescriptor = (fd: number, absolute: string): string => (usesProcFd ? `/proc/self/fd/${fd}` : absolute);

function isLinkNow(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Open without following a last link (one swapped in since the check: ELOOP), then check what was opened. */
function openVerified(workspace: string, file: WorkspacePath, input: string, flags: number): number {
  let fd: number;
  try {
    fd = openSync(file.absolute, flags | NOFOLLOW | NONBLOCK);
  } catch (error) {
    // A link where the check found none: ELOOP for a file, ENOTDIR for a folder opened as one.
    if (isLinkNow(file.absolute)) throw swapped(input);
    throw error;
  }
  if (isOpenedInside(workspace, fd, file)) return fd;
  closeSync(fd);
  throw swapped(input);
}

/** What a file that is not a regular file is, for the refusal. */
function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** Only regular files are read: a FIFO or a device could block or never end. */
function refuseIrregular(stat: Stats, input: string): void {
  if (!stat.isFile()) throw new Error(`${input} is ${kindOf(stat)}; the file tools read regular files only.`);
}

/**
 * The bytes of a resolved regular file; `check` may refuse it (too large) before reading. Anything
 * else — a FIFO, a device, a socket — is refused before it is opened, and again after (what was
 * opened may not be what was checked).
 */
export function readConfined(
  workspace: string,
  file: WorkspacePath,
  input: string,
  check: (stat: Stats) => void,
): Buffer {
  return withRegularFile(workspace, file, input, (fd, stat) => {
    check(stat);
    return readFileSync(fd);
  });
}

/**
 * At most the first `maxBytes` of a resolved regular file, never more however large it is (a
 * 1.5 GB AGENTS.md was read whole before every prompt).
 */
export function readConfinedHead(workspace: string, file: WorkspacePath, input: string, maxBytes: number): Buffer {
  return withRegularFile(workspace, file, input, (fd) => {
    const head = Buffer.alloc(maxBytes);
    let filled = 0;
    while (filled < maxBytes) {
      const read = readSync(fd, head, filled, maxBytes - filled, null);
      if (read === 0) break;
      filled += read;
    }
    return head.subarray(0, filled);
  });
}

function withRegularFile<T>(
  workspace: string,
  file: WorkspacePath,
  input: string,
  use: (fd: number, stat: Stats) => T,
): T {
  if (file.stat && !file.stat.isSymbolicLink()) refuseIrregular(file.stat, input);
  const fd = openVerified(workspace, file, input, constants.O_RDONLY);
  try {
    const stat = fstatSync(fd);
    refuseIrregular(stat, input);
    return use(fd, stat);
  } finally {
    closeSync(fd);
  }
}

/** The entries of a resolved folder. */
export function listConfined(workspace: string, dir: WorkspacePath, input: string): Dirent[] {
  const fd = openVerified(workspace, dir, input, constants.O_RDONLY | DIRECTORY);
  try {
    return readdirSync(viaDescriptor(fd, dir.absolute), { withFileTypes: true });
  } finally {
    closeSync(fd);
  }
}

/**
 * Replace (or create) a resolved file with `content`: a temporary file in the same folder gets
 * every byte (writeFileSync loops over short writes and throws on ENOSPC), is fsynced, takes the
 * original's mode and owner, and is renamed over the original. On any failure the temporary file
 * is removed and the original is as it was; the error says so.
 */
export function writeConfined(
  workspace: string,
  file: WorkspacePath,
  input: string,
  content: string | Uint8Array,
  /** The new file's permission bits; default the original's (0o644 for a new file). */
  mode?: number,
): void {
  const folder = dirname(file.absolute);
  mkdirSync(folder, { recursive: true });
  const dirFd = openVerified(workspace, { ...file, absolute: folder }, input, constants.O_RDONLY | DIRECTORY);
  const base = viaDescriptor(dirFd, folder);
  const name = basename(file.absolute);
  removeStaleTemporaries(base);
  const temporary = join(base, temporaryName(name));
  try {
    const bits = mode ?? (file.stat ? file.stat.mode & 0o7777 : 0o644);
    const fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, bits);
    try {
      writeFileSync(fd, content);
      if (file.stat) keepOwnership(fd, file.stat);
      // The umask narrowed the bits open gave; a restored file gets exactly its recorded ones.
      if (mode !== undefined) fchmodSync(fd, mode);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, join(base, name));
    syncFolder(dirFd);
  } catch (error) {
    removeQuietly(temporary);
    throw new Error(
      `Could not write ${input} (${errorCode(error)}: ${(error as Error).message}). The file was not changed.`,
      {
        cause: error,
      },
    );
  } finally {
    closeSync(dirFd);
  }
}

/**
 * Remove a resolved file by its name in the checked folder (opened without following a link and
 * verified, like a write's): a folder swapped for a link since the check cannot redirect it.
 */
export function removeConfined(workspace: string, file: WorkspacePath, input: string): void {
  const folder = dirname(file.absolute);
  const dirFd = openVerified(workspace, { ...file, absolute: folder }, input, constants.O_RDONLY | DIRECTORY);
  try {
    unlinkSync(join(viaDescriptor(dirFd, folder), basename(file.absolute)));
    syncFolder(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

/** Our temporary files, and no one else's: `.NAME.resolute-8 hex digits.tmp`. */
const TEMPORARY = /^\..+\.resolute-[0-9a-f]{8}\.tmp$/s;
/** A temporary file older than this is left from a write that was killed (a write takes far less). */
export const STALE_TEMPORARY_MS = 10 * 60 * 1000;

/** The temporary file a write of `name` goes to first. */
export const temporaryName = (name: string): string => `.${name}.resolute-${randomBytes(4).toString('hex')}.tmp`;

/**
 * A write killed between its temporary file and the rename leaves that file behind, and nothing
 * else would ever remove it: the next write to the same folder removes ours that are stale —
 * regular files named as ours, untouched for STALE_TEMPORARY_MS (a write running now, from
 * another chat, is younger). `folder` names the checked folder's descriptor.
 */
function removeStaleTemporaries(folder: string, now = Date.now()): void {
  let names: string[];
  try {
    names = readdirSync(folder).filter((entry) => TEMPORARY.test(entry));
  } catch {
    return;
  }
  for (const entry of names) {
    const path = join(folder, entry);
    try {
      const stat = lstatSync(path);
      if (stat.isFile() && now - stat.mtimeMs > STALE_TEMPORARY_MS) unlinkSync(path);
    } catch {
      // Gone already, or not ours to remove: the write goes on.
    }
  }
}

/** The replacement keeps the original's permissions and, where we may set it, its owner. */
function keepOwnership(fd: number, stat: Stats): void {
  fchmodSync(fd, stat.mode & 0o7777);
  try {
    fchownSync(fd, stat.uid, stat.gid);
  } catch {
    // Only root may give a file away; as the file's owner it is ours already.
  }
}

/** The rename itself is durable only once the folder is synced (not possible on Windows). */
function syncFolder(dirFd: number): void {
  try {
    fsyncSync(dirFd);
  } catch {
    // EINVAL/EPERM on file systems and platforms that cannot sync a folder.
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Never created, or already gone.
  }
}

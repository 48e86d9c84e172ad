// How the data folder's files change on disk: an atomic write (a temp file of its own, fsynced,
// renamed into place — never a shared temp name, so two writers cannot rename each other's file
// away), setting aside a file that could not be read (nothing unreadable is ever overwritten), and
// the modes that keep it all its owner's (folders 0700, files 0600). Used by the settings file, the
// credential vault, the cipher's key file, the decision log, the history and the composition root.
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';

/** Modes of what Resolute writes in the data folder: only its owner reads them. */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** The data folder (created if needed) and its subfolders: its owner's only, also when an older version made it looser. */
export function makePrivateDir(path: string): void {
  mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE });
  tighten(path, PRIVATE_DIR_MODE);
}

/** Set `path`'s mode if it exists and is ours to change; a file of another user's is left as it is. */
export function tighten(path: string, mode: number): void {
  try {
    chmodSync(path, mode);
  } catch {
    // Missing, or not ours: the open that follows reports what matters.
  }
}

/** Write `data` to `path` so that a reader sees the old file or the new one, never a mix. */
export function writeFileAtomic(path: string, data: string): void {
  const tmp = writeTemp(path, data);
  try {
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

/**
 * Create `path` with `data` unless it exists; a reader never sees it half-written, and of two
 * processes creating it at once exactly one wins. Returns whether this call created it.
 */
export function createFileOnce(path: string, data: string): boolean {
  // The common case — the file is there (the cipher's key at every start) — costs a stat, not a
  // temp file written, fsynced and removed on the start-up path. A file made between this look and
  // the link still loses to the link's EEXIST.
  if (existsSync(path)) return false;
  const tmp = writeTemp(path, data);
  try {
    linkSync(tmp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** A fresh temp file beside `path` holding `data`, on disk (fsynced); its name is this write's own. */
function writeTemp(path: string, data: string): string {
  mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
  const tmp = `${path}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
  try {
    const fd = openSync(tmp, 'wx', PRIVATE_FILE_MODE);
    try {
      writeSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return tmp;
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

/** Move `path` to `<path>.<label>-<time>` (never over another file) and return where it went. */
export function setAside(path: string, label: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  let target = `${path}.${label}-${stamp}`;
  for (let n = 2; existsSync(target); n += 1) target = `${path}.${label}-${stamp}-${n}`;
  renameSync(path, target);
  return target;
}

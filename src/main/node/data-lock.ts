// One instance per data folder (docs/hosts.md, "The data folder"): <dataDir>/resolute.lock,
// created exclusively, names its holder — pid, a random nonce, the host and, where /proc exists,
// the process's start (boot id and start time), so that a pid reused by another process after a
// crash is not taken for the holder. A lock whose holder is gone is stale and taken over.
// AppServices.create takes it before touching any file; dispose, or the process's exit, releases it.
import { randomUUID } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from './safe-files';

export const LOCK_FILE_NAME = 'resolute.lock';
/** A lock file that does not parse is being written right now — or was cut off by a crash this long ago. */
const HALF_WRITTEN_GRACE_MS = 10_000;
const ATTEMPTS = 5;

export interface LockHolder {
  pid: number;
  nonce: string;
  host: string;
  /** `<boot id>:<start time in clock ticks>` from /proc, or null where there is no /proc. */
  processStart: string | null;
  /** ISO time the lock was taken. */
  since?: string;
}

export class DataFolderLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly lockPath: string,
    /** Null when the lock file could not be read (another copy is writing it). */
    readonly holder: LockHolder | null,
  ) {
    super(
      holder
        ? `Resolute is already running on this data folder (${dataDir}), as process ${holder.pid}` +
            `${holder.host === hostname() ? '' : ` on ${holder.host}`}${holder.since ? ` since ${holder.since}` : ''}. ` +
            'Use that one or stop it first; a second copy needs another --data-dir.'
        : `Another Resolute is starting on this data folder (${dataDir}): ${lockPath} is being written. ` +
            'If none is running, delete that file and start again.',
    );
    this.name = 'DataFolderLockedError';
  }
}

export interface DataLock {
  readonly path: string;
  /** The holder whose stale lock was taken over, or null. */
  readonly tookOverFrom: LockHolder | null;
  release(): void;
}

type Found = { text: string; holder: LockHolder } | { text: string; holder: null; ageMs: number } | null;

/** Nonces of the locks this process holds: its own pid in a lock file is alive only if listed here. */
const heldHere = new Set<string>();

/** Take the lock of `dataDir`, or throw DataFolderLockedError naming who holds it. */
export function acquireDataLock(dataDir: string): DataLock {
  const path = join(dataDir, LOCK_FILE_NAME);
  const me: LockHolder = {
    pid: process.pid,
    nonce: randomUUID(),
    host: hostname(),
    processStart: processStart(process.pid),
    since: new Date().toISOString(),
  };
  let tookOverFrom: LockHolder | null = null;
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    if (tryCreate(path, me)) return held(path, me, tookOverFrom);
    const found = readLock(path);
    if (found === null) continue;
    if (found.holder ? isAlive(found.holder) : found.ageMs < HALF_WRITTEN_GRACE_MS)
      throw new DataFolderLockedError(dataDir, path, found.holder);
    if (removeIfUnchanged(path, found.text)) tookOverFrom = found.holder;
  }
  throw new DataFolderLockedError(dataDir, path, readLock(path)?.holder ?? null);
}

function tryCreate(path: string, me: LockHolder): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, JSON.stringify(me));
  } finally {
    closeSync(fd);
  }
  return true;
}

function held(path: string, me: LockHolder, tookOverFrom: LockHolder | null): DataLock {
  heldHere.add(me.nonce);
  const release = (): void => {
    process.off('exit', release);
    heldHere.delete(me.nonce);
    // Only our own lock: after a takeover by someone else the file is theirs.
    if (readLock(path)?.holder?.nonce === me.nonce) unlinkSync(path);
  };
  // Ctrl+C and other exits that skip dispose still remove the file; SIGKILL leaves it, to be found stale.
  process.on('exit', release);
  return { path, tookOverFrom, release };
}

function readLock(path: string): Found {
  let text: string;
  let ageMs: number;
  try {
    text = readFileSync(path, 'utf8');
    ageMs = Date.now() - statSync(path).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid === 'number' && typeof value.nonce === 'string' && typeof value.host === 'string')
      return { text, holder: { processStart: null, ...value } as LockHolder };
  } catch {
    // Half-written: judged by its age below.
  }
  return { text, holder: null, ageMs };
}

function isAlive(holder: LockHolder): boolean {
  // A process on another machine (a shared folder) cannot be checked: assume it runs.
  if (holder.host !== hostname()) return true;
  if (holder.pid === process.pid) return heldHere.has(holder.nonce);
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: it exists, as another user's process.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const now = processStart(holder.pid);
  return holder.processStart === null || now === null || now === holder.processStart;
}

/**
 * Remove a stale lock, but only the one judged stale: it is first moved to a name of our own, and
 * if what moved is not what was read (another copy took over meanwhile), it is put back.
 */
function removeIfUnchanged(path: string, staleText: string): boolean {
  const aside = `${path}.stale-${randomUUID()}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  const moved = readFileSync(aside, 'utf8');
  if (moved !== staleText) {
    try {
      linkSync(aside, path);
    } catch {
      // Yet another lock appeared meanwhile; it wins and ours is dropped.
    }
  }
  unlinkSync(aside);
  return moved === staleText;
}

/** `<boot id>:<start time>` of a process from /proc (Linux), or null where that cannot be read. */
function processStart(pid: number): string | null {
  try {
    const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may itself hold spaces and parentheses; start time is field 22.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return `${bootId}:${fields[19]}`;
  } catch {
    return null;
  }
}

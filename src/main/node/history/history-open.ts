// Opens the history database file safely: checks it read-only first (newer schema? damaged?),
// refuses with a HistoryDatabaseError without writing a byte, and only then opens it read-write,
// sets the pragmas and runs the migrations. The full integrity check runs here only when
// history-integrity.ts says it must (unclean shutdown, damage found before); otherwise the store
// runs it in the background. Before a newer Resolute migrates a file it keeps a copy of it as it
// was (VACUUM INTO), so going back to the older version stays possible (docs/architecture.md,
// "Where data lives"). Used by openHistoryStore in sqlite-history-store.ts.
import { closeSync, existsSync, mkdirSync, openSync, renameSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { PRIVATE_FILE_MODE, tighten } from '../safe-files';
import { HistoryDatabaseError } from './history-errors';
import { DAMAGE_MARKER_SUFFIX, checkNow, needsCheckBeforeOpen } from './history-integrity';
import { LATEST_SCHEMA_VERSION, migrate, readSchemaVersion } from './migrations';
import { errorText } from '../../../shared/text';

/** How long a write waits for another connection's lock before failing, in ms. */
const BUSY_TIMEOUT_MS = 5_000;

/** SQLite keeps these next to the database; they move aside with it. */
const SIDE_FILE_SUFFIXES = ['-wal', '-shm', '-journal', DAMAGE_MARKER_SUFFIX] as const;

export interface OpenedHistoryDatabase {
  db: Database.Database;
  /** Where a damaged file was moved by `startFresh`, or null when nothing was moved. */
  movedAsideTo: string | null;
  /** The integrity check ran before opening; false when it is left to the background. */
  checked: boolean;
  /** The copy kept before this start migrated the file to a newer schema, or null when none ran. */
  backup: { path: string; from: number; to: number } | null;
}

export function openHistoryDatabase(path: string, options: { startFresh?: boolean } = {}): OpenedHistoryDatabase {
  const fullPath = resolve(path);
  let movedAsideTo: string | null = null;
  const checked = !existsSync(fullPath) || needsCheckBeforeOpen(fullPath);
  try {
    mkdirSync(dirname(fullPath), { recursive: true });
  } catch (error) {
    throw new HistoryDatabaseError('unreadable', fullPath, { detail: describeCause(error), cause: error });
  }
  // Before the first open: SQLite gives the -wal and -shm files it creates the database file's mode.
  for (const suffix of ['', ...SIDE_FILE_SUFFIXES]) tighten(fullPath + suffix, PRIVATE_FILE_MODE);
  try {
    checkExistingFile(fullPath, checked);
  } catch (error) {
    // Only a damaged file is ever moved, and only when the person agreed: a newer schema belongs
    // to a newer Resolute, and an unreadable file is a permissions problem that moving won't fix.
    if (!(error instanceof HistoryDatabaseError) || error.kind !== 'damaged' || options.startFresh !== true)
      throw error;
    movedAsideTo = moveAside(fullPath);
  }
  createPrivately(fullPath);
  // A file moved aside leaves no file here: the new one needs no check.
  const { db, backup } = openReadWrite(fullPath);
  return { db, movedAsideTo, checked: checked || movedAsideTo !== null, backup };
}

/**
 * A copy of a file at an older schema, made before the migrations change it: `<path>.schema-<from>.bak`
 * beside it (a number added when one is there already). VACUUM INTO writes a whole, compact,
 * consistent database — the WAL's commits included — that an older Resolute opens as it was.
 */
function keepCopyBeforeMigration(db: Database.Database, path: string, from: number): string {
  let target = `${path}.schema-${from}.bak`;
  for (let n = 2; existsSync(target); n += 1) target = `${path}.schema-${from}-${n}.bak`;
  db.prepare('VACUUM INTO ?').run(target);
  tighten(target, PRIVATE_FILE_MODE);
  return target;
}

/**
 * Reads the file through a read-only connection, so that nothing — not even a WAL checkpoint or a
 * hot-journal rollback on close — can change a file we are about to refuse. The schema version is
 * always read (a few bytes); `fullCheck` adds quick_check rather than integrity_check: it finds
 * damaged pages and b-trees in O(N) and skips only the index-vs-table cross-check.
 */
function checkExistingFile(path: string, fullCheck: boolean): void {
  if (!existsSync(path)) return;
  if (statSync(path).isDirectory())
    throw new HistoryDatabaseError('unreadable', path, { detail: 'the path is a folder' });
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS, ...nativeBinding() });
    const foundVersion = readSchemaVersion(db);
    if (foundVersion > LATEST_SCHEMA_VERSION) {
      throw new HistoryDatabaseError('newer_version', path, { foundVersion, knownVersion: LATEST_SCHEMA_VERSION });
    }
    if (fullCheck) checkNow(db, path);
  } catch (error) {
    throw toHistoryError(error, path);
  } finally {
    db?.close();
  }
}

// synchronous = FULL, not NORMAL. In WAL mode NORMAL already survives a process crash or SIGKILL
// (a committed transaction is in the OS page cache, which outlives the process), but it may lose
// the last commits on power loss or an OS crash. The port promises writes "durable on return", and
// a turn ends every few seconds at most, so one fsync of the WAL per ended turn or decision is a
// cost nobody will see. foreign_keys is per connection and off in stock SQLite (better-sqlite3's
// build turns it on, but the ON DELETE CASCADE of deleteSession must not hang on a build flag).
// busy_timeout (the `timeout` option) lets a second process, e.g. a CLI run reading the same
// history, wait for a lock instead of failing at once.
function openReadWrite(path: string): { db: Database.Database; backup: OpenedHistoryDatabase['backup'] } {
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { timeout: BUSY_TIMEOUT_MS, ...nativeBinding() });
    const mode = String(db.pragma('journal_mode = WAL', { simple: true }));
    if (mode.toLowerCase() !== 'wal') throw new Error(`could not switch to WAL mode (journal_mode is ${mode})`);
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    const from = readSchemaVersion(db);
    // A new file (version 0) has nothing to go back to.
    const backup =
      from > 0 && from < LATEST_SCHEMA_VERSION
        ? { path: keepCopyBeforeMigration(db, path, from), from, to: LATEST_SCHEMA_VERSION }
        : null;
    migrate(db);
    return { db, backup };
  } catch (error) {
    db?.close();
    throw toHistoryError(error, path);
  }
}

/** A new history starts as an empty file of mode 0600 (SQLite would make it 0644), which SQLite takes as an empty database. */
function createPrivately(path: string): void {
  try {
    closeSync(openSync(path, 'wx', PRIVATE_FILE_MODE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
      throw new HistoryDatabaseError('unreadable', path, { detail: describeCause(error), cause: error });
  }
}

/**
 * Moves `<path>` to `<path>.damaged-<timestamp>`. The -wal/-shm files go first: were we stopped
 * half-way, a stale WAL left next to a new database would be replayed into it.
 */
function moveAside(path: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  let target = `${path}.damaged-${stamp}`;
  for (let n = 2; existsSync(target); n += 1) target = `${path}.damaged-${stamp}-${n}`;
  try {
    for (const suffix of SIDE_FILE_SUFFIXES) {
      if (existsSync(path + suffix)) renameSync(path + suffix, target + suffix);
    }
    renameSync(path, target);
  } catch (error) {
    throw new HistoryDatabaseError('unreadable', path, {
      detail: `could not move it aside: ${describeCause(error)}`,
      cause: error,
    });
  }
  return target;
}

function toHistoryError(error: unknown, path: string): HistoryDatabaseError {
  if (error instanceof HistoryDatabaseError) return error;
  const code = error instanceof Database.SqliteError ? error.code : undefined;
  // NOTADB: not an SQLite file at all; CORRUPT and its extended codes: a malformed page or schema.
  const isDamaged = code !== undefined && (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'));
  const kind = isDamaged ? 'damaged' : 'unreadable';
  return new HistoryDatabaseError(kind, path, { detail: describeCause(error), cause: error });
}

function describeCause(error: unknown): string {
  if (error instanceof Database.SqliteError) return `SQLite: ${error.message} [${error.code}]`;
  return errorText(error);
}

/**
 * The desktop app runs under Electron, whose ABI differs from Node's: `npm start` compiles an
 * Electron build of the addon and names it in RESOLUTE_SQLITE_BINDING (scripts/electron-native.js).
 * Under Node (tests, browser and RPC modes) the variable is unset and the normal build loads.
 */
export function nativeBinding(): { nativeBinding?: string } {
  const binding = process.env.RESOLUTE_SQLITE_BINDING;
  return binding ? { nativeBinding: binding } : {};
}

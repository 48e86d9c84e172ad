// The history file's integrity check (PRAGMA quick_check), kept off the start-up path: it reads
// every page, seconds at a million turns. history-open.ts runs it before opening only after an
// unclean shutdown (a -wal file left behind) or when a previous check found damage (the marker
// file); otherwise the store runs it later in a worker thread (checkIntegrityInBackground), so the
// event loop — and the retry timers on it — never waits for it.
import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { HistoryDatabaseError } from './history-errors';

/**
 * SQLite deletes the -wal file when the last read-write connection closes cleanly. One left with
 * frames in it means a crash or a kill (or another process has the file open); an empty one is what
 * a read-only connection leaves, and holds nothing to recover.
 */
const WAL_SUFFIX = '-wal';
/** Written when a background check found damage, so the next start checks before opening and refuses. */
export const DAMAGE_MARKER_SUFFIX = '-integrity';
/** At most this many problems are listed in the message. */
const MAX_PROBLEMS = 5;

/** Must the file be checked before it is opened? After an unclean shutdown, or damage found before. */
export function needsCheckBeforeOpen(path: string): boolean {
  return fileSize(path + WAL_SUFFIX) > 0 || existsSync(path + DAMAGE_MARKER_SUFFIX);
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** quick_check on an open (read-only) connection; throws HistoryDatabaseError('damaged') on any problem. */
export function checkNow(db: Database.Database, path: string): void {
  const problems = (db.pragma(`quick_check(${MAX_PROBLEMS})`) as { quick_check: string }[]).map((r) => r.quick_check);
  const damage = toDamage(problems, path);
  if (damage) throw damage;
  // A file found damaged before and fine now (restored from a backup, say) is trusted again.
  rmSync(path + DAMAGE_MARKER_SUFFIX, { force: true });
}

function toDamage(problems: string[], path: string): HistoryDatabaseError | null {
  if (problems.length === 1 && problems[0] === 'ok') return null;
  const detail = `integrity check: ${problems.join('; ')}`.replace(/\s+/g, ' ');
  return new HistoryDatabaseError('damaged', path, { detail });
}

// Runs in the worker (CommonJS, evaluated from this string so that no separate entry file has to
// be built and shipped): its own read-only connection, the check, one message back.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
let db;
try {
  db = new Database(workerData.path, { readonly: true, fileMustExist: true, timeout: 5000, ...workerData.binding });
  const rows = db.pragma('quick_check(${MAX_PROBLEMS})');
  parentPort.postMessage({ problems: rows.map((row) => row.quick_check) });
} catch (error) {
  parentPort.postMessage({ failure: String(error && error.message), code: error && error.code });
} finally {
  if (db) db.close();
}
`;

type WorkerReply = { problems: string[] } | { failure: string; code?: string };

export interface BackgroundCheck {
  /** Damage found (the marker is written before it resolves), or null when the file is sound or could not be checked. */
  readonly result: Promise<HistoryDatabaseError | null>;
  /** Stop the check (closing the store); `result` then resolves null. */
  stop(): void;
}

/** Run quick_check in a worker thread on its own read-only connection. */
export function checkIntegrityInBackground(path: string, binding: { nativeBinding?: string }): BackgroundCheck {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, driver, binding } });
  const result = new Promise<HistoryDatabaseError | null>((resolve) => {
    worker.once('message', (reply: WorkerReply) => {
      if ('problems' in reply) return resolve(recordDamage(toDamage(reply.problems, path), path));
      const corrupt = reply.code === 'SQLITE_NOTADB' || reply.code?.startsWith('SQLITE_CORRUPT') === true;
      const damage = corrupt ? new HistoryDatabaseError('damaged', path, { detail: reply.failure }) : null;
      resolve(recordDamage(damage, path));
    });
    worker.once('error', () => resolve(null));
    worker.once('exit', () => resolve(null));
  });
  return { result, stop: () => void worker.terminate() };
}

function recordDamage(damage: HistoryDatabaseError | null, path: string): HistoryDatabaseError | null {
  if (damage) {
    try {
      writeFileSync(path + DAMAGE_MARKER_SUFFIX, damage.detail ?? 'integrity check failed', { mode: 0o600 });
    } catch {
      // The report still goes out; only the next start's early refusal is lost.
    }
  }
  return damage;
}

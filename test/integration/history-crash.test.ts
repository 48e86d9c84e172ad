// Crash safety of the history store (docs/performance.md, "What a turn costs on disk": the "never
// lose a turn" promise — a turn reported is stored, through a crash). A child process
// (fixtures/history-writer.ts) appends turns and prints each id after appendTurn returned; we
// SIGKILL it at random moments, round after round on the same file, and after each kill check that
// the file is intact and holds every id the child printed, and that every session row's turn counts
// match its turns.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openHistoryStore } from '../../src/main/node/history/sqlite-history-store';
import { SESSION_COUNTS_BY_DEFINITION } from '../fixtures/history-files';

const HERE = dirname(fileURLToPath(import.meta.url));
const WRITER = join(HERE, 'fixtures', 'history-writer.ts');
const REPO_ROOT = resolve(HERE, '..', '..');
const ROUNDS = 20;
/** Every few rounds the kill lands while the child is still starting, opening or migrating. */
const EARLY_KILL_EVERY = 5;
const MAX_KILL_DELAY_MS = 250;

const dir = mkdtempSync(join(tmpdir(), 'resolute-history-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface RoundResult {
  printedIds: string[];
  wasReady: boolean;
}

/** Runs the writer until a random moment, SIGKILLs it, and returns the ids it printed. */
function runAndKill(dbPath: string, sessionId: string, killEarly: boolean): Promise<RoundResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, dbPath, sessionId], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timer: ReturnType<typeof setTimeout> | undefined;
    const kill = (): void => {
      child.kill('SIGKILL');
    };
    if (killEarly) timer = setTimeout(kill, Math.random() * 400);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      if (timer === undefined && stdout.includes('ready\n'))
        timer = setTimeout(kill, Math.random() * MAX_KILL_DELAY_MS);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (timer !== undefined) clearTimeout(timer);
      if (signal !== 'SIGKILL') {
        reject(new Error(`writer exited by itself (code ${code}, signal ${signal}): ${stderr}`));
        return;
      }
      // A line without its newline was cut by the kill mid-print: it does not count as printed.
      const lines = stdout.split('\n').slice(0, -1);
      resolvePromise({ printedIds: lines.filter((line) => line !== 'ready'), wasReady: lines.includes('ready') });
    });
  });
}

function checkFile(dbPath: string): { turnIds: Set<string>; seqGaps: number; countDrift: number } {
  const db = new Database(dbPath, { readonly: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const turnIds = new Set(db.prepare('SELECT id FROM turns').pluck().all() as string[]);
    // Each turn's seq is taken and written in one transaction: a kill leaves no hole in a session.
    const seqGaps = Number(
      db
        .prepare('SELECT count(*) FROM (SELECT session_id FROM turns GROUP BY session_id HAVING max(seq) <> count(*))')
        .pluck()
        .get(),
    );
    // The counts in the session row are written by a trigger in the turn's own transaction: a kill
    // between a turn and its count cannot happen, so no row may disagree with its turns.
    const countDrift = Number(
      db
        .prepare(
          `SELECT count(*) FROM sessions s JOIN (${SESSION_COUNTS_BY_DEFINITION}) d ON d.id = s.id
           WHERE s.turn_count <> d.turns OR s.errored_turn_count <> d.errored`,
        )
        .pluck()
        .get(),
    );
    return { turnIds, seqGaps, countDrift };
  } finally {
    db.close();
  }
}

describe('history store under SIGKILL', () => {
  it('keeps the file intact and every turn whose id was printed, over many kills', async () => {
    const dbPath = join(dir, 'history.db');
    const allPrinted: string[] = [];
    let readyRounds = 0;
    const startedAt = Date.now();
    for (let round = 0; round < ROUNDS; round += 1) {
      const result = await runAndKill(dbPath, `round-${round}`, round % EARLY_KILL_EVERY === 0);
      if (result.wasReady) readyRounds += 1;
      allPrinted.push(...result.printedIds);
      // An early kill can land before the child created the file at all: nothing to check yet.
      if (!existsSync(dbPath)) {
        expect(allPrinted).toEqual([]);
        continue;
      }
      const { turnIds, seqGaps, countDrift } = checkFile(dbPath);
      expect(result.printedIds.filter((id) => !turnIds.has(id))).toEqual([]);
      expect(seqGaps).toBe(0);
      expect(countDrift).toBe(0);
    }
    // The store itself opens the file after all the kills (quick_check, migrations) and finds them all.
    const store = openHistoryStore(dbPath);
    try {
      const stored = new Set(
        store.listSessions({ limit: 500 }).flatMap((s) => (store.getSession(s.id)?.turns ?? []).map((t) => t.id)),
      );
      expect(allPrinted.filter((id) => !stored.has(id))).toEqual([]);
      expect(store.search('weather').length).toBeGreaterThan(0);
    } finally {
      store.close();
    }
    const fts = new Database(dbPath);
    try {
      fts.exec("INSERT INTO turns_fts (turns_fts, rank) VALUES ('integrity-check', 1)");
    } finally {
      fts.close();
    }
    // The kills must have landed while turns were being written, or the test proves nothing.
    expect(readyRounds).toBeGreaterThanOrEqual(ROUNDS - ROUNDS / EARLY_KILL_EVERY);
    expect(allPrinted.length).toBeGreaterThan(ROUNDS * 5);
    console.info(
      `history crash test: ${ROUNDS} kills, ${allPrinted.length} printed turns, all stored, ${Date.now() - startedAt} ms`,
    );
  }, 90_000);
});

// Retry chains a crash or a kill cut off: a chain is `pending` only while its process runs, so at
// start every pending chain left in the history belongs to a process that is gone. They are closed
// as `interrupted` (docs/retry-policy.md, "Chain outcomes") and returned, for the start-up notice;
// the sessions of interrupted chains are where a window offers to continue one (docs/retry-policy.md,
// "Resume after a restart"), and the scheduled retries among them, which the start takes up again
// ("Scheduled retries"). AppServices calls these through SqliteHistoryStore.
import type Database from 'better-sqlite3';
import { codedNotice } from '../../../shared/notices';
import { type NoticeText } from '../../../shared/notice-params';
import { INTERRUPTED_OUTCOME } from '../../../shared/error-category';
import { INTERRUPTED_FINAL_ERROR } from '../../core/retry';

export interface InterruptedChain {
  id: string;
  sessionId: string;
  /** Retries started before the process stopped. */
  attempts: number;
}

/**
 * Close every pending chain as interrupted at `now` (one transaction), with the final error a quit
 * gives such a chain; returns the chains closed — but for those with a schedule, which the start
 * takes up again (scheduledChains), so they are not lost.
 */
export function closeInterruptedChains(db: Database.Database, now: number): InterruptedChain[] {
  const close = db.transaction(() => {
    const chains = db
      .prepare<[], InterruptedChain>(
        "SELECT id, session_id AS sessionId, attempts FROM retry_chains WHERE outcome = 'pending' AND scheduled_at IS NULL ORDER BY n",
      )
      .all();
    db.prepare<[string, number, string]>(
      "UPDATE retry_chains SET outcome = ?, ended_at = ?, final_error = coalesce(final_error, ?) WHERE outcome = 'pending'",
    ).run(INTERRUPTED_OUTCOME, now, INTERRUPTED_FINAL_ERROR);
    return chains;
  });
  return close.immediate();
}

/** The sessions of interrupted chains, newest chain first (the start-up offers the newest one). */
export function interruptedSessions(db: Database.Database, limit: number): string[] {
  // The outcome is written into the SQL, not bound: only then can SQLite use the partial index on it.
  return db
    .prepare<[number], { session_id: string }>(
      `SELECT session_id FROM retry_chains WHERE outcome = '${INTERRUPTED_OUTCOME}' GROUP BY session_id
       ORDER BY max(started_at) DESC LIMIT ?`,
    )
    .all(limit)
    .map((row) => row.session_id);
}

/** A chain's scheduled retry time, or null once it went or ended (docs/retry-policy.md, "Scheduled retries"). */
export function scheduleChain(db: Database.Database, chainId: string, at: number | null): void {
  db.prepare<[number | null, string]>('UPDATE retry_chains SET scheduled_at = ? WHERE id = ?').run(at, chainId);
}

export interface ScheduledChain {
  chainId: string;
  sessionId: string;
  /** Epoch ms the retry was scheduled for. */
  scheduledAt: number;
}

/**
 * The schedules a quit or a crash left (their chains interrupted, their time kept), soonest first:
 * the next start takes them up again.
 */
export function scheduledChains(db: Database.Database, limit: number): ScheduledChain[] {
  return db
    .prepare<[number], ScheduledChain>(
      `SELECT id AS chainId, session_id AS sessionId, scheduled_at AS scheduledAt FROM retry_chains
       WHERE scheduled_at IS NOT NULL AND outcome = '${INTERRUPTED_OUTCOME}' ORDER BY scheduled_at LIMIT ?`,
    )
    .all(limit);
}

/** The start-up notice for the chains closed at start. */
export function interruptedNotice(count: number): NoticeText {
  const message =
    count === 1
      ? '1 retry chain was cut off when Resolute last stopped; it is marked interrupted in the history.'
      : `${count} retry chains were cut off when Resolute last stopped; they are marked interrupted in the history.`;
  return codedNotice('interrupted_chains', { count }, message);
}

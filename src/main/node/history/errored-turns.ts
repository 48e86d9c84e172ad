// The history's errored filter: one entry per errored exchange (a retry chain's latest failed
// attempt heads it, or a failure outside any chain), with the chain, every failed attempt and every
// decision. HistoryQueries owns one instance; three queries whatever the number of entries.
import type Database from 'better-sqlite3';
import type { ErroredTurn, RetryChainRecord } from '../../../shared/history';
import {
  TURN_COLUMNS,
  toChainRecord,
  toDecisionRecord,
  toTurnRecord,
  toTurnRecords,
  turnColumnsOf,
  type DecisionRow,
  type TurnColumns,
  type TurnRow,
} from './history-rows';

/** A JSON array of ids bound as one parameter: `IN (SELECT value FROM json_each(?))`. */
export const IDS = 'SELECT value FROM json_each(?)';

/**
 * An errored turn that stands for its exchange: the chain's latest failed attempt, or a failure
 * outside any chain. One per retry chain, so a chain of four failed attempts is listed once.
 */
const CHAIN_HEAD = `(t.chain_id IS NULL OR t.n = (SELECT max(t2.n) FROM turns t2
  WHERE t2.chain_id = t.chain_id AND t2.stop_reason = 'error'))`;

/** An errored turn with its session's title and its chain's columns (null without a chain row). */
interface ErroredRow extends TurnRow {
  session_title: string;
  chain_outcome: string | null;
  chain_attempts: number | null;
  chain_final_error: string | null;
  chain_started_at: number | null;
  chain_ended_at: number | null;
}

function erroredChain(row: ErroredRow): RetryChainRecord | null {
  if (row.chain_id === null || row.chain_outcome === null) return null;
  return toChainRecord({
    id: row.chain_id,
    session_id: row.session_id,
    outcome: row.chain_outcome,
    attempts: row.chain_attempts ?? 0,
    final_error: row.chain_final_error,
    started_at: row.chain_started_at ?? 0,
    ended_at: row.chain_ended_at,
  });
}

function groupBy<T>(items: T[], key: (item: T) => string | null): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    if (k === null) continue;
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

export class ErroredTurnQueries {
  private readonly headsStmt: Database.Statement<[number], ErroredRow>;
  private readonly attemptsStmt: Database.Statement<[string], TurnColumns>;
  private readonly decisionsStmt: Database.Statement<[string, string], DecisionRow>;

  constructor(db: Database.Database) {
    // The chain comes in the same row (a LEFT JOIN on its unique id).
    this.headsStmt = db.prepare(
      `SELECT ${TURN_COLUMNS}, s.title AS session_title, c.outcome AS chain_outcome, c.attempts AS chain_attempts,
         c.final_error AS chain_final_error, c.started_at AS chain_started_at, c.ended_at AS chain_ended_at
       FROM turns t JOIN sessions s ON s.id = t.session_id LEFT JOIN retry_chains c ON c.id = t.chain_id
       WHERE t.stop_reason = 'error' AND ${CHAIN_HEAD} ORDER BY t.created_at DESC, t.n DESC LIMIT ?`,
    );
    this.attemptsStmt = db
      .prepare<[string], TurnColumns>(
        `SELECT ${TURN_COLUMNS} FROM turns t WHERE t.chain_id IN (${IDS}) AND t.stop_reason = 'error' ORDER BY t.seq`,
      )
      .raw();
    // A UNION, not an OR: each arm uses its own index (by turn, by chain).
    this.decisionsStmt = db.prepare(
      `SELECT * FROM retry_decisions WHERE turn_id IN (${IDS})
       UNION SELECT * FROM retry_decisions WHERE chain_id IN (${IDS}) ORDER BY n`,
    );
  }

  /** The newest `limit` errored exchanges; run inside a read transaction for one snapshot. */
  list(limit: number): ErroredTurn[] {
    const rows = this.headsStmt.all(limit);
    const chainIds = JSON.stringify(rows.flatMap((row) => (row.chain_id === null ? [] : [row.chain_id])));
    const loneIds = JSON.stringify(rows.flatMap((row) => (row.chain_id === null ? [row.id] : [])));
    const attempts = groupBy(toTurnRecords(this.attemptsStmt.all(chainIds)), (turn) => turn.chainId);
    const decisions = this.decisionsStmt.all(loneIds, chainIds).map((row) => ({ row, record: toDecisionRecord(row) }));
    const byChain = groupBy(decisions, (d) => d.row.chain_id);
    const byTurn = groupBy(decisions, (d) => d.row.turn_id);
    return rows.map((row) => {
      const chainId = row.chain_id;
      // A chain's head is among its attempts: its message is parsed once.
      const turn =
        (chainId === null ? undefined : attempts.get(chainId)?.find((a) => a.id === row.id)) ??
        toTurnRecord(turnColumnsOf(row));
      return {
        turn,
        attempts: chainId === null ? [turn] : (attempts.get(chainId) ?? [turn]),
        session: { id: row.session_id, title: row.session_title },
        chain: erroredChain(row),
        decisions: ((chainId === null ? byTurn.get(row.id) : byChain.get(chainId)) ?? []).map((d) => d.record),
      };
    });
  }
}

// The read side of the SQLite history: listing, session detail, full-text search, errored turns
// and the resume context. SqliteHistoryStore owns one instance and delegates HistoryReader to it;
// every statement is prepared once, in the constructor. Unknown ids give undefined or [].
import type Database from 'better-sqlite3';
import type {
  ErroredTurn,
  RetryChainRecord,
  RetryDecisionRecord,
  SearchHit,
  SessionDetail,
  SessionSummary,
  TurnPage,
} from '../../../shared/history';
import type { ChatMessage } from '../../../shared/messages';
import { SNIPPET_CLOSE, SNIPPET_OPEN, TURN_PAGE_SIZE } from '../../../shared/history';
import {
  toChainRecord,
  toDecisionRecord,
  toTurnRecord,
  type ChainRow,
  type DecisionRow,
  type SessionRow,
  type TurnRow,
} from './history-rows';

/** Defaults and caps for the `limit` of list calls (counts of rows). */
const DEFAULT_LIST_LIMIT = 50;
const MAX_LIST_LIMIT = 500;
/** The largest page of turns one call returns (history.get without a limit reads them all). */
const MAX_PAGE_LIMIT = 1000;
/** Words of a search beyond this many are ignored (a pasted page should not build a huge query). */
const MAX_SEARCH_WORDS = 32;

// The counts are kept in the session row by triggers (migration-text-once.ts): no per-row count(*).
const SESSION_COLUMNS =
  's.id, s.title, s.created_at, s.updated_at, s.model, s.provider, s.workspace, s.turn_count, s.errored_turn_count';
const TURN_COLUMNS =
  't.id, t.session_id, t.seq, t.role, t.message_json, t.stop_reason, t.error_category, t.chain_id, t.created_at, t.cost_usd';
/** A JSON array of ids bound as one parameter: `IN (SELECT value FROM json_each(?))`. */
const IDS = 'SELECT value FROM json_each(?)';
/** Larger than any seq: "before" it means the newest page. */
const AFTER_LAST_SEQ = Number.MAX_SAFE_INTEGER;

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

interface SearchRow {
  turn_id: string;
  session_id: string;
  session_title: string;
  role: string;
  created_at: number;
  snippet: string;
}

export class HistoryQueries {
  private readonly listStmt: Database.Statement<[number, number], SessionRow>;
  private readonly sessionStmt: Database.Statement<[string], SessionRow>;
  private readonly turnsStmt: Database.Statement<[string], TurnRow>;
  private readonly pageStmt: Database.Statement<[string, number, number], TurnRow>;
  private readonly olderStmt: Database.Statement<[string, number], number>;
  private readonly chainsStmt: Database.Statement<[string], ChainRow>;
  private readonly decisionsStmt: Database.Statement<[string], DecisionRow>;
  private readonly chainsByIdStmt: Database.Statement<[string], ChainRow>;
  private readonly pageDecisionsStmt: Database.Statement<[string, string], DecisionRow>;
  private readonly erroredStmt: Database.Statement<[number], ErroredRow>;
  private readonly turnDecisionsStmt: Database.Statement<[string], DecisionRow>;
  private readonly searchStmt: Database.Statement<[string, number], SearchRow>;
  private readonly contextStmt: Database.Statement<[string], string>;
  // Multi-statement reads run in one read transaction, so what they return is one snapshot.
  private readonly readSession: (sessionId: string) => SessionDetail | undefined;
  private readonly readPage: (
    sessionId: string,
    beforeSeq: number,
    limit: number,
  ) => (TurnPage & { session: SessionSummary }) | undefined;
  private readonly readErroredTurns: (limit: number) => ErroredTurn[];

  constructor(db: Database.Database) {
    // Ties on the sort key fall back to the insertion order so that pages never overlap.
    this.listStmt = db.prepare(
      `SELECT ${SESSION_COLUMNS} FROM sessions s ORDER BY s.updated_at DESC, s.id DESC LIMIT ? OFFSET ?`,
    );
    this.sessionStmt = db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.id = ?`);
    this.turnsStmt = db.prepare(`SELECT ${TURN_COLUMNS} FROM turns t WHERE t.session_id = ? ORDER BY t.seq`);
    // Newest first down the (session_id, seq) index, LIMIT rows and no more; the caller reverses.
    this.pageStmt = db.prepare(
      `SELECT ${TURN_COLUMNS} FROM turns t WHERE t.session_id = ? AND t.seq < ? ORDER BY t.seq DESC LIMIT ?`,
    );
    this.olderStmt = db
      .prepare<[string, number], number>('SELECT EXISTS (SELECT 1 FROM turns WHERE session_id = ? AND seq < ?)')
      .pluck();
    this.chainsStmt = db.prepare('SELECT * FROM retry_chains WHERE session_id = ? ORDER BY started_at, n');
    this.decisionsStmt = db.prepare('SELECT * FROM retry_decisions WHERE session_id = ? ORDER BY n');
    this.chainsByIdStmt = db.prepare(`SELECT * FROM retry_chains WHERE id IN (${IDS}) ORDER BY started_at, n`);
    // A UNION, not an OR: each arm uses its own index (by turn, by chain).
    this.pageDecisionsStmt = db.prepare(
      `SELECT * FROM retry_decisions WHERE turn_id IN (${IDS})
       UNION SELECT * FROM retry_decisions WHERE chain_id IN (${IDS}) ORDER BY n`,
    );
    // The chain comes in the same row (a LEFT JOIN on its unique id); the decisions in one more query.
    this.erroredStmt = db.prepare(
      `SELECT ${TURN_COLUMNS}, s.title AS session_title, c.outcome AS chain_outcome, c.attempts AS chain_attempts,
         c.final_error AS chain_final_error, c.started_at AS chain_started_at, c.ended_at AS chain_ended_at
       FROM turns t JOIN sessions s ON s.id = t.session_id LEFT JOIN retry_chains c ON c.id = t.chain_id
       WHERE t.stop_reason = 'error' ORDER BY t.created_at DESC, t.n DESC LIMIT ?`,
    );
    this.turnDecisionsStmt = db.prepare(`SELECT * FROM retry_decisions WHERE turn_id IN (${IDS}) ORDER BY n`);
    this.searchStmt = db.prepare(
      `SELECT t.id AS turn_id, t.session_id, s.title AS session_title, t.role, t.created_at,
         snippet(turns_fts, 0, '${SNIPPET_OPEN}', '${SNIPPET_CLOSE}', '…', 16) AS snippet
       FROM turns_fts JOIN turns t ON t.n = turns_fts.rowid JOIN sessions s ON s.id = t.session_id
       WHERE turns_fts MATCH ? ORDER BY rank, t.created_at DESC LIMIT ?`,
    );
    // The retry controller drops errored assistant turns from the runtime context; aborted ones stay.
    this.contextStmt = db
      .prepare<[string], string>(
        `SELECT message_json FROM turns WHERE session_id = ? AND (stop_reason IS NULL OR stop_reason <> 'error') ORDER BY seq`,
      )
      .pluck();
    this.readSession = db.transaction((sessionId: string) => this.sessionDetail(sessionId));
    this.readPage = db.transaction((sessionId: string, beforeSeq: number, limit: number) => {
      const session = this.sessionSummary(sessionId);
      return session === undefined ? undefined : { session, ...this.turnPage(sessionId, beforeSeq, limit) };
    });
    this.readErroredTurns = db.transaction((limit: number) => this.erroredTurnRows(limit));
  }

  listSessions(options: { limit?: number; offset?: number } = {}): SessionSummary[] {
    const limit = clampCount(options.limit, DEFAULT_LIST_LIMIT, 1, MAX_LIST_LIMIT);
    const offset = clampCount(options.offset, 0, 0, Number.MAX_SAFE_INTEGER);
    return this.listStmt.all(limit, offset).map(toSessionSummary);
  }

  sessionSummary(sessionId: string): SessionSummary | undefined {
    const row = this.sessionStmt.get(sessionId);
    return row === undefined ? undefined : toSessionSummary(row);
  }

  /** Every turn of a session, or with `limit` its newest `limit` turns (and what they need). */
  getSession(sessionId: string, limit?: number): SessionDetail | undefined {
    if (limit === undefined) return this.readSession(sessionId);
    const page = this.turnPages(sessionId, AFTER_LAST_SEQ, limit);
    if (page === undefined) return undefined;
    const { sessionId: _id, ...detail } = page;
    return detail;
  }

  /** The `limit` turns before seq `beforeSeq`, oldest first; undefined for an unknown session. */
  sessionTurns(sessionId: string, beforeSeq: number, limit?: number): TurnPage | undefined {
    const page = this.turnPages(sessionId, beforeSeq, limit);
    if (page === undefined) return undefined;
    const { session: _session, ...rest } = page;
    return rest;
  }

  search(query: string, limit?: number): SearchHit[] {
    const match = toFtsQuery(query);
    if (match === null) return [];
    const rows = this.searchStmt.all(match, clampCount(limit, DEFAULT_LIST_LIMIT, 1, MAX_LIST_LIMIT));
    return rows.map((row) => ({
      sessionId: row.session_id,
      sessionTitle: row.session_title,
      turnId: row.turn_id,
      role: row.role as SearchHit['role'],
      snippet: row.snippet,
      createdAt: row.created_at,
    }));
  }

  erroredTurns(limit?: number): ErroredTurn[] {
    return this.readErroredTurns(clampCount(limit, DEFAULT_LIST_LIMIT, 1, MAX_LIST_LIMIT));
  }

  loadContext(sessionId: string): ChatMessage[] {
    return this.contextStmt.all(sessionId).map((json) => JSON.parse(json) as ChatMessage);
  }

  private turnPages(
    sessionId: string,
    beforeSeq: number,
    limit: number | undefined,
  ): (TurnPage & { session: SessionSummary }) | undefined {
    return this.readPage(
      sessionId,
      Math.max(1, Math.floor(beforeSeq)),
      clampCount(limit, TURN_PAGE_SIZE, 1, MAX_PAGE_LIMIT),
    );
  }

  private turnPage(sessionId: string, beforeSeq: number, limit: number): TurnPage {
    const turns = this.pageStmt.all(sessionId, beforeSeq, limit).reverse().map(toTurnRecord);
    const turnIds = JSON.stringify(turns.map((turn) => turn.id));
    const chainIds = turns.flatMap((turn) => (turn.chainId === null ? [] : [turn.chainId]));
    const decisions = this.pageDecisionsStmt.all(turnIds, JSON.stringify(chainIds)).map(toDecisionRecord);
    // A chain whose decisions name a turn of this page but whose turns all lie on another page still comes.
    for (const decision of decisions) if (decision.chainId !== null) chainIds.push(decision.chainId);
    return {
      sessionId,
      turns,
      chains: this.chainsByIdStmt.all(JSON.stringify([...new Set(chainIds)])).map(toChainRecord),
      decisions,
      hasOlderTurns: turns.length > 0 && this.olderStmt.get(sessionId, turns[0].seq) === 1,
    };
  }

  private sessionDetail(sessionId: string): SessionDetail | undefined {
    const session = this.sessionSummary(sessionId);
    if (session === undefined) return undefined;
    return {
      session,
      turns: this.turnsStmt.all(sessionId).map(toTurnRecord),
      chains: this.chainsStmt.all(sessionId).map(toChainRecord),
      decisions: this.decisionsStmt.all(sessionId).map(toDecisionRecord),
      hasOlderTurns: false,
    };
  }

  /** The errored turns with their chains, then all their decisions in one query (not two per turn). */
  private erroredTurnRows(limit: number): ErroredTurn[] {
    const rows = this.erroredStmt.all(limit);
    const decisionsByTurn = new Map<string, RetryDecisionRecord[]>();
    for (const row of this.turnDecisionsStmt.all(JSON.stringify(rows.map((r) => r.id)))) {
      const list = decisionsByTurn.get(row.turn_id as string) ?? [];
      list.push(toDecisionRecord(row));
      decisionsByTurn.set(row.turn_id as string, list);
    }
    return rows.map((row) => ({
      turn: toTurnRecord(row),
      session: { id: row.session_id, title: row.session_title },
      chain: erroredChain(row),
      decisions: decisionsByTurn.get(row.id) ?? [],
    }));
  }
}

/**
 * Turns what a person typed into an FTS5 query that cannot fail to parse: every word becomes a
 * quoted string (so `-`, `*`, `:`, `(`, `AND`, `NEAR` mean nothing), the words are ANDed, and the
 * last one also matches as a prefix, for search-as-you-type. Double quotes are dropped, not
 * escaped: `"exact phrase"` searches for the two words. Returns null when no word is left.
 */
export function toFtsQuery(input: string): string | null {
  const words = input
    .replace(/"/g, ' ')
    .split(/\s+/u)
    // A word with no letter or digit tokenizes to nothing; FTS5 would match nothing at all.
    .filter((word) => /[\p{L}\p{N}]/u.test(word))
    .slice(0, MAX_SEARCH_WORDS);
  if (words.length === 0) return null;
  return words.map((word, index) => (index === words.length - 1 ? `"${word}"*` : `"${word}"`)).join(' ');
}

function clampCount(value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.floor(value)));
}

function toSessionSummary(row: SessionRow): SessionSummary {
  return {
    id: row.id,
    title: row.title,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    model: row.model,
    provider: row.provider,
    turnCount: row.turn_count,
    erroredTurnCount: row.errored_turn_count,
    workspace: row.workspace,
  };
}

// The read side of the SQLite history: listing, session detail and its pages, full-text search,
// errored turns and the resume context. SqliteHistoryStore owns one instance and delegates
// HistoryReader to it; every statement is prepared once, in the constructor. Unknown ids give
// undefined or [].
import type Database from 'better-sqlite3';
import type {
  ErroredTurn,
  SearchHit,
  SessionDetail,
  SessionSummary,
  TurnPage,
  TurnRecord,
} from '../../../shared/history';
import { joinedContinuation, type ChatMessage } from '../../../shared/messages';
import { TURN_PAGE_SIZE, activePath } from '../../../shared/history';
import { ErroredTurnQueries, IDS } from './errored-turns';
import { HistorySearch } from './history-search';
import {
  TURN_COLUMNS,
  toChainRecord,
  toDecisionRecord,
  toTurnRecords,
  type ChainRow,
  type DecisionRow,
  type SessionRow,
  type TurnColumns,
  type TurnRow,
} from './history-rows';
import { decodeMessage } from './message-codec';
import type { AttachmentTable } from './attachment-table';
import { SESSION_TOTAL_COLUMNS, sessionUsageOf } from './session-totals';

/** Defaults and caps for the `limit` of list calls (counts of rows). */
const DEFAULT_LIST_LIMIT = 50;
const MAX_LIST_LIMIT = 500;
/** The largest page of turns one call returns (history.get without a limit reads them all). */
const MAX_PAGE_LIMIT = 1000;
/** Larger than any seq: "before" it means the newest page. */
const AFTER_LAST_SEQ = Number.MAX_SAFE_INTEGER;

// The counts are kept in the session row by triggers (session-counts.ts): no per-row count(*).
// turn_count counts exchanges (the person's messages); errored_turn_count the exchanges that ended
// in an error, once per chain: a chain that recovered, is still retrying, or went to compaction did not.
const SESSION_COLUMNS =
  's.id, s.title, s.created_at, s.updated_at, s.model, s.provider, s.workspace, s.turn_count, s.errored_turn_count, ' +
  SESSION_TOTAL_COLUMNS;

/**
 * What the resume context reads of a turn: its place on the path (branchFrom named as activePath
 * reads it, so rows need no copy), its message and the columns the codec needs.
 */
type ContextRow = Pick<TurnRow, 'seq' | 'role' | 'message_json' | 'created_at' | 'stop_reason'> & {
  branchFrom: number | null;
};

export class HistoryQueries {
  private readonly listStmt: Database.Statement<[number, number], SessionRow>;
  private readonly sessionStmt: Database.Statement<[string], SessionRow>;
  private readonly turnsStmt: Database.Statement<[string], TurnColumns>;
  private readonly pageStmt: Database.Statement<[string, number, number], TurnColumns>;
  private readonly olderStmt: Database.Statement<[string, number], number>;
  private readonly cutStmt: Database.Statement<[string, number], number | null>;
  private readonly chainsStmt: Database.Statement<[string], ChainRow>;
  private readonly decisionsStmt: Database.Statement<[string], DecisionRow>;
  private readonly chainsByIdStmt: Database.Statement<[string], ChainRow>;
  private readonly pageDecisionsStmt: Database.Statement<[string, string], DecisionRow>;
  private readonly contextStmt: Database.Statement<[string], ContextRow>;
  private readonly errored: ErroredTurnQueries;
  private readonly searcher: HistorySearch;
  // Multi-statement reads run in one read transaction, so what they return is one snapshot.
  private readonly readSession: (sessionId: string) => SessionDetail | undefined;
  private readonly readPage: (
    sessionId: string,
    beforeSeq: number,
    limit: number,
  ) => (TurnPage & { session: SessionSummary }) | undefined;
  private readonly readErroredTurns: (limit: number) => ErroredTurn[];

  constructor(
    db: Database.Database,
    private readonly attachments: AttachmentTable,
  ) {
    // Ties on the sort key fall back to the insertion order so that pages never overlap.
    this.listStmt = db.prepare(
      `SELECT ${SESSION_COLUMNS} FROM sessions s ORDER BY s.updated_at DESC, s.id DESC LIMIT ? OFFSET ?`,
    );
    this.sessionStmt = db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.id = ?`);
    // Raw statements (value arrays, see TURN_COLUMNS): the reads of many turns.
    this.turnsStmt = db
      .prepare<[string], TurnColumns>(`SELECT ${TURN_COLUMNS} FROM turns t WHERE t.session_id = ? ORDER BY t.seq`)
      .raw();
    // Newest first down the (session_id, seq) index, LIMIT rows and no more; the caller reverses.
    this.pageStmt = db
      .prepare<[string, number, number], TurnColumns>(
        `SELECT ${TURN_COLUMNS} FROM turns t WHERE t.session_id = ? AND t.seq < ? ORDER BY t.seq DESC LIMIT ?`,
      )
      .raw();
    this.olderStmt = db
      .prepare<[string, number], number>('SELECT EXISTS (SELECT 1 FROM turns WHERE session_id = ? AND seq < ?)')
      .pluck();
    // The branches from a seq on (turns_branches lists them): what they replaced is not on the path.
    this.cutStmt = db
      .prepare<[string, number], number | null>(
        'SELECT min(branch_from) FROM turns WHERE session_id = ? AND seq >= ? AND branch_from IS NOT NULL',
      )
      .pluck();
    this.chainsStmt = db.prepare('SELECT * FROM retry_chains WHERE session_id = ? ORDER BY started_at, n');
    this.decisionsStmt = db.prepare('SELECT * FROM retry_decisions WHERE session_id = ? ORDER BY n');
    this.chainsByIdStmt = db.prepare(`SELECT * FROM retry_chains WHERE id IN (${IDS}) ORDER BY started_at, n`);
    // A UNION, not an OR: each arm uses its own index (by turn, by chain).
    this.pageDecisionsStmt = db.prepare(
      `SELECT * FROM retry_decisions WHERE turn_id IN (${IDS})
       UNION SELECT * FROM retry_decisions WHERE chain_id IN (${IDS}) ORDER BY n`,
    );
    this.contextStmt = db.prepare(
      'SELECT seq, branch_from AS branchFrom, role, stop_reason, created_at, message_json FROM turns WHERE session_id = ? ORDER BY seq',
    );
    this.errored = new ErroredTurnQueries(db);
    this.searcher = new HistorySearch(db);
    this.readSession = db.transaction((sessionId: string) => this.sessionDetail(sessionId));
    this.readPage = db.transaction((sessionId: string, beforeSeq: number, limit: number) => {
      const session = this.sessionSummary(sessionId);
      return session === undefined ? undefined : { session, ...this.turnPage(sessionId, beforeSeq, limit) };
    });
    this.readErroredTurns = db.transaction((limit: number) => this.errored.list(limit));
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

  /** Full-text hits on what was said, then errored turns whose error text has every word. */
  search(query: string, limit?: number): SearchHit[] {
    return this.searcher.search(query, clampCount(limit, DEFAULT_LIST_LIMIT, 1, MAX_LIST_LIMIT));
  }

  erroredTurns(limit?: number): ErroredTurn[] {
    return this.readErroredTurns(clampCount(limit, DEFAULT_LIST_LIMIT, 1, MAX_LIST_LIMIT));
  }

  loadContext(sessionId: string, options: { beforeSeq?: number } = {}): ChatMessage[] {
    const before = options.beforeSeq ?? Infinity;
    const messages: ChatMessage[] = [];
    // A loop, not filter and map: opening a long session reads all of it, and each pass allocates.
    for (const row of activePath(this.contextStmt.all(sessionId))) {
      // The retry controller drops errored assistant turns from the runtime context; aborted ones stay.
      if (row.seq >= before || row.stop_reason === 'error') continue;
      const message = this.attachments.hydrate(
        decodeMessage(row.message_json, { role: row.role, createdAt: row.created_at, stopReason: row.stop_reason }),
      );
      // A continued reply is one reply to the model, as it was when it was written.
      messages.push(message.role === 'assistant' ? joinedContinuation(message) : message);
    }
    return messages;
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

  /**
   * The `limit` turns before `beforeSeq` that the turns after them did not replace (docs/architecture.md,
   * "Branches"): a branch at or after `beforeSeq` that replaced turns from seq k on moves the page
   * below k, so an older page is never made of replaced turns only. hasOlderTurns is true only when
   * an older turn is still on the conversation's path.
   */
  private turnPage(sessionId: string, beforeSeq: number, limit: number): TurnPage {
    const below = Math.min(beforeSeq, this.cutStmt.get(sessionId, beforeSeq) ?? beforeSeq);
    const turns = this.hydrated(toTurnRecords(this.pageStmt.all(sessionId, below, limit).reverse()));
    const turnIds = JSON.stringify(turns.map((turn) => turn.id));
    const chainIds = turns.flatMap((turn) => (turn.chainId === null ? [] : [turn.chainId]));
    const decisions = this.pageDecisionsStmt.all(turnIds, JSON.stringify(chainIds)).map(toDecisionRecord);
    // A chain whose decisions name a turn of this page but whose turns all lie on another page still comes.
    for (const decision of decisions) if (decision.chainId !== null) chainIds.push(decision.chainId);
    // Older turns below this page's own branches' cuts are still on the path.
    const older = turns.reduce((cut, turn) => Math.min(cut, turn.branchFrom ?? cut), turns[0]?.seq ?? below);
    return {
      sessionId,
      turns,
      chains: this.chainsByIdStmt.all(JSON.stringify([...new Set(chainIds)])).map(toChainRecord),
      decisions,
      hasOlderTurns: turns.length > 0 && this.olderStmt.get(sessionId, older) === 1,
    };
  }

  /** The turns with their attachments' bytes read back in (attachment-table.ts). */
  private hydrated(turns: TurnRecord[]): TurnRecord[] {
    for (const turn of turns) this.attachments.hydrate(turn.message);
    return turns;
  }

  private sessionDetail(sessionId: string): SessionDetail | undefined {
    const session = this.sessionSummary(sessionId);
    if (session === undefined) return undefined;
    return {
      session,
      turns: this.hydrated(toTurnRecords(this.turnsStmt.all(sessionId))),
      chains: this.chainsStmt.all(sessionId).map(toChainRecord),
      decisions: this.decisionsStmt.all(sessionId).map(toDecisionRecord),
      hasOlderTurns: false,
    };
  }
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
    usage: sessionUsageOf(row),
  };
}

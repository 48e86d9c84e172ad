// The read side of the SQLite history: listing, session detail, full-text search, errored turns
// and the resume context. SqliteHistoryStore owns one instance and delegates HistoryReader to it;
// every statement is prepared once, in the constructor. Unknown ids give undefined or [].
import type Database from 'better-sqlite3';
import type {
  ErroredTurn,
  RetryChainRecord,
  SearchHit,
  SessionDetail,
  SessionSummary,
  TurnRecord,
} from '../../../shared/history';
import type { ChatMessage } from '../../../shared/messages';
import { SNIPPET_CLOSE, SNIPPET_OPEN, activePath } from '../../../shared/history';
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
/** Words of a search beyond this many are ignored (a pasted page should not build a huge query). */
const MAX_SEARCH_WORDS = 32;

/**
 * An errored turn that stands for its exchange: the chain's latest failed attempt, or a failure
 * outside any chain. One per retry chain, so a chain of four failed attempts counts once.
 */
const CHAIN_HEAD = `(t.chain_id IS NULL OR t.n = (SELECT max(t2.n) FROM turns t2
  WHERE t2.chain_id = t.chain_id AND t2.stop_reason = 'error'))`;

// turn_count counts exchanges (the person's messages); errored_turn_count the exchanges that ended
// in an error: a chain that recovered, is still retrying, or went to compaction did not.
const SESSION_COLUMNS = `s.id, s.title, s.created_at, s.updated_at, s.model, s.provider, s.workspace,
  (SELECT count(*) FROM turns t WHERE t.session_id = s.id AND t.role = 'user') AS turn_count,
  (SELECT count(*) FROM turns t WHERE t.session_id = s.id AND t.stop_reason = 'error' AND ${CHAIN_HEAD}
     AND NOT EXISTS (SELECT 1 FROM retry_chains c WHERE c.id = t.chain_id
       AND c.outcome IN ('recovered', 'pending', 'compacted'))) AS errored_turn_count`;
const TURN_COLUMNS = `t.id, t.session_id, t.seq, t.role, t.text, t.message_json, t.model, t.provider, t.stop_reason,
  t.error_message, t.error_category, t.chain_id, t.created_at, t.usage_json, t.cost_usd, t.branch_from`;
/** Errored turns looked at for a search of error text; their number is small next to all turns. */
const ERROR_SEARCH_SCAN = 500;

interface ErrorSearchRow {
  turn_id: string;
  session_id: string;
  session_title: string;
  role: string;
  created_at: number;
  error_message: string;
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
  private readonly chainsStmt: Database.Statement<[string], ChainRow>;
  private readonly decisionsStmt: Database.Statement<[string], DecisionRow>;
  private readonly chainStmt: Database.Statement<[string], ChainRow>;
  private readonly turnDecisionsStmt: Database.Statement<[string], DecisionRow>;
  private readonly chainDecisionsStmt: Database.Statement<[string], DecisionRow>;
  private readonly chainAttemptsStmt: Database.Statement<[string], TurnRow>;
  private readonly erroredStmt: Database.Statement<[number], TurnRow & { session_title: string }>;
  private readonly searchStmt: Database.Statement<[string, number], SearchRow>;
  private readonly errorSearchStmt: Database.Statement<[string, number], ErrorSearchRow>;
  private readonly contextStmt: Database.Statement<
    [string],
    { seq: number; branch_from: number | null; stop_reason: string | null; message_json: string }
  >;
  // Multi-statement reads run in one read transaction, so what they return is one snapshot.
  private readonly readSession: (sessionId: string) => SessionDetail | undefined;
  private readonly readErroredTurns: (limit: number) => ErroredTurn[];

  constructor(db: Database.Database) {
    // Ties on the sort key fall back to the insertion order so that pages never overlap.
    this.listStmt = db.prepare(
      `SELECT ${SESSION_COLUMNS} FROM sessions s ORDER BY s.updated_at DESC, s.id DESC LIMIT ? OFFSET ?`,
    );
    this.sessionStmt = db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.id = ?`);
    this.turnsStmt = db.prepare(`SELECT ${TURN_COLUMNS} FROM turns t WHERE t.session_id = ? ORDER BY t.seq`);
    this.chainsStmt = db.prepare('SELECT * FROM retry_chains WHERE session_id = ? ORDER BY started_at, n');
    this.decisionsStmt = db.prepare('SELECT * FROM retry_decisions WHERE session_id = ? ORDER BY n');
    this.chainStmt = db.prepare('SELECT * FROM retry_chains WHERE id = ?');
    this.turnDecisionsStmt = db.prepare('SELECT * FROM retry_decisions WHERE turn_id = ? ORDER BY n');
    this.chainDecisionsStmt = db.prepare('SELECT * FROM retry_decisions WHERE chain_id = ? ORDER BY n');
    this.chainAttemptsStmt = db.prepare(
      `SELECT ${TURN_COLUMNS} FROM turns t WHERE t.chain_id = ? AND t.stop_reason = 'error' ORDER BY t.seq`,
    );
    this.erroredStmt = db.prepare(
      `SELECT ${TURN_COLUMNS}, s.title AS session_title FROM turns t JOIN sessions s ON s.id = t.session_id
       WHERE t.stop_reason = 'error' AND ${CHAIN_HEAD} ORDER BY t.created_at DESC, t.n DESC LIMIT ?`,
    );
    this.searchStmt = db.prepare(
      `SELECT t.id AS turn_id, t.session_id, s.title AS session_title, t.role, t.created_at,
         snippet(turns_fts, 0, '${SNIPPET_OPEN}', '${SNIPPET_CLOSE}', '…', 16) AS snippet
       FROM turns_fts JOIN turns t ON t.n = turns_fts.rowid JOIN sessions s ON s.id = t.session_id
       WHERE turns_fts MATCH ? ORDER BY rank, t.created_at DESC LIMIT ?`,
    );
    // Error text is not in the full-text index (a failed turn has no text): errored turns are few,
    // so a LIKE over them finds it (case-insensitive for ASCII, as LIKE is).
    this.errorSearchStmt = db.prepare(
      `SELECT t.id AS turn_id, t.session_id, s.title AS session_title, t.role, t.created_at, t.error_message
       FROM turns t JOIN sessions s ON s.id = t.session_id
       WHERE t.stop_reason = 'error' AND t.error_message LIKE ? ESCAPE '\\'
       ORDER BY t.created_at DESC, t.n DESC LIMIT ?`,
    );
    this.contextStmt = db.prepare(
      'SELECT seq, branch_from, stop_reason, message_json FROM turns WHERE session_id = ? ORDER BY seq',
    );
    this.readSession = db.transaction((sessionId: string) => this.sessionDetail(sessionId));
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

  getSession(sessionId: string): SessionDetail | undefined {
    return this.readSession(sessionId);
  }

  private sessionTurns(sessionId: string): TurnRecord[] {
    return this.turnsStmt.all(sessionId).map(toTurnRecord);
  }

  /** Full-text hits on what was said, then errored turns whose error text has every word. */
  search(query: string, limit?: number): SearchHit[] {
    const words = searchWords(query);
    if (words.length === 0) return [];
    const max = clampCount(limit, DEFAULT_LIST_LIMIT, 1, MAX_LIST_LIMIT);
    const hits: SearchHit[] = this.searchStmt.all(toFtsMatch(words), max).map((row) => ({
      sessionId: row.session_id,
      sessionTitle: row.session_title,
      turnId: row.turn_id,
      role: row.role as SearchHit['role'],
      snippet: row.snippet,
      createdAt: row.created_at,
    }));
    const longest = words.reduce((a, b) => (b.length > a.length ? b : a));
    for (const row of this.errorSearchStmt.all(`%${escapeLike(longest)}%`, ERROR_SEARCH_SCAN)) {
      if (hits.length >= max) break;
      const snippet = errorSnippet(row.error_message, words);
      if (snippet === null || hits.some((hit) => hit.turnId === row.turn_id)) continue;
      hits.push({
        sessionId: row.session_id,
        sessionTitle: row.session_title,
        turnId: row.turn_id,
        role: row.role as SearchHit['role'],
        snippet,
        createdAt: row.created_at,
      });
    }
    return hits;
  }

  erroredTurns(limit?: number): ErroredTurn[] {
    return this.readErroredTurns(clampCount(limit, DEFAULT_LIST_LIMIT, 1, MAX_LIST_LIMIT));
  }

  loadContext(sessionId: string, options: { beforeSeq?: number } = {}): ChatMessage[] {
    const rows = this.contextStmt.all(sessionId).map((row) => ({ ...row, branchFrom: row.branch_from }));
    const before = options.beforeSeq ?? Infinity;
    // The retry controller drops errored assistant turns from the runtime context; aborted ones stay.
    return activePath(rows)
      .filter((row) => row.seq < before && row.stop_reason !== 'error')
      .map((row) => JSON.parse(row.message_json) as ChatMessage);
  }

  private chain(chainId: string): RetryChainRecord | undefined {
    const row = this.chainStmt.get(chainId);
    return row === undefined ? undefined : toChainRecord(row);
  }

  private sessionDetail(sessionId: string): SessionDetail | undefined {
    const session = this.sessionSummary(sessionId);
    if (session === undefined) return undefined;
    return {
      session,
      turns: this.sessionTurns(sessionId),
      chains: this.chainsStmt.all(sessionId).map(toChainRecord),
      decisions: this.decisionsStmt.all(sessionId).map(toDecisionRecord),
    };
  }

  /** One entry per chain (its latest failed attempt heads it), with every attempt and decision. */
  private erroredTurnRows(limit: number): ErroredTurn[] {
    return this.erroredStmt.all(limit).map((row) => {
      const turn = toTurnRecord(row);
      const chainId = row.chain_id;
      return {
        turn,
        attempts: chainId === null ? [turn] : this.chainAttemptsStmt.all(chainId).map(toTurnRecord),
        session: { id: row.session_id, title: row.session_title },
        chain: chainId === null ? null : (this.chain(chainId) ?? null),
        decisions: (chainId === null ? this.turnDecisionsStmt.all(row.id) : this.chainDecisionsStmt.all(chainId)).map(
          toDecisionRecord,
        ),
      };
    });
  }
}

/** The words of a search: double quotes dropped, words without a letter or digit left out. */
function searchWords(input: string): string[] {
  return (
    input
      .replace(/"/g, ' ')
      .split(/\s+/u)
      // A word with no letter or digit tokenizes to nothing; FTS5 would match nothing at all.
      .filter((word) => /[\p{L}\p{N}]/u.test(word))
      .slice(0, MAX_SEARCH_WORDS)
  );
}

function toFtsMatch(words: string[]): string {
  return words.map((word, index) => (index === words.length - 1 ? `"${word}"*` : `"${word}"`)).join(' ');
}

/**
 * Turns what a person typed into an FTS5 query that cannot fail to parse: every word becomes a
 * quoted string (so `-`, `*`, `:`, `(`, `AND`, `NEAR` mean nothing), the words are ANDed, and the
 * last one also matches as a prefix, for search-as-you-type. Double quotes are dropped, not
 * escaped: `"exact phrase"` searches for the two words. Returns null when no word is left.
 */
export function toFtsQuery(input: string): string | null {
  const words = searchWords(input);
  return words.length === 0 ? null : toFtsMatch(words);
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Characters of error text kept on each side of the first match in a snippet. */
const SNIPPET_CONTEXT_CHARS = 60;

/** The error text around its first match, every word marked; null unless it holds every word. */
export function errorSnippet(text: string, words: string[]): string | null {
  const lower = text.toLowerCase();
  const positions = words.map((word) => lower.indexOf(word.toLowerCase()));
  if (positions.some((at) => at < 0)) return null;
  const start = Math.max(0, Math.min(...positions) - SNIPPET_CONTEXT_CHARS);
  const end = Math.min(
    text.length,
    Math.max(...positions.map((at, i) => at + words[i].length)) + SNIPPET_CONTEXT_CHARS,
  );
  const pattern = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'giu');
  const marked = text.slice(start, end).replace(pattern, (m) => `${SNIPPET_OPEN}${m}${SNIPPET_CLOSE}`);
  return `${start > 0 ? '…' : ''}${marked}${end < text.length ? '…' : ''}`;
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

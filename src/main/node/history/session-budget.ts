// A chat's own spending cap in the history (docs/tools.md, "The spending cap"): the table
// `session_budgets`, one row a chat, set from the chat's context meter or by Raise at the cap's
// question; no row = the `agent.budget` setting's. And `pending_spending_caps`: the cap's question
// asked and not answered, kept so a quit or a crash does not lose it — the restart asks it again.
// SqliteHistoryStore reads and writes both.
import type Database from 'better-sqlite3';
import type { ChatBudget, SpendingCapRequest } from '../../../shared/spending-cap';
import type { Migration } from './migration';

/** A trigger that removes a table's row with its session, in the delete's own transaction. */
const removedWithSession = (table: string) => `CREATE TRIGGER ${table}_deleted AFTER DELETE ON sessions
BEGIN
  DELETE FROM ${table} WHERE session_id = OLD.id;
END;`;

// Not a foreign key to sessions, as session_instructions: a new chat may be given its cap before its
// first turn makes its row. A trigger removes it with its session, in the delete's own transaction.
const SCHEMA_V12 = `
CREATE TABLE session_budgets (
  session_id TEXT PRIMARY KEY,
  usd REAL,
  tokens INTEGER,
  updated_at INTEGER NOT NULL
) WITHOUT ROWID;
${removedWithSession('session_budgets')}
`;

export const SESSION_BUDGETS_MIGRATION: Migration = {
  version: 12,
  description: "each chat's own spending cap (session_budgets)",
  up: (db) => db.exec(SCHEMA_V12),
};

// One question a chat at most: its run waits on it. Removed with its session, as its cap is.
const SCHEMA_V13 = `
CREATE TABLE pending_spending_caps (
  session_id TEXT PRIMARY KEY,
  request_json TEXT NOT NULL,
  requested_at INTEGER NOT NULL
) WITHOUT ROWID;
${removedWithSession('pending_spending_caps')}
`;

export const SPENDING_CAP_QUESTIONS_MIGRATION: Migration = {
  version: 13,
  description: "the spending cap's question asked and not answered (pending_spending_caps), kept across a restart",
  up: (db) => db.exec(SCHEMA_V13),
};

export class BudgetTable {
  private readonly readStmt: Database.Statement<[string], { usd: number | null; tokens: number | null }>;
  private readonly writeStmt: Database.Statement<[string, number | null, number | null, number]>;
  private readonly deleteStmt: Database.Statement<[string]>;

  constructor(private readonly db: Database.Database) {
    this.readStmt = db.prepare('SELECT usd, tokens FROM session_budgets WHERE session_id = ?');
    this.writeStmt = db.prepare(
      `INSERT INTO session_budgets (session_id, usd, tokens, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (session_id) DO UPDATE SET usd = excluded.usd, tokens = excluded.tokens, updated_at = excluded.updated_at`,
    );
    this.deleteStmt = db.prepare('DELETE FROM session_budgets WHERE session_id = ?');
  }

  /** The cap's question a chat's run waits on, kept until it is answered. */
  asked(request: SpendingCapRequest): void {
    this.db
      .prepare('INSERT OR REPLACE INTO pending_spending_caps (session_id, request_json, requested_at) VALUES (?, ?, ?)')
      .run(request.sessionId, JSON.stringify(request), request.requestedAt);
  }

  answered(sessionId: string): void {
    this.db.prepare('DELETE FROM pending_spending_caps WHERE session_id = ?').run(sessionId);
  }

  /** The chat's question still waiting, or null (a row that no longer parses counts as none). */
  question(sessionId: string): SpendingCapRequest | null {
    const json = this.db
      .prepare<[string], string>('SELECT request_json FROM pending_spending_caps WHERE session_id = ?')
      .pluck()
      .get(sessionId);
    if (json === undefined) return null;
    try {
      return JSON.parse(json) as SpendingCapRequest;
    } catch {
      return null;
    }
  }

  read(sessionId: string): ChatBudget | null {
    const row = this.readStmt.get(sessionId);
    if (!row) return null;
    return { ...(row.usd !== null && { usd: row.usd }), ...(row.tokens !== null && { tokens: row.tokens }) };
  }

  /** Replace the chat's cap; null removes it (the setting's applies again). */
  write(sessionId: string, budget: ChatBudget | null, now = Date.now()): void {
    if (budget === null) this.deleteStmt.run(sessionId);
    else this.writeStmt.run(sessionId, budget.usd ?? null, budget.tokens ?? null, now);
  }
}

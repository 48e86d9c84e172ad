// A chat's own spending cap in the history (docs/tools.md, "The spending cap"): the table
// `session_budgets`, one row a chat, set from the chat's context meter or by Raise at the cap's
// question; no row = the `agent.budget` setting's. SqliteHistoryStore reads and writes it.
import type Database from 'better-sqlite3';
import type { ChatBudget } from '../../../shared/spending-cap';
import type { Migration } from './migration';

// Not a foreign key to sessions, as session_instructions: a new chat may be given its cap before its
// first turn makes its row. A trigger removes it with its session, in the delete's own transaction.
const SCHEMA_V12 = `
CREATE TABLE session_budgets (
  session_id TEXT PRIMARY KEY,
  usd REAL,
  tokens INTEGER,
  updated_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TRIGGER session_budgets_deleted AFTER DELETE ON sessions
BEGIN
  DELETE FROM session_budgets WHERE session_id = OLD.id;
END;
`;

export const SESSION_BUDGETS_MIGRATION: Migration = {
  version: 12,
  description: "each chat's own spending cap (session_budgets)",
  up: (db) => db.exec(SCHEMA_V12),
};

export class BudgetTable {
  private readonly readStmt: Database.Statement<[string], { usd: number | null; tokens: number | null }>;
  private readonly writeStmt: Database.Statement<[string, number | null, number | null, number]>;
  private readonly deleteStmt: Database.Statement<[string]>;

  constructor(db: Database.Database) {
    this.readStmt = db.prepare('SELECT usd, tokens FROM session_budgets WHERE session_id = ?');
    this.writeStmt = db.prepare(
      `INSERT INTO session_budgets (session_id, usd, tokens, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (session_id) DO UPDATE SET usd = excluded.usd, tokens = excluded.tokens, updated_at = excluded.updated_at`,
    );
    this.deleteStmt = db.prepare('DELETE FROM session_budgets WHERE session_id = ?');
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

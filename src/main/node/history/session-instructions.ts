// A conversation's own instructions in the history (docs/thinking-and-context.md, "A conversation's
// instructions"): the table `session_instructions` keeps the text and whether it is added to
// Resolute's words or replaces them, one row a session. SqliteHistoryStore reads and writes them
// through InstructionsTable; session-instructions-store.ts gives the app its get/set/delete.
import type Database from 'better-sqlite3';
import type { SessionInstructions } from '../../../shared/contract';
import type { Migration } from './migration';

export type InstructionsOverride = NonNullable<SessionInstructions['override']>;

// Not a foreign key to sessions: a new chat is given its instructions before its first turn makes
// its row (and a placeholder row would list an empty chat in the History). A trigger removes them
// with their session instead, in the delete's own transaction.
const SCHEMA_V8 = `
CREATE TABLE session_instructions (
  session_id TEXT PRIMARY KEY,
  text TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('add', 'replace')),
  updated_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TRIGGER session_instructions_deleted AFTER DELETE ON sessions
BEGIN
  DELETE FROM session_instructions WHERE session_id = OLD.id;
END;
`;

export const SESSION_INSTRUCTIONS_MIGRATION: Migration = {
  version: 8,
  description: "each conversation's own instructions (session_instructions)",
  up: (db) => db.exec(SCHEMA_V8),
};

export class InstructionsTable {
  private readonly readStmt: Database.Statement<[string], { text: string; mode: string }>;
  private readonly writeStmt: Database.Statement<[string, string, string, number]>;
  private readonly deleteStmt: Database.Statement<[string]>;

  constructor(db: Database.Database) {
    this.readStmt = db.prepare('SELECT text, mode FROM session_instructions WHERE session_id = ?');
    this.writeStmt = db.prepare(
      `INSERT INTO session_instructions (session_id, text, mode, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (session_id) DO UPDATE SET text = excluded.text, mode = excluded.mode, updated_at = excluded.updated_at`,
    );
    this.deleteStmt = db.prepare('DELETE FROM session_instructions WHERE session_id = ?');
  }

  read(sessionId: string): InstructionsOverride | null {
    const row = this.readStmt.get(sessionId);
    return row ? { text: row.text, mode: row.mode === 'replace' ? 'replace' : 'add' } : null;
  }

  /** Replace the session's instructions; null removes them. */
  write(sessionId: string, override: InstructionsOverride | null, now = Date.now()): void {
    if (override === null) this.deleteStmt.run(sessionId);
    else this.writeStmt.run(sessionId, override.text, override.mode, now);
  }
}

// The history database's schema as an ordered list of migrations; `PRAGMA user_version` holds the
// version a file is at. history-open.ts calls `migrate` once the file has passed its checks.
// To change the schema, append `{ version: N + 1, ... }` to MIGRATIONS — never edit a shipped one,
// since files already at that version will not run it again.
import type Database from 'better-sqlite3';
import { TEXT_ONCE_MIGRATION } from './migration-text-once';
import { ATTACHMENTS_MIGRATION } from './attachment-table';
import { SESSION_INSTRUCTIONS_MIGRATION } from './session-instructions';
import { SESSION_TOTALS_MIGRATION } from './session-totals';
import { FILE_HISTORY_MIGRATION } from './file-history-table';
import { TOOL_RUNS_MIGRATION } from './tool-runs';
import { SESSION_BUDGETS_MIGRATION, SPENDING_CAP_QUESTIONS_MIGRATION } from './session-budget';
import type { Migration } from './migration';

export type { Migration };

// Version 1, the initial schema (docs/architecture.md, "Where data lives").
// - turns, retry_chains and retry_decisions carry an INTEGER PRIMARY KEY `n` besides their text id:
//   it is the table's rowid, so it survives VACUUM (an implicit rowid may be renumbered), which the
//   external-content FTS table needs, and it gives a stable insertion order for decisions.
// - Only session_id is a foreign key (ON DELETE CASCADE, so deleting a session takes everything
//   with it). turn_id / chain_id are plain columns: the retry controller writes chains, turns and
//   decisions in an order this store does not control, and a log record must never be refused
//   because its sibling is not written yet.
// - The partial indexes serve the errored-turn queries (newest first; per-session counts) without
//   indexing the many turns that did not fail. Indexes are ascending: "newest first" scans them
//   backwards, which also gives the rowid tie-break in descending order, with no sort step.
const SCHEMA_V1 = `
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  model TEXT NOT NULL DEFAULT '',
  provider TEXT NOT NULL DEFAULT ''
);
CREATE INDEX sessions_by_updated ON sessions (updated_at, id);

CREATE TABLE turns (
  n INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'toolResult')),
  text TEXT NOT NULL,
  message_json TEXT NOT NULL,
  model TEXT,
  provider TEXT,
  stop_reason TEXT,
  error_message TEXT,
  error_category TEXT,
  chain_id TEXT,
  created_at INTEGER NOT NULL,
  usage_json TEXT,
  UNIQUE (session_id, seq)
);
CREATE INDEX turns_errored ON turns (created_at) WHERE stop_reason = 'error';
CREATE INDEX turns_errored_by_session ON turns (session_id) WHERE stop_reason = 'error';
CREATE INDEX turns_by_category ON turns (error_category) WHERE error_category IS NOT NULL;
CREATE INDEX turns_by_chain ON turns (chain_id) WHERE chain_id IS NOT NULL;

CREATE TABLE retry_chains (
  n INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  outcome TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  final_error TEXT,
  started_at INTEGER NOT NULL,
  ended_at INTEGER
);
CREATE INDEX chains_by_session ON retry_chains (session_id, started_at);

CREATE TABLE retry_decisions (
  n INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  turn_id TEXT,
  chain_id TEXT,
  timestamp TEXT NOT NULL,
  level TEXT NOT NULL,
  error_type TEXT NOT NULL,
  category TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  action TEXT NOT NULL,
  wait_seconds REAL NOT NULL,
  reason TEXT NOT NULL,
  error_message TEXT NOT NULL,
  context_json TEXT NOT NULL,
  final_decision TEXT
);
CREATE INDEX decisions_by_turn ON retry_decisions (turn_id) WHERE turn_id IS NOT NULL;
CREATE INDEX decisions_by_session ON retry_decisions (session_id, n);

CREATE VIRTUAL TABLE turns_fts USING fts5 (
  text, content = 'turns', content_rowid = 'n', tokenize = 'unicode61 remove_diacritics 2'
);
-- Triggers keep the index in step with turns inside the writing transaction, including the rows
-- removed by the ON DELETE CASCADE of a session (cascades fire the child table's triggers).
CREATE TRIGGER turns_fts_insert AFTER INSERT ON turns BEGIN
  INSERT INTO turns_fts (rowid, text) VALUES (new.n, new.text);
END;
CREATE TRIGGER turns_fts_delete AFTER DELETE ON turns BEGIN
  INSERT INTO turns_fts (turns_fts, rowid, text) VALUES ('delete', old.n, old.text);
END;
CREATE TRIGGER turns_fts_update AFTER UPDATE OF text ON turns BEGIN
  INSERT INTO turns_fts (turns_fts, rowid, text) VALUES ('delete', old.n, old.text);
  INSERT INTO turns_fts (rowid, text) VALUES (new.n, new.text);
END;
`;

// Version 2, the agent's tools (docs/tools.md, "History"):
// - sessions.workspace: the folder the session's tools work in ('' for older sessions);
// - sandbox_audit: one row per refused escape, written before the turn is ended (the JSON-lines
//   audit log holds the same record). Tool calls and results themselves are turns already: the
//   arguments in the assistant turn, the capped output, exit code and duration in the toolResult
//   turn's message, the failure category in its error_category.
const SCHEMA_V2 = `
ALTER TABLE sessions ADD COLUMN workspace TEXT NOT NULL DEFAULT '';

CREATE TABLE sandbox_audit (
  n INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  timestamp TEXT NOT NULL,
  tool_call_id TEXT NOT NULL,
  tool_name TEXT NOT NULL,
  args_json TEXT NOT NULL,
  workspace TEXT NOT NULL,
  target TEXT NOT NULL,
  reason TEXT NOT NULL
);
CREATE INDEX sandbox_audit_by_session ON sandbox_audit (session_id, n);
`;

// Version 3, what failures cost (docs/retry-policy.md): each attempt's cost in USD at its model's
// list price, computed once as the turn is stored; NULL when the price is unknown (and for turns
// stored before).
const TURN_COST = 'ALTER TABLE turns ADD COLUMN cost_usd REAL;';

// Version 4: branches (docs/architecture.md, "Branches"). An edited and resent message or a
// regenerated reply is stored as new turns after the old ones; its first turn names, in
// branch_from, the seq of the first turn it replaces. Nothing is rewritten or deleted.
// The index serves the errored filter, which shows each chain with all of its decisions.
const BRANCHES = `
ALTER TABLE turns ADD COLUMN branch_from INTEGER;
CREATE INDEX decisions_by_chain ON retry_decisions (chain_id) WHERE chain_id IS NOT NULL;
`;

// Version 5, text stored once and the counts in the session row (docs/architecture.md, "Where
// data lives"), is long enough for a file of its own: migration-text-once.ts.

// Version 6, scheduled retries (docs/retry-policy.md, "Scheduled retries"): the time a chain's
// scheduled retry goes at, epoch ms, while it waits for it. A quit or a crash leaves it on the
// interrupted chain, and the next start takes the schedule up again; the retry going out, or any
// other end of the chain, clears it. The partial index keeps that start-up look a few rows.
const SCHEDULED_AT = `
ALTER TABLE retry_chains ADD COLUMN scheduled_at INTEGER;
CREATE INDEX chains_scheduled ON retry_chains (scheduled_at) WHERE scheduled_at IS NOT NULL;
`;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'initial schema: sessions, turns, retry chains, retry decisions, turn search',
    up: (db) => db.exec(SCHEMA_V1),
  },
  {
    version: 2,
    description: "tools: each session's workspace, the sandbox audit",
    up: (db) => db.exec(SCHEMA_V2),
  },
  {
    version: 3,
    description: 'the cost of each attempt (turns.cost_usd)',
    up: (db) => db.exec(TURN_COST),
  },
  {
    version: 4,
    description: 'turn branches (turns.branch_from); decisions by chain',
    up: (db) => db.exec(BRANCHES),
  },
  TEXT_ONCE_MIGRATION,
  {
    version: 6,
    description: 'scheduled retries (retry_chains.scheduled_at)',
    up: (db) => db.exec(SCHEDULED_AT),
  },
  ATTACHMENTS_MIGRATION,
  SESSION_INSTRUCTIONS_MIGRATION,
  SESSION_TOTALS_MIGRATION,
  FILE_HISTORY_MIGRATION,
  TOOL_RUNS_MIGRATION,
  SESSION_BUDGETS_MIGRATION,
  SPENDING_CAP_QUESTIONS_MIGRATION,
];

export const LATEST_SCHEMA_VERSION: number = MIGRATIONS[MIGRATIONS.length - 1].version;

export function readSchemaVersion(db: Database.Database): number {
  return Number(db.pragma('user_version', { simple: true }));
}

/**
 * Brings the database to LATEST_SCHEMA_VERSION in one IMMEDIATE transaction: either every pending
 * migration and the new user_version are committed, or none is (user_version lives in the file
 * header, so setting it inside the transaction is atomic with the schema change). IMMEDIATE takes
 * the write lock before reading the version, so two processes opening at once cannot both migrate.
 */
export function migrate(
  db: Database.Database,
  migrations: readonly Migration[] = MIGRATIONS,
): { from: number; to: number } {
  const run = db.transaction(() => {
    const from = readSchemaVersion(db);
    let to = from;
    for (const migration of migrations) {
      if (migration.version <= from) continue;
      migration.up(db);
      to = migration.version;
    }
    if (to !== from) db.pragma(`user_version = ${to}`);
    return { from, to };
  });
  return run.immediate();
}

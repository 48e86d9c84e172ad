// The history schema's fifth version, appended to MIGRATIONS in migrations.ts: a turn's text is
// stored once (in message_json; the search index reads it through a view), the columns that only
// repeated message fields go, each session row keeps its counts (session-counts.ts: maintained by
// triggers, in the writing transaction), and the chains a start looks for (pending, interrupted)
// get small indexes of their own. Converts a version-4 file in place, inside migrate()'s single
// transaction: the workspace column, the sandbox audit, each turn's cost_usd and branch_from
// (versions 2 to 4) are kept.
import type Database from 'better-sqlite3';
import type { Migration } from './migration';
import { RECOUNT_SESSIONS, SESSION_COUNT_TRIGGERS } from './session-counts';

/**
 * The plain text of a stored message, in SQL: what messageText() in src/shared/messages.ts
 * returns (a string content as is; else text blocks and "[tool name]" for tool calls, one per
 * line, empty ones skipped). The search index and its triggers must all compute the same text.
 */
export function messageTextSql(json: string): string {
  const block = (path: string) => `json_extract(${json}, '$.content[' || k || ']${path}')`;
  // A recursive CTE walks the blocks: json_each would be simpler, but FTS5 reads this view as
  // main.turns_text, and SQLite then fails to resolve a table-valued function inside it.
  return `(CASE json_type(${json}, '$.content') WHEN 'text' THEN json_extract(${json}, '$.content') ELSE coalesce((
    WITH RECURSIVE block(k) AS (
      SELECT 0 UNION ALL SELECT k + 1 FROM block WHERE k + 1 < json_array_length(${json}, '$.content'))
    SELECT group_concat(nullif(CASE ${block('.type')}
        WHEN 'text' THEN ${block('.text')}
        WHEN 'toolCall' THEN '[tool ' || ${block('.name')} || ']' END, ''), char(10))
    FROM block), '') END)`;
}

// turns keeps only what the message does not say (or what an index needs): model, provider,
// error_message, usage_json and text are read from message_json; cost_usd (computed from the
// model's list price when the turn was stored) and branch_from stay. turn_count and
// errored_turn_count live in the session row so the sessions list is one index scan. The table is
// rebuilt (n, the rowid the search index refers to, is copied), which drops version 1's
// turns_errored_by_session: the counts no longer need it.
const SCHEMA_V5 = `
ALTER TABLE sessions ADD COLUMN turn_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN errored_turn_count INTEGER NOT NULL DEFAULT 0;
DROP TRIGGER turns_fts_insert;
DROP TRIGGER turns_fts_delete;
DROP TRIGGER turns_fts_update;
DROP TABLE turns_fts;

CREATE TABLE turns_new (
  n INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'toolResult')),
  message_json TEXT NOT NULL,
  stop_reason TEXT,
  error_category TEXT,
  chain_id TEXT,
  created_at INTEGER NOT NULL,
  cost_usd REAL,
  branch_from INTEGER,
  UNIQUE (session_id, seq)
);
INSERT INTO turns_new (n, id, session_id, seq, role, message_json, stop_reason, error_category, chain_id, created_at,
    cost_usd, branch_from)
  SELECT n, id, session_id, seq, role, message_json, stop_reason, error_category, chain_id, created_at, cost_usd,
    branch_from
  FROM turns;
DROP TABLE turns;
ALTER TABLE turns_new RENAME TO turns;
CREATE INDEX turns_errored ON turns (created_at) WHERE stop_reason = 'error';
CREATE INDEX turns_by_category ON turns (error_category) WHERE error_category IS NOT NULL;
CREATE INDEX turns_by_chain ON turns (chain_id) WHERE chain_id IS NOT NULL;
-- A page of older turns starts below what the branches after it replaced (history-queries.ts).
CREATE INDEX turns_branches ON turns (session_id, seq) WHERE branch_from IS NOT NULL;
-- Every start closes the pending chains a crash left and looks for interrupted ones
-- (interrupted-chains.ts): a few rows each, never a scan of every chain.
CREATE INDEX chains_pending ON retry_chains (n) WHERE outcome = 'pending';
CREATE INDEX chains_interrupted ON retry_chains (session_id, started_at) WHERE outcome = 'interrupted';

CREATE VIEW turns_text AS SELECT n, ${messageTextSql('message_json')} AS text FROM turns;
CREATE VIRTUAL TABLE turns_fts USING fts5 (
  text, content = 'turns_text', content_rowid = 'n', tokenize = 'unicode61 remove_diacritics 2'
);
INSERT INTO turns_fts (turns_fts) VALUES ('rebuild');
-- message_json is never updated, so insert and delete keep the index in step (cascades included).
CREATE TRIGGER turns_fts_insert AFTER INSERT ON turns BEGIN
  INSERT INTO turns_fts (rowid, text) VALUES (new.n, ${messageTextSql('new.message_json')});
END;
CREATE TRIGGER turns_fts_delete AFTER DELETE ON turns BEGIN
  INSERT INTO turns_fts (turns_fts, rowid, text) VALUES ('delete', old.n, ${messageTextSql('old.message_json')});
END;

${RECOUNT_SESSIONS}
${SESSION_COUNT_TRIGGERS}
`;

export const TEXT_ONCE_MIGRATION: Migration = {
  version: 5,
  description: 'text stored once (search reads message_json), turn counts kept in the session row',
  up: (db: Database.Database) => db.exec(SCHEMA_V5),
};

// Each session's total tokens and cost (docs/thinking-and-context.md, "Context and cost"), kept in
// its row as the turn counts are (session-counts.ts): triggers add what each stored turn used, so
// the sessions list and a page of turns carry the whole session's total without reading its turns.
// Every attempt counts, failed ones too (they were paid for); HistoryQueries reads the columns.
import type { Migration } from './migration';

// A turn's usage is the stored message's own: pi-ai's object, or message-codec.ts's array in the
// order input, output, cacheRead, cacheWrite, totalTokens. Its tokens are totalTokens, else the
// sum of the parts — as the chat's sessionTotal counts them. Invalid JSON counts as none.
const USAGE = (row: string) =>
  `(CASE WHEN json_valid(${row}.message_json) THEN json_extract(${row}.message_json, '$.usage') END)`;
const part = (usage: string, index: number, key: string) =>
  `coalesce(CASE json_type(${usage}) WHEN 'array' THEN json_extract(${usage}, '$[${index}]')
    WHEN 'object' THEN json_extract(${usage}, '$.${key}') END, 0)`;
const tokensOf = (
  usage: string,
) => `(CASE WHEN ${part(usage, 4, 'totalTokens')} > 0 THEN ${part(usage, 4, 'totalTokens')}
  ELSE ${part(usage, 0, 'input')} + ${part(usage, 1, 'output')} + ${part(usage, 2, 'cacheRead')} + ${part(usage, 3, 'cacheWrite')} END)`;

/**
 * A turn's tokens and cost as a one-row sub-select (alias `u`) over the turn `row`: the message is
 * parsed once, for its usage, and the token counts are read from that small object.
 */
const TURN_SHARE = (row: string) => `(SELECT ${tokensOf('x.usage')} AS tokens, x.cost AS cost
  FROM (SELECT ${USAGE(row)} AS usage, ${row}.cost_usd AS cost) x) u`;

const change = (row: string, sign: '+' | '-') => `
  UPDATE sessions SET
    total_tokens = total_tokens ${sign} u.tokens,
    total_cost_usd = total_cost_usd ${sign} coalesce(u.cost, 0),
    priced_turns = priced_turns ${sign} (u.cost IS NOT NULL),
    unpriced_turns = unpriced_turns ${sign} (u.cost IS NULL)
  FROM ${TURN_SHARE(row)}
  WHERE sessions.id = ${row}.session_id AND u.tokens > 0;`;

const SCHEMA_V9 = `
ALTER TABLE sessions ADD COLUMN total_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN total_cost_usd REAL NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN priced_turns INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN unpriced_turns INTEGER NOT NULL DEFAULT 0;
UPDATE sessions SET
  total_tokens = u.tokens, total_cost_usd = u.cost, priced_turns = u.priced, unpriced_turns = u.unpriced
FROM (SELECT session_id, sum(tokens) AS tokens, sum(coalesce(cost, 0)) AS cost,
        sum(cost IS NOT NULL) AS priced, sum(cost IS NULL) AS unpriced
      FROM (SELECT x.session_id, ${tokensOf('x.usage')} AS tokens, x.cost
            FROM (SELECT t.session_id, ${USAGE('t')} AS usage, t.cost_usd AS cost FROM turns t WHERE t.role = 'assistant') x)
      WHERE tokens > 0 GROUP BY session_id) u
WHERE sessions.id = u.session_id;
CREATE TRIGGER turns_total_insert AFTER INSERT ON turns WHEN new.role = 'assistant' BEGIN ${change('new', '+')}
END;
CREATE TRIGGER turns_total_delete AFTER DELETE ON turns WHEN old.role = 'assistant' BEGIN ${change('old', '-')}
END;
`;

export const SESSION_TOTALS_MIGRATION: Migration = {
  version: 9,
  description: "each session's total tokens and cost (sessions.total_tokens, total_cost_usd, …)",
  up: (db) => db.exec(SCHEMA_V9),
};

/** The columns HistoryQueries selects (alias `s`) and how a summary reads them. */
export const SESSION_TOTAL_COLUMNS = 's.total_tokens, s.total_cost_usd, s.priced_turns, s.unpriced_turns';

export interface SessionTotalRow {
  total_tokens: number;
  total_cost_usd: number;
  priced_turns: number;
  unpriced_turns: number;
}

export function sessionUsageOf(row: SessionTotalRow): { tokens: number; costUsd: number | null; unpriced: number } {
  return {
    tokens: row.total_tokens,
    costUsd: row.priced_turns > 0 ? row.total_cost_usd : null,
    unpriced: row.unpriced_turns,
  };
}

/**
 * What every session's attempts used since a time (epoch ms, the one parameter), counted as the
 * totals above count them: the spending cap's day (docs/tools.md, "The spending cap").
 */
export const SPENT_SINCE = `SELECT coalesce(sum(u.tokens), 0) AS tokens, coalesce(sum(u.cost), 0) AS costUsd
  FROM (SELECT ${tokensOf('x.usage')} AS tokens, x.cost AS cost
        FROM (SELECT ${USAGE('t')} AS usage, t.cost_usd AS cost FROM turns t
              WHERE t.role = 'assistant' AND t.created_at >= ?) x) u`;

// What failed attempts cost, read from the history: the report of the history view's panel
// (docs/retry-policy.md, "What failures cost"), totalled per session and per category over a
// period. SqliteHistoryStore delegates to it.
import type Database from 'better-sqlite3';
import type { ErrorCategory } from '../../../shared/error-category';
import type { FailureCostReport, FailureCostTotals } from '../../../shared/history';
import { EMPTY_FAILURE_COST } from '../../../shared/failure-cost';

/** Sessions listed in the report, the costliest first. */
const MAX_REPORT_SESSIONS = 100;

interface CostRow {
  session_id: string;
  title: string;
  category: string | null;
  attempts: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  unpriced: number;
}

// The usage is the stored message's own (a turn's text and usage are stored once, in message_json):
// the inner query takes it out once per turn, so each token count reads the small usage object, not
// the whole message. A message that is not valid JSON counts as no tokens rather than failing the
// whole report. The errored turns of the period come from the turns_errored index.
// Usage is stored as pi-ai's object or, by message-codec.ts, as an array in the order of its keys.
const USAGE_INDEX = { input: 0, output: 1, cacheRead: 2 } as const;
const TOKENS = (field: keyof typeof USAGE_INDEX) =>
  `sum(CASE json_type(t.usage) WHEN 'array' THEN coalesce(json_extract(t.usage, '$[${USAGE_INDEX[field]}]'), 0)
    WHEN 'object' THEN coalesce(json_extract(t.usage, '$.${field}'), 0) ELSE 0 END)`;

const COST_SQL = `SELECT t.session_id, s.title, t.error_category AS category, count(*) AS attempts,
    ${TOKENS('input')} + ${TOKENS('cacheRead')} AS input_tokens, ${TOKENS('output')} AS output_tokens,
    sum(coalesce(t.cost_usd, 0)) AS cost_usd, sum(t.cost_usd IS NULL) AS unpriced
  FROM (SELECT session_id, error_category, cost_usd,
          CASE WHEN json_valid(message_json) THEN json_extract(message_json, '$.usage') END AS usage
        FROM turns WHERE stop_reason = 'error' AND created_at >= ?) t
  JOIN sessions s ON s.id = t.session_id
  GROUP BY t.session_id, t.error_category`;

function add(sum: FailureCostTotals, row: CostRow): FailureCostTotals {
  return {
    attempts: sum.attempts + row.attempts,
    inputTokens: sum.inputTokens + row.input_tokens,
    outputTokens: sum.outputTokens + row.output_tokens,
    costUsd: sum.costUsd + row.cost_usd,
    unpricedAttempts: sum.unpricedAttempts + row.unpriced,
  };
}

const costlier = (a: FailureCostTotals, b: FailureCostTotals): number =>
  b.costUsd - a.costUsd || b.inputTokens + b.outputTokens - (a.inputTokens + a.outputTokens) || b.attempts - a.attempts;

export function failureCostReport(db: Database.Database, since: number | null): FailureCostReport {
  const rows = db.prepare<[number], CostRow>(COST_SQL).all(since ?? Number.MIN_SAFE_INTEGER);
  const sessions = new Map<string, FailureCostTotals & { sessionId: string; title: string }>();
  const categories = new Map<string, FailureCostTotals & { category: ErrorCategory }>();
  let total = EMPTY_FAILURE_COST;
  for (const row of rows) {
    total = add(total, row);
    const session = sessions.get(row.session_id) ?? {
      ...EMPTY_FAILURE_COST,
      sessionId: row.session_id,
      title: row.title,
    };
    sessions.set(row.session_id, { ...session, ...add(session, row) });
    const key = row.category ?? 'unexpected';
    const category = categories.get(key) ?? { ...EMPTY_FAILURE_COST, category: key as ErrorCategory };
    categories.set(key, { ...category, ...add(category, row) });
  }
  return {
    since,
    total,
    sessions: [...sessions.values()].sort(costlier).slice(0, MAX_REPORT_SESSIONS),
    categories: [...categories.values()].sort(costlier),
  };
}

// The tool calls running now and the approvals asked, kept in the history (docs/tools.md, "Runs cut
// by a quit or a crash"): a row when a call starts, its output so far as it comes (ToolRunJournal
// throttles the writes), gone once its result is stored. A row the next start finds belongs to a
// call a quit or a crash cut off: it becomes that call's result — "interrupted, not run again", with
// what it printed — and nothing runs it again. An approval asked and not answered stays until it is
// answered, so its card comes back with its chat after a restart. SqliteHistoryStore owns the
// tables; app-startup.ts recovers at start.
import type Database from 'better-sqlite3';
import type { ToolRunStart } from '../../core/ports';
import type { ChatMessage, ToolResultChatMessage } from '../../../shared/messages';
import { interruptedToolText, type ApprovalRequest, type ToolResultDetails } from '../../../shared/tools';
import type { Migration } from './migration';

const SCHEMA_V11 = `
CREATE TABLE tool_runs (
  tool_call_id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  tool_name TEXT NOT NULL,
  summary TEXT,
  output TEXT NOT NULL DEFAULT '',
  started_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE TABLE pending_approvals (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  request_json TEXT NOT NULL,
  requested_at INTEGER NOT NULL
);
CREATE INDEX pending_approvals_session ON pending_approvals (session_id, requested_at);
`;

export const TOOL_RUNS_MIGRATION: Migration = {
  version: 11,
  description: 'tool calls in flight (tool_runs) and approvals asked (pending_approvals), kept across a restart',
  up: (db) => db.exec(SCHEMA_V11),
};

interface ToolRunRow {
  tool_call_id: string;
  session_id: string;
  tool_name: string;
  summary: string | null;
  output: string;
  started_at: number;
  updated_at: number;
}

/** A call a quit or a crash cut off, as its session's new turn. */
export interface RecoveredRun {
  sessionId: string;
  message: ToolResultChatMessage;
}

export class ToolRunTable {
  private readonly insert: Database.Statement<[Omit<ToolRunStart, 'summary'> & { summary: string | null }]>;
  private readonly update: Database.Statement<[string, number, string]>;
  private readonly remove: Database.Statement<[string]>;
  /** Read on every change of the sidebar's activity: prepared once. */
  private readonly waitingChats: Database.Statement<[], { sessionId: string; title: string }>;

  constructor(private readonly db: Database.Database) {
    this.insert =
      db.prepare(`INSERT INTO tool_runs (tool_call_id, session_id, tool_name, summary, started_at, updated_at)
      VALUES (@toolCallId, @sessionId, @toolName, @summary, @startedAt, @startedAt)
      ON CONFLICT (tool_call_id) DO UPDATE SET output = '', started_at = excluded.started_at`);
    this.update = db.prepare('UPDATE tool_runs SET output = ?, updated_at = ? WHERE tool_call_id = ?');
    this.remove = db.prepare('DELETE FROM tool_runs WHERE tool_call_id = ?');
    this.waitingChats = db.prepare(
      // The spending cap's questions wait on the person too (session-budget.ts).
      `SELECT a.session_id AS sessionId, s.title AS title
        FROM (SELECT session_id, requested_at FROM pending_approvals
              UNION ALL SELECT session_id, requested_at FROM pending_spending_caps) a
        JOIN sessions s ON s.id = a.session_id
        GROUP BY a.session_id ORDER BY max(a.requested_at) DESC`,
    );
  }

  began(run: ToolRunStart): void {
    this.insert.run({ ...run, summary: run.summary ?? null });
  }

  output(toolCallId: string, text: string, at: number): void {
    this.update.run(text, at, toolCallId);
  }

  settled(toolCallId: string): void {
    this.remove.run(toolCallId);
  }

  /** An approval asked and not answered yet: kept until it is. */
  asked(sessionId: string, request: ApprovalRequest): void {
    this.db
      .prepare(
        'INSERT OR REPLACE INTO pending_approvals (id, session_id, request_json, requested_at) VALUES (?, ?, ?, ?)',
      )
      .run(request.id, sessionId, JSON.stringify(request), request.requestedAt);
  }

  answered(requestId: string): void {
    this.db.prepare('DELETE FROM pending_approvals WHERE id = ?').run(requestId);
  }

  /** A chat's approvals still waiting, oldest first (a row that no longer parses is skipped). */
  approvalsOf(sessionId: string): ApprovalRequest[] {
    const rows = this.db
      .prepare<[string], { request_json: string }>(
        'SELECT request_json FROM pending_approvals WHERE session_id = ? ORDER BY requested_at',
      )
      .all(sessionId);
    return rows.flatMap((row) => {
      try {
        return [JSON.parse(row.request_json) as ApprovalRequest];
      } catch {
        return [];
      }
    });
  }

  /** The chats with an approval (or the spending cap's question) waiting, newest first, with their titles (the sidebar's rows). */
  chatsWaiting(): { sessionId: string; title: string }[] {
    return this.waitingChats.all();
  }

  /**
   * The calls a stopped process left: each is given its result (through `append`, the store's own
   * turn write) unless one is stored already, and forgotten — all in one transaction, so a crash
   * here leaves them to the next start. A call of a deleted session is just forgotten.
   */
  recover(now: number, append: (sessionId: string, message: ChatMessage) => void): RecoveredRun[] {
    const rows = this.db.prepare<[], ToolRunRow>('SELECT * FROM tool_runs ORDER BY started_at').all();
    if (rows.length === 0) return [];
    const sessionExists = this.db.prepare<[string], number>('SELECT 1 FROM sessions WHERE id = ?').pluck();
    const hasResult = this.db
      .prepare<[string, string], number>(
        `SELECT 1 FROM turns WHERE session_id = ? AND role = 'toolResult'
          AND json_valid(message_json) AND json_extract(message_json, '$.toolCallId') = ?`,
      )
      .pluck();
    const recovered: RecoveredRun[] = [];
    this.db
      .transaction(() => {
        for (const row of rows) {
          this.remove.run(row.tool_call_id);
          if (!sessionExists.get(row.session_id) || hasResult.get(row.session_id, row.tool_call_id)) continue;
          const message = interruptedResult(row, now);
          append(row.session_id, message);
          recovered.push({ sessionId: row.session_id, message });
        }
      })
      .immediate();
    return recovered;
  }
}

function interruptedResult(row: ToolRunRow, now: number): ToolResultChatMessage {
  const details: ToolResultDetails = {
    interrupted: true,
    // Until its last sign of life: the time the app was down is not the call's.
    durationMs: Math.max(0, row.updated_at - row.started_at),
    ...(row.summary ? { summary: row.summary } : {}),
  };
  return {
    role: 'toolResult',
    toolCallId: row.tool_call_id,
    toolName: row.tool_name,
    content: [{ type: 'text', text: interruptedToolText(row.tool_name, row.output) }],
    details,
    isError: true,
    timestamp: now,
  };
}

// The SQLite history store (docs/architecture.md, "Where data lives"): AgentSession writes every
// ended turn, retry chain and retry decision through it, and the commands' handlers read the history
// view, search, exports and the resume context from it. better-sqlite3 is synchronous, so a write
// has been committed (and, with synchronous = FULL, fsynced) when the method returns. Open it with
// openHistoryStore.
import { newId } from '../../../shared/ids';
import type Database from 'better-sqlite3';
import type { HistoryStore, NewSession, NewTurn } from '../../core/ports';
import type { ChainOutcome } from '../../../shared/error-category';
import type {
  ErroredTurn,
  FailureCostReport,
  RetryDecisionRecord,
  SearchHit,
  SessionDetail,
  SessionSummary,
  TurnPage,
  TurnRecord,
} from '../../../shared/history';
import type { ChatMessage } from '../../../shared/messages';
import type { SandboxAuditRecord } from '../../../shared/tools';
import { exportSessionDetail, type ExportFormat, type ExportOptions, type SessionExport } from './history-export';
import type { HistoryDatabaseError } from './history-errors';
import { checkIntegrityInBackground, type BackgroundCheck } from './history-integrity';
import { nativeBinding, openHistoryDatabase, type OpenedHistoryDatabase } from './history-open';
import {
  closeInterruptedChains,
  interruptedSessions,
  scheduleChain,
  scheduledChains,
  type InterruptedChain,
  type ScheduledChain,
} from './interrupted-chains';
import { HistoryQueries } from './history-queries';
import { AttachmentTable } from './attachment-table';
import { InstructionsTable, type InstructionsOverride } from './session-instructions';
import { BudgetTable } from './session-budget';
import { SPENT_SINCE } from './session-totals';
import type { ChatBudget, SpendingCapRequest } from '../../../shared/spending-cap';
import { toDecisionRow, toTurnRow, turnRecord, type DecisionRow, type TurnRow } from './history-rows';
import { readSchemaVersion } from './migrations';
import { failureCostReport } from './history-failures';
import { FileHistoryTable } from './file-history-table';
import { ToolRunTable, type RecoveredRun } from './tool-runs';

export interface OpenHistoryStoreOptions {
  /**
   * Default false. Only when the person agreed: a damaged file is moved to
   * `<path>.damaged-<timestamp>` (with its -wal/-shm) and a new, empty history is started.
   * Never applies to a file from a newer version or one that cannot be read.
   */
  startFresh?: boolean;
}

/**
 * Opens (creating if needed) the history at `path`. Throws HistoryDatabaseError — leaving the file
 * untouched — when it was written by a newer Resolute, is damaged, or cannot be read.
 */
export function openHistoryStore(path: string, options: OpenHistoryStoreOptions = {}): SqliteHistoryStore {
  const { db, movedAsideTo, checked, backup } = openHistoryDatabase(path, options);
  const store = new SqliteHistoryStore(db, movedAsideTo, checked);
  store.backupBeforeMigration = backup;
  return store;
}

interface SessionParams {
  id: string;
  title: string;
  createdAt: number;
  model: string;
  provider: string;
  workspace: string;
}

const SQL = {
  // "Insert if absent"; a row made as a placeholder by a write that arrived first (see
  // ensureSessionRow) gets its empty title, model and provider filled in.
  insertSession: `INSERT INTO sessions (id, title, created_at, updated_at, model, provider, workspace)
    VALUES (@id, @title, @createdAt, @createdAt, @model, @provider, @workspace)
    ON CONFLICT (id) DO UPDATE SET
      title = CASE WHEN sessions.title = '' THEN excluded.title ELSE sessions.title END,
      model = CASE WHEN sessions.model = '' THEN excluded.model ELSE sessions.model END,
      provider = CASE WHEN sessions.provider = '' THEN excluded.provider ELSE sessions.provider END,
      workspace = CASE WHEN sessions.workspace = '' THEN excluded.workspace ELSE sessions.workspace END,
      created_at = min(sessions.created_at, excluded.created_at)`,
  nextSeq: 'SELECT coalesce(max(seq), 0) + 1 FROM turns WHERE session_id = ?',
  insertTurn: `INSERT INTO turns (id, session_id, seq, role, message_json, stop_reason, error_category, chain_id, created_at,
      cost_usd, branch_from)
    VALUES (@id, @session_id, @seq, @role, @message_json, @stop_reason, @error_category, @chain_id, @created_at,
      @cost_usd, @branch_from)`,
  touchSession: 'UPDATE sessions SET updated_at = max(updated_at, ?) WHERE id = ?',
  renameSession: 'UPDATE sessions SET title = ? WHERE id = ?',
  openChain: 'INSERT INTO retry_chains (id, session_id, started_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING',
  closeChain: 'UPDATE retry_chains SET outcome = ?, attempts = ?, final_error = ?, ended_at = ? WHERE id = ?',
  reopenChain: `UPDATE retry_chains SET outcome = 'pending', final_error = NULL, ended_at = NULL WHERE id = ?`,
  linkTurn: 'UPDATE turns SET chain_id = ? WHERE id = ?',
  // A decision is a log line: the same record sent twice is stored once.
  insertDecision: `INSERT INTO retry_decisions (id, session_id, turn_id, chain_id, timestamp, level, error_type, category,
      attempt, action, wait_seconds, reason, error_message, context_json, final_decision)
    VALUES (@id, @session_id, @turn_id, @chain_id, @timestamp, @level, @error_type, @category,
      @attempt, @action, @wait_seconds, @reason, @error_message, @context_json, @final_decision)
    ON CONFLICT (id) DO NOTHING`,
  setWorkspace: 'UPDATE sessions SET workspace = ? WHERE id = ?',
  insertAudit: `INSERT INTO sandbox_audit (id, session_id, timestamp, tool_call_id, tool_name, args_json, workspace, target, reason)
    VALUES (@id, @sessionId, @timestamp, @toolCallId, @toolName, @argsJson, @workspace, @target, @reason)
    ON CONFLICT (id) DO NOTHING`,
  // ON DELETE CASCADE takes the turns (and, through their triggers, the search rows), chains and decisions.
  deleteSession: 'DELETE FROM sessions WHERE id = ?',
} as const;

export class SqliteHistoryStore implements HistoryStore {
  /** Where `startFresh` moved a damaged database, or null when nothing was moved. */
  readonly movedAsideTo: string | null;
  /** The copy of the file kept before this start migrated it (history-open.ts), for the start-up notice. */
  backupBeforeMigration: OpenedHistoryDatabase['backup'] = null;
  readonly path: string;
  private readonly db: Database.Database;
  private readonly queries: HistoryQueries;
  /** The tool calls running now (tool-runs.ts), written by the ToolRunJournal. */
  readonly toolRuns: ToolRunTable;
  private readonly attachments: AttachmentTable;
  /** The file history's contents, changes and undo journal (docs/file-history.md). */
  readonly files: FileHistoryTable;
  private readonly instructions: InstructionsTable;
  private readonly budgets: BudgetTable;
  /** Prepared on the first request under a day cap. */
  private spentSinceStmt: Database.Statement<[number], { tokens: number; costUsd: number }> | undefined;
  private readonly insertSessionStmt: Database.Statement<[SessionParams]>;
  private readonly nextSeqStmt: Database.Statement<[string], number>;
  private readonly insertTurnStmt: Database.Statement<[TurnRow]>;
  private readonly touchSessionStmt: Database.Statement<[number, string]>;
  private readonly openChainStmt: Database.Statement<[string, string, number]>;
  private readonly closeChainStmt: Database.Statement<[ChainOutcome, number, string | null, number, string]>;
  private readonly linkTurnStmt: Database.Statement<[string, string]>;
  private readonly reopenChainStmt: Database.Statement<[string]>;
  private readonly insertDecisionStmt: Database.Statement<[DecisionRow]>;
  private readonly deleteSessionStmt: Database.Statement<[string]>;
  private readonly renameSessionStmt: Database.Statement<[string, string]>;
  private readonly writeTurn: (turn: NewTurn) => TurnRecord;
  private readonly writeChain: (chain: { id: string; sessionId: string; startedAt: number }) => void;
  private readonly writeDecision: (record: RetryDecisionRecord) => void;
  private readonly setWorkspaceStmt: Database.Statement<[string, string]>;
  private readonly writeAudit: (record: SandboxAuditRecord) => void;
  private readonly writeBatch: (writes: () => void) => void;

  private readonly checkedAtOpen: boolean;
  private background: BackgroundCheck | undefined;

  constructor(db: Database.Database, movedAsideTo: string | null = null, checkedAtOpen = true) {
    this.db = db;
    this.checkedAtOpen = checkedAtOpen;
    this.path = db.name;
    this.movedAsideTo = movedAsideTo;
    this.attachments = new AttachmentTable(db);
    this.files = new FileHistoryTable(db);
    this.instructions = new InstructionsTable(db);
    this.budgets = new BudgetTable(db);
    this.queries = new HistoryQueries(db, this.attachments);
    this.toolRuns = new ToolRunTable(db);
    this.insertSessionStmt = db.prepare(SQL.insertSession);
    this.nextSeqStmt = db.prepare<[string], number>(SQL.nextSeq).pluck();
    this.insertTurnStmt = db.prepare(SQL.insertTurn);
    this.touchSessionStmt = db.prepare(SQL.touchSession);
    this.openChainStmt = db.prepare(SQL.openChain);
    this.closeChainStmt = db.prepare(SQL.closeChain);
    this.linkTurnStmt = db.prepare(SQL.linkTurn);
    this.reopenChainStmt = db.prepare(SQL.reopenChain);
    this.insertDecisionStmt = db.prepare(SQL.insertDecision);
    this.deleteSessionStmt = db.prepare(SQL.deleteSession);
    this.renameSessionStmt = db.prepare(SQL.renameSession);
    this.setWorkspaceStmt = db.prepare(SQL.setWorkspace);
    const insertAudit = db.prepare(SQL.insertAudit);
    this.writeAudit = immediate(db, (record: SandboxAuditRecord) => {
      const at = Date.parse(record.timestamp);
      this.ensureSessionRow(record.sessionId, Number.isFinite(at) ? at : Date.now());
      insertAudit.run({ ...record, argsJson: JSON.stringify(record.args) });
    });
    // IMMEDIATE: take the write lock up front, so that a read-then-write (the next seq) cannot
    // fail half-way with SQLITE_BUSY when another connection writes at the same moment.
    this.writeTurn = immediate(db, (turn: NewTurn) => this.insertTurn(turn));
    this.writeChain = immediate(db, (chain: { id: string; sessionId: string; startedAt: number }) => {
      this.ensureSessionRow(chain.sessionId, chain.startedAt);
      this.openChainStmt.run(chain.id, chain.sessionId, chain.startedAt);
    });
    this.writeDecision = immediate(db, (record: RetryDecisionRecord) => {
      const at = Date.parse(record.timestamp);
      this.ensureSessionRow(
        record.context.sessionId,
        Number.isFinite(at) ? at : Date.now(),
        record.context.modelId,
        record.context.provider,
      );
      this.insertDecisionStmt.run(toDecisionRow(record));
    });
    // The writes inside nest as savepoints of this one transaction: a single commit.
    this.writeBatch = immediate(db, (writes: () => void) => writes());
  }

  /** The schema version of the open file (LATEST_SCHEMA_VERSION after a successful open). */
  get schemaVersion(): number {
    return readSchemaVersion(this.db);
  }

  // ---- HistoryWriter ----

  ensureSession(session: NewSession): void {
    this.insertSessionStmt.run({ ...session, workspace: session.workspace ?? '' });
  }

  setSessionWorkspace(sessionId: string, workspace: string): void {
    this.setWorkspaceStmt.run(workspace, sessionId);
  }

  /** A conversation's own instructions (session-instructions.ts); null removes them. */
  setSessionInstructions(sessionId: string, override: InstructionsOverride | null): void {
    this.instructions.write(sessionId, override);
  }

  sessionInstructions(sessionId: string): InstructionsOverride | null {
    return this.instructions.read(sessionId);
  }

  /** A chat's own spending cap (session-budget.ts); null removes it. */
  setSessionBudget(sessionId: string, budget: ChatBudget | null): void {
    this.budgets.write(sessionId, budget);
  }

  sessionBudget(sessionId: string): ChatBudget | null {
    return this.budgets.read(sessionId);
  }

  /** What every chat's attempts used since `since` (epoch ms), failed ones included: the day cap's count. */
  spentSince(since: number): { tokens: number; costUsd: number } {
    this.spentSinceStmt ??= this.db.prepare<[number], { tokens: number; costUsd: number }>(SPENT_SINCE);
    return this.spentSinceStmt.get(since) ?? { tokens: 0, costUsd: 0 };
  }

  /** The spending cap's question, kept until answered so a restart asks it again (session-budget.ts). */
  keepSpendingCapQuestion(request: SpendingCapRequest): void {
    this.budgets.asked(request);
  }

  forgetSpendingCapQuestion(sessionId: string): void {
    this.budgets.answered(sessionId);
  }

  spendingCapQuestion(sessionId: string): SpendingCapRequest | null {
    return this.budgets.question(sessionId);
  }

  recordAudit(record: SandboxAuditRecord): void {
    this.writeAudit(record);
  }

  appendTurn(turn: NewTurn): TurnRecord {
    return this.writeTurn(turn);
  }

  openChain(chain: { id: string; sessionId: string; startedAt: number }): void {
    this.writeChain(chain);
  }

  closeChain(
    chainId: string,
    end: { outcome: ChainOutcome; attempts: number; finalError: string | null; endedAt: number },
  ): void {
    this.closeChainStmt.run(end.outcome, end.attempts, end.finalError, end.endedAt, chainId);
  }

  scheduleChain(chainId: string, at: number | null): void {
    scheduleChain(this.db, chainId, at);
  }

  /** The schedules a quit or a crash left, soonest first (the start takes them up again). */
  scheduledChains(limit = 20): ScheduledChain[] {
    return scheduledChains(this.db, limit);
  }

  linkTurnToChain(turnId: string, chainId: string): void {
    this.linkTurnStmt.run(chainId, turnId);
  }

  reopenChain(chainId: string): void {
    this.reopenChainStmt.run(chainId);
  }

  /** The interrupted chains' sessions, newest chain first (the start-up offers the newest one). */
  interruptedSessions(limit = 20): string[] {
    return interruptedSessions(this.db, limit);
  }

  /** Failed attempts since `since` (epoch ms; null = all), totalled per session and per category. */
  failureCost(since: number | null): FailureCostReport {
    return failureCostReport(this.db, since);
  }

  recordDecision(record: RetryDecisionRecord): void {
    this.writeDecision(record);
  }

  batch(writes: () => void): void {
    this.writeBatch(writes);
  }

  // ---- HistoryReader ----

  listSessions(options?: { limit?: number; offset?: number }): SessionSummary[] {
    return this.queries.listSessions(options);
  }

  getSession(sessionId: string, limit?: number): SessionDetail | undefined {
    return this.queries.getSession(sessionId, limit);
  }

  sessionTurns(sessionId: string, beforeSeq: number, limit?: number): TurnPage | undefined {
    return this.queries.sessionTurns(sessionId, beforeSeq, limit);
  }

  sessionSummary(sessionId: string): SessionSummary | undefined {
    return this.queries.sessionSummary(sessionId);
  }

  search(query: string, limit?: number): SearchHit[] {
    return this.queries.search(query, limit);
  }

  erroredTurns(limit?: number): ErroredTurn[] {
    return this.queries.erroredTurns(limit);
  }

  /** Gives a session a title of the person's; false when there is no such session. */
  renameSession(sessionId: string, title: string): boolean {
    return this.renameSessionStmt.run(title, sessionId).changes > 0;
  }

  /**
   * Removes the session with its turns, search entries, chains and decisions (ON DELETE CASCADE),
   * the attachments no other session's turn uses (attachment-table.ts's trigger) and its file
   * changes with the contents no other change refers to (file-history-table.ts's trigger).
   */
  deleteSession(sessionId: string): boolean {
    // Its file contents go too (file-history-table.ts's trigger): no snapshot may count on them.
    this.files.generation += 1;
    return this.deleteSessionStmt.run(sessionId).changes > 0;
  }

  exportSession(sessionId: string, format: ExportFormat, options?: ExportOptions): SessionExport | undefined {
    const detail = this.queries.getSession(sessionId);
    if (detail === undefined) return undefined;
    return exportSessionDetail(detail, format, options, this.files.sessionChanges(sessionId));
  }

  loadContext(sessionId: string, options?: { beforeSeq?: number }): ChatMessage[] {
    return this.queries.loadContext(sessionId, options);
  }

  /** At start: the chains a stopped process left pending, closed as interrupted (interrupted-chains.ts). */
  closeInterruptedChains(now: number): InterruptedChain[] {
    return closeInterruptedChains(this.db, now);
  }

  /** At start: the tool calls a stopped process left running, each given its "interrupted" result (tool-runs.ts). */
  recoverToolRuns(now: number): RecoveredRun[] {
    return this.toolRuns.recover(now, (sessionId, message) => this.insertTurn({ sessionId, message }));
  }

  /**
   * The integrity check the open left to the background: quick_check in a worker thread, on its
   * own read-only connection. Resolves with the damage found (and marks the file, so the next start
   * refuses it before opening), or null — at once when the open already checked the file.
   */
  checkIntegrity(): Promise<HistoryDatabaseError | null> {
    if (this.checkedAtOpen || !this.db.open) return Promise.resolve(null);
    this.background ??= checkIntegrityInBackground(this.path, nativeBinding());
    return this.background.result;
  }

  /** Closes the connection; SQLite checkpoints the WAL into the main file. Safe to call twice. */
  close(): void {
    this.background?.stop();
    if (this.db.open) this.db.close();
  }

  private insertTurn(turn: NewTurn): TurnRecord {
    const { message } = turn;
    const isAssistant = message.role === 'assistant';
    const createdAt = Number.isFinite(message.timestamp) ? message.timestamp : Date.now();
    this.ensureSessionRow(
      turn.sessionId,
      createdAt,
      isAssistant ? message.model : '',
      isAssistant ? message.provider : '',
    );
    const record = turnRecord(message, {
      id: newId(),
      sessionId: turn.sessionId,
      seq: this.nextSeqStmt.get(turn.sessionId) ?? 1,
      errorCategory: turn.errorCategory ?? null,
      chainId: turn.chainId ?? null,
      createdAt,
      costUsd: isAssistant && typeof turn.costUsd === 'number' && Number.isFinite(turn.costUsd) ? turn.costUsd : null,
      branchFrom: turn.branchFrom ?? null,
    });
    // Attachments first (the turn's row refers to them), their uses after it (they refer to the row).
    const { stored, hashes } = this.attachments.stow(message);
    this.insertTurnStmt.run(toTurnRow(stored === message ? record : { ...record, message: stored }));
    this.attachments.recordUses(record.id, hashes);
    if (turn.fileChanges)
      this.files.record({ id: record.id, seq: record.seq, sessionId: turn.sessionId, createdAt }, turn.fileChanges);
    this.touchSessionStmt.run(createdAt, turn.sessionId);
    return record;
  }

  /**
   * A turn, chain or decision for a session that ensureSession never saw still gets stored — losing
   * it would be worse — under a placeholder session row that a later ensureSession completes.
   */
  private ensureSessionRow(sessionId: string, at: number, model = '', provider = ''): void {
    this.insertSessionStmt.run({ id: sessionId, title: '', createdAt: at, model, provider, workspace: '' });
  }
}

function immediate<A extends unknown[], R>(db: Database.Database, fn: (...args: A) => R): (...args: A) => R {
  const transaction = db.transaction(fn);
  return (...args: A) => transaction.immediate(...args);
}

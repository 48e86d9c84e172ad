// The shapes of the history tables' rows and their mapping to the records of src/shared/history.ts.
// Shared by the read queries (history-queries.ts) and the store's writes (sqlite-history-store.ts),
// so that a column is named in one place on each side.
import type { ChainOutcome, ErrorCategory } from '../../../shared/error-category';
import type {
  DecisionAction,
  LogLevel,
  RetryChainRecord,
  RetryDecisionRecord,
  TurnRecord,
} from '../../../shared/history';
import { messageText, type ChatMessage } from '../../../shared/messages';
import { readWaitTooLong } from '../../../shared/retry-policy/decision-table';
import { decodeMessage, encodeMessage } from './message-codec';
import type { SessionTotalRow } from './session-totals';

/** A turn as stored: what the message itself says (text, model, usage, error) is read from message_json. */
export interface TurnRow {
  id: string;
  session_id: string;
  seq: number;
  role: string;
  message_json: string;
  stop_reason: string | null;
  error_category: string | null;
  chain_id: string | null;
  created_at: number;
  /** What the attempt cost at its model's list price; NULL when unknown. */
  cost_usd: number | null;
  branch_from: number | null;
}

export interface ChainRow {
  id: string;
  session_id: string;
  outcome: string;
  attempts: number;
  final_error: string | null;
  started_at: number;
  ended_at: number | null;
}

export interface DecisionRow {
  id: string;
  session_id: string;
  turn_id: string | null;
  chain_id: string | null;
  timestamp: string;
  level: string;
  error_type: string;
  category: string;
  attempt: number;
  action: string;
  wait_seconds: number;
  reason: string;
  error_message: string;
  context_json: string;
  final_decision: string | null;
}

export interface SessionRow extends SessionTotalRow {
  id: string;
  title: string;
  created_at: number;
  updated_at: number;
  model: string;
  provider: string;
  workspace: string;
  turn_count: number;
  errored_turn_count: number;
}

// The casts below trust the columns: the store is the only writer, it writes these fields from
// typed records, and a file from a newer schema is refused at open.

/**
 * The turn columns every read of turns selects (alias `t`), in this order. The reads that return
 * many turns run as raw statements, a value array per row: better-sqlite3 builds an array in about
 * half the time of an object with named keys, which for a whole session is more than the JSON.parse.
 */
const TURN_COLUMN_NAMES = [
  'id',
  'session_id',
  'seq',
  'role',
  'message_json',
  'stop_reason',
  'error_category',
  'chain_id',
  'created_at',
  'cost_usd',
  'branch_from',
] as const satisfies readonly (keyof TurnRow)[];

export const TURN_COLUMNS = TURN_COLUMN_NAMES.map((name) => `t.${name}`).join(', ');

/** The values of the columns `Names` of a turn row, by position (a generic, so that it maps to a tuple). */
type ValuesOf<Names extends readonly (keyof TurnRow)[]> = {
  -readonly [K in keyof Names]: Names[K] extends keyof TurnRow ? TurnRow[Names[K]] : never;
};
/** A turn as a raw statement returns it: the values of TURN_COLUMNS by position. */
export type TurnColumns = ValuesOf<typeof TURN_COLUMN_NAMES>;

/** A row read with named keys (a query that selects more than the turn) as TURN_COLUMNS' values. */
export function turnColumnsOf(row: TurnRow): TurnColumns {
  return TURN_COLUMN_NAMES.map((name) => row[name]) as unknown as TurnColumns;
}

export function toTurnRecord(columns: TurnColumns): TurnRecord {
  const [id, sessionId, seq, role, json, stopReason, errorCategory, chainId, createdAt, costUsd, branchFrom] = columns;
  const message = decodeMessage(json, { role, createdAt, stopReason });
  return turnRecord(message, {
    id,
    sessionId,
    seq,
    errorCategory: errorCategory as ErrorCategory | null,
    chainId,
    createdAt,
    costUsd,
    branchFrom,
  });
}

/**
 * A raw read's rows as their records, in place. Each row's values (its JSON text above all) become
 * garbage as soon as its record is built; a new array beside the rows would keep every row alive
 * until the last, and a minor GC in between would copy all of them (a third of a long session's read).
 */
export function toTurnRecords(rows: TurnColumns[]): TurnRecord[] {
  const slots = rows as unknown as (TurnColumns | TurnRecord)[];
  for (let i = 0; i < slots.length; i += 1) slots[i] = toTurnRecord(slots[i] as TurnColumns);
  return slots as TurnRecord[];
}

/** A turn's record from its message and what the store adds; the store's write and read paths share it. */
export function turnRecord(
  message: ChatMessage,
  stored: Pick<
    TurnRecord,
    'id' | 'sessionId' | 'seq' | 'errorCategory' | 'chainId' | 'createdAt' | 'costUsd' | 'branchFrom'
  >,
): TurnRecord {
  const assistant = message.role === 'assistant' ? message : null;
  // Field by field, not `...stored`: an object spread costs more than the JSON.parse of the turn.
  return {
    id: stored.id,
    sessionId: stored.sessionId,
    seq: stored.seq,
    errorCategory: stored.errorCategory,
    chainId: stored.chainId,
    createdAt: stored.createdAt,
    role: message.role,
    text: messageText(message),
    message,
    model: assistant?.model ?? null,
    provider: assistant?.provider ?? null,
    stopReason: assistant?.stopReason ?? null,
    errorMessage: assistant?.errorMessage ?? null,
    usage: assistant?.usage ?? null,
    costUsd: stored.costUsd,
    branchFrom: stored.branchFrom ?? null,
  };
}

export function toTurnRow(record: TurnRecord): TurnRow {
  return {
    id: record.id,
    session_id: record.sessionId,
    seq: record.seq,
    role: record.role,
    message_json: encodeMessage(record.message, {
      role: record.role,
      createdAt: record.createdAt,
      stopReason: record.stopReason,
    }),
    stop_reason: record.stopReason,
    error_category: record.errorCategory,
    chain_id: record.chainId,
    created_at: record.createdAt,
    cost_usd: record.costUsd,
    branch_from: record.branchFrom ?? null,
  };
}

export function toChainRecord(row: ChainRow): RetryChainRecord {
  return {
    id: row.id,
    sessionId: row.session_id,
    outcome: row.outcome as ChainOutcome,
    attempts: row.attempts,
    finalError: row.final_error,
    startedAt: row.started_at,
    endedAt: row.ended_at,
  };
}

/**
 * The wait facts of a decision (RetryDecisionRecord.hintMs, maxDelayMs) ride in context_json beside
 * the context, so no migration was needed; a record stored before they were kept says the same
 * thing in its reason, which is read once, here, for it.
 */
type WaitFacts = Pick<RetryDecisionRecord, 'hintMs' | 'maxDelayMs' | 'retryAt' | 'scheduled'>;
type StoredContext = RetryDecisionRecord['context'] & { wait?: WaitFacts };

function waitFacts(stored: StoredContext, reason: string): WaitFacts {
  if (stored.wait) return stored.wait;
  const legacy = readWaitTooLong(reason);
  return legacy ? { hintMs: legacy.waitSeconds * 1000, maxDelayMs: legacy.maxSeconds * 1000 } : {};
}

export function toDecisionRecord(row: DecisionRow): RetryDecisionRecord {
  const stored = JSON.parse(row.context_json) as StoredContext;
  const { wait: _wait, ...context } = stored;
  return {
    id: row.id,
    timestamp: row.timestamp,
    level: row.level as LogLevel,
    errorType: row.error_type,
    category: row.category as ErrorCategory,
    attempt: row.attempt,
    action: row.action as DecisionAction,
    waitSeconds: row.wait_seconds,
    reason: row.reason,
    errorMessage: row.error_message,
    ...waitFacts(stored, row.reason),
    context,
    finalDecision: row.final_decision as RetryDecisionRecord['finalDecision'],
    chainId: row.chain_id,
  };
}

function storedContext(record: RetryDecisionRecord): StoredContext {
  const { hintMs, maxDelayMs, retryAt, scheduled } = record;
  const wait: WaitFacts = {
    ...(hintMs !== undefined ? { hintMs } : {}),
    ...(maxDelayMs !== undefined ? { maxDelayMs } : {}),
    ...(retryAt !== undefined ? { retryAt } : {}),
    ...(scheduled ? { scheduled } : {}),
  };
  return Object.keys(wait).length === 0 ? record.context : { ...record.context, wait };
}

export function toDecisionRow(record: RetryDecisionRecord): DecisionRow {
  return {
    id: record.id,
    session_id: record.context.sessionId,
    turn_id: record.context.turnId,
    chain_id: record.chainId,
    timestamp: record.timestamp,
    level: record.level,
    error_type: record.errorType,
    category: record.category,
    attempt: record.attempt,
    action: record.action,
    wait_seconds: record.waitSeconds,
    reason: record.reason,
    error_message: record.errorMessage,
    context_json: JSON.stringify(storedContext(record)),
    final_decision: record.finalDecision,
  };
}

// The file history in the history database (docs/file-history.md): each file's contents stored once
// by the SHA-256 of its bytes, the changes each tool call made (written in its result's
// transaction), what could not be recorded, and the undo journal — one row per undo or redo and one
// step per file, so a kill in the middle leaves a record that says which files were done. A
// session's delete cascades to its changes, and a trigger removes contents nothing refers to any more.
// SqliteHistoryStore owns one; the undo (src/main/node/file-history/) reads and writes through it.
import type Database from 'better-sqlite3';
import type { RecordedFiles } from '../../core/ports';
import type {
  FileChange,
  FileUndoRecord,
  FileVersion,
  NotRecordedNote,
  SessionFileChanges,
  StoredFileChange,
} from '../../../shared/file-history';
import type { Migration } from './migration';

// A change names its turn by id only (like a decision): the turn's row is written in the same
// transaction, and the session's delete takes both. before/after are null for a file absent then.
const SCHEMA_V10 = `
CREATE TABLE file_contents (
  hash TEXT PRIMARY KEY,
  size INTEGER NOT NULL,
  data BLOB NOT NULL
);
CREATE TABLE file_changes (
  n INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  turn_id TEXT NOT NULL,
  turn_seq INTEGER NOT NULL,
  tool_call_id TEXT NOT NULL,
  tool_name TEXT NOT NULL,
  workspace TEXT NOT NULL,
  path TEXT NOT NULL,
  kind TEXT NOT NULL,
  before_hash TEXT, before_mode INTEGER, before_size INTEGER,
  after_hash TEXT, after_mode INTEGER, after_size INTEGER,
  added INTEGER NOT NULL,
  removed INTEGER NOT NULL,
  binary INTEGER NOT NULL,
  state TEXT NOT NULL DEFAULT 'applied',
  created_at INTEGER NOT NULL
);
CREATE INDEX file_changes_by_session ON file_changes (session_id, turn_seq);
CREATE INDEX file_changes_by_before ON file_changes (before_hash);
CREATE INDEX file_changes_by_after ON file_changes (after_hash);
CREATE TABLE file_not_recorded (
  n INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  turn_id TEXT NOT NULL,
  turn_seq INTEGER NOT NULL,
  tool_call_id TEXT NOT NULL,
  reason TEXT NOT NULL
);
CREATE INDEX file_not_recorded_by_session ON file_not_recorded (session_id, turn_seq);
CREATE TABLE file_undos (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  action TEXT NOT NULL,
  state TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX file_undos_by_session ON file_undos (session_id, created_at);
CREATE TABLE file_undo_steps (
  undo_id TEXT NOT NULL REFERENCES file_undos (id) ON DELETE CASCADE,
  path TEXT NOT NULL,
  workspace TEXT NOT NULL,
  changes_json TEXT NOT NULL,
  target_hash TEXT, target_mode INTEGER, target_size INTEGER,
  state TEXT NOT NULL,
  PRIMARY KEY (undo_id, workspace, path)
) WITHOUT ROWID;
CREATE TRIGGER file_contents_unused AFTER DELETE ON file_changes
BEGIN
  DELETE FROM file_contents WHERE hash IN (OLD.before_hash, OLD.after_hash)
    AND NOT EXISTS (SELECT 1 FROM file_changes WHERE before_hash = file_contents.hash OR after_hash = file_contents.hash);
END;
`;

export const FILE_HISTORY_MIGRATION: Migration = {
  version: 10,
  description: "file history: contents stored once, each tool call's file changes, the undo journal",
  up: (db) => db.exec(SCHEMA_V10),
};

interface ChangeRow {
  n: number;
  session_id: string;
  turn_id: string;
  user_turn_id: string | null;
  tool_call_id: string;
  tool_name: string;
  workspace: string;
  path: string;
  kind: FileChange['kind'];
  before_hash: string | null;
  before_mode: number | null;
  before_size: number | null;
  after_hash: string | null;
  after_mode: number | null;
  after_size: number | null;
  added: number;
  removed: number;
  binary: number;
  state: StoredFileChange['state'];
  created_at: number;
}

/** A stored change with the workspace it was made in (the undo needs it; the clients do not). */
export type ChangeInWorkspace = StoredFileChange & { workspace: string; turnSeq: number };

/** One file of an undo's journal: the changes it undoes or redoes and the version it puts back. */
export interface UndoStepRow {
  undoId: string;
  path: string;
  workspace: string;
  changeIds: number[];
  target: FileVersion | null;
  state: FileUndoRecord['steps'][number]['state'];
}

const USER_TURN = `(SELECT u.id FROM turns u WHERE u.session_id = c.session_id AND u.role = 'user'
  AND u.seq < c.turn_seq ORDER BY u.seq DESC LIMIT 1)`;

const version = (hash: string | null, mode: number | null, size: number | null): FileVersion | null =>
  hash === null ? null : { hash, mode: mode ?? 0o644, size: size ?? 0 };

function toChange(row: ChangeRow & { turn_seq: number }): ChangeInWorkspace {
  return {
    id: row.n,
    turnId: row.turn_id,
    turnSeq: row.turn_seq,
    userTurnId: row.user_turn_id,
    toolCallId: row.tool_call_id,
    toolName: row.tool_name,
    workspace: row.workspace,
    path: row.path,
    kind: row.kind,
    before: version(row.before_hash, row.before_mode, row.before_size),
    after: version(row.after_hash, row.after_mode, row.after_size),
    added: row.added,
    removed: row.removed,
    binary: row.binary === 1,
    state: row.state,
    createdAt: row.created_at,
  };
}

export class FileHistoryTable {
  /** Bumped when contents may have been removed: a workspace snapshot must not count on what it stored before. */
  generation = 0;
  private readonly putContent: Database.Statement<[string, number, Uint8Array]>;
  private readonly hasContent: Database.Statement<[string], number>;
  private readonly readContent: Database.Statement<[string], Buffer>;
  private readonly insertChange: Database.Statement<Record<string, unknown>>;
  private readonly insertNote: Database.Statement<[string, string, number, string, string]>;

  constructor(private readonly db: Database.Database) {
    this.putContent = db.prepare(
      'INSERT INTO file_contents (hash, size, data) VALUES (?, ?, ?) ON CONFLICT (hash) DO NOTHING',
    );
    this.hasContent = db.prepare<[string], number>('SELECT 1 FROM file_contents WHERE hash = ?').pluck();
    this.readContent = db.prepare<[string], Buffer>('SELECT data FROM file_contents WHERE hash = ?').pluck();
    this.insertChange = db.prepare(`INSERT INTO file_changes (session_id, turn_id, turn_seq, tool_call_id, tool_name,
      workspace, path, kind, before_hash, before_mode, before_size, after_hash, after_mode, after_size, added, removed,
      binary, created_at) VALUES (@session_id, @turn_id, @turn_seq, @tool_call_id, @tool_name, @workspace, @path, @kind,
      @before_hash, @before_mode, @before_size, @after_hash, @after_mode, @after_size, @added, @removed, @binary,
      @created_at)`);
    this.insertNote = db.prepare(
      'INSERT INTO file_not_recorded (session_id, turn_id, turn_seq, tool_call_id, reason) VALUES (?, ?, ?, ?, ?)',
    );
  }

  /** Contents a workspace snapshot read (bash), in one transaction; a change refers to them later. */
  storeContents(contents: readonly { hash: string; bytes: Uint8Array }[]): void {
    if (contents.length === 0) return;
    this.db.transaction(() => {
      for (const { hash, bytes } of contents) this.putContent.run(hash, bytes.length, bytes);
    })();
  }

  content(hash: string): Buffer | null {
    return this.readContent.get(hash) ?? null;
  }

  /**
   * A tool result's changes, inside its turn's transaction. A change whose content before (or after)
   * is not stored — removed since the snapshot took it — is said instead of kept.
   */
  record(turn: { id: string; seq: number; sessionId: string; createdAt: number }, files: NewFiles): void {
    for (const { hash, bytes } of files.contents) this.putContent.run(hash, bytes.length, bytes);
    const notes = [...files.notRecorded];
    for (const change of files.changes) {
      const missing = [change.before, change.after].some(
        (v) => v !== null && this.hasContent.get(v.hash) === undefined,
      );
      if (missing) {
        notes.push(`${change.path} (its content was not kept)`);
        continue;
      }
      this.insertChange.run({
        session_id: turn.sessionId,
        turn_id: turn.id,
        turn_seq: turn.seq,
        tool_call_id: files.toolCallId,
        tool_name: files.toolName,
        workspace: files.workspace,
        path: change.path,
        kind: change.kind,
        before_hash: change.before?.hash ?? null,
        before_mode: change.before?.mode ?? null,
        before_size: change.before?.size ?? null,
        after_hash: change.after?.hash ?? null,
        after_mode: change.after?.mode ?? null,
        after_size: change.after?.size ?? null,
        added: change.added,
        removed: change.removed,
        binary: change.binary ? 1 : 0,
        created_at: turn.createdAt,
      });
    }
    for (const reason of notes) this.insertNote.run(turn.sessionId, turn.id, turn.seq, files.toolCallId, reason);
  }

  /** A session's changes, oldest first; from a seq on, when given. */
  changes(sessionId: string, fromSeq = 0): ChangeInWorkspace[] {
    const rows = this.db
      .prepare<[string, number], ChangeRow & { turn_seq: number }>(
        `SELECT c.*, ${USER_TURN} AS user_turn_id FROM file_changes c
         WHERE c.session_id = ? AND c.turn_seq >= ? ORDER BY c.n`,
      )
      .all(sessionId, fromSeq);
    return rows.map(toChange);
  }

  /** What the clients see of a session's file history: its changes, the notes and the undos. */
  sessionChanges(sessionId: string): SessionFileChanges {
    const changes = this.changes(sessionId).map(({ workspace: _w, turnSeq: _s, ...change }) => change);
    return { sessionId, changes, notRecorded: this.notRecorded(sessionId), undos: this.undos(sessionId) };
  }

  notRecorded(sessionId: string): NotRecordedNote[] {
    const rows = this.db
      .prepare<[string], { turn_id: string; user_turn_id: string | null; tool_call_id: string; reason: string }>(
        `SELECT c.turn_id, c.tool_call_id, c.reason, ${USER_TURN} AS user_turn_id FROM file_not_recorded c
         WHERE c.session_id = ? ORDER BY c.n`,
      )
      .all(sessionId);
    const notes = new Map<string, NotRecordedNote>();
    for (const row of rows) {
      const key = `${row.turn_id}\n${row.tool_call_id}`;
      const note = notes.get(key) ?? {
        turnId: row.turn_id,
        userTurnId: row.user_turn_id,
        toolCallId: row.tool_call_id,
        reasons: [],
      };
      note.reasons.push(row.reason);
      notes.set(key, note);
    }
    return [...notes.values()];
  }

  /** The seq of a turn of the session, and the seq of the person's next message after it (null: none). */
  turnRange(sessionId: string, turnId: string): { seq: number; nextUserSeq: number | null } | null {
    const seq = this.db
      .prepare<[string, string], number>('SELECT seq FROM turns WHERE session_id = ? AND id = ?')
      .pluck()
      .get(sessionId, turnId);
    if (seq === undefined) return null;
    const next = this.db
      .prepare<[string, number], number>(
        "SELECT min(seq) FROM turns WHERE session_id = ? AND role = 'user' AND seq > ?",
      )
      .pluck()
      .get(sessionId, seq);
    return { seq, nextUserSeq: next ?? null };
  }

  /** Open an undo's journal: its row and one pending (or kept) step per file, before any file is touched. */
  beginUndo(undo: { id: string; sessionId: string; action: 'undo' | 'redo'; createdAt: number }, steps: UndoStepRow[]) {
    this.db
      .transaction(() => {
        this.db
          .prepare("INSERT INTO file_undos (id, session_id, action, state, created_at) VALUES (?, ?, ?, 'running', ?)")
          .run(undo.id, undo.sessionId, undo.action, undo.createdAt);
        const insert = this.db
          .prepare(`INSERT INTO file_undo_steps (undo_id, path, workspace, changes_json, target_hash,
        target_mode, target_size, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
        for (const step of steps)
          insert.run(
            undo.id,
            step.path,
            step.workspace,
            JSON.stringify(step.changeIds),
            step.target?.hash ?? null,
            step.target?.mode ?? null,
            step.target?.size ?? null,
            step.state,
          );
      })
      .immediate();
  }

  /** One file is in place: its step is done and its changes are undone (or applied again), in one transaction. */
  finishStep(step: UndoStepRow, state: 'done' | 'not_done', action: 'undo' | 'redo'): void {
    this.db
      .transaction(() => {
        this.db
          .prepare('UPDATE file_undo_steps SET state = ? WHERE undo_id = ? AND workspace = ? AND path = ?')
          .run(state, step.undoId, step.workspace, step.path);
        if (state !== 'done') return;
        const mark = this.db.prepare('UPDATE file_changes SET state = ? WHERE n = ?');
        for (const id of step.changeIds) mark.run(action === 'undo' ? 'undone' : 'applied', id);
      })
      .immediate();
  }

  endUndo(undoId: string, state: 'done' | 'interrupted'): void {
    this.db.prepare('UPDATE file_undos SET state = ? WHERE id = ?').run(state, undoId);
  }

  /** Undos a stopped process left running, with their steps still pending. */
  runningUndos(): { id: string; action: 'undo' | 'redo'; steps: UndoStepRow[] }[] {
    const undos = this.db
      .prepare<[], { id: string; action: 'undo' | 'redo' }>("SELECT id, action FROM file_undos WHERE state = 'running'")
      .all();
    return undos.map((undo) => ({ ...undo, steps: this.steps(undo.id).filter((s) => s.state === 'pending') }));
  }

  undos(sessionId: string): FileUndoRecord[] {
    const rows = this.db
      .prepare<[string], { id: string; action: 'undo' | 'redo'; state: FileUndoRecord['state']; created_at: number }>(
        'SELECT id, action, state, created_at FROM file_undos WHERE session_id = ? ORDER BY created_at, rowid',
      )
      .all(sessionId);
    return rows.map((row) => ({
      id: row.id,
      action: row.action,
      state: row.state,
      createdAt: row.created_at,
      steps: this.steps(row.id).map(({ path, state }) => ({ path, state })),
    }));
  }

  /** Contents that no change refers to (a snapshot's, from before a restart): removed at the start. */
  removeUnreferenced(): number {
    this.generation += 1;
    return this.db
      .prepare(
        `DELETE FROM file_contents WHERE NOT EXISTS (SELECT 1 FROM file_changes WHERE before_hash = file_contents.hash)
         AND NOT EXISTS (SELECT 1 FROM file_changes WHERE after_hash = file_contents.hash)`,
      )
      .run().changes;
  }

  /** Bytes stored for the file history, and how many changes refer to them (docs/file-history.md, "Cost"). */
  usage(): { contents: number; bytes: number; changes: number } {
    return this.db
      .prepare<[], { contents: number; bytes: number; changes: number }>(
        `SELECT (SELECT count(*) FROM file_contents) AS contents,
          (SELECT coalesce(sum(length(data)), 0) FROM file_contents) AS bytes,
          (SELECT count(*) FROM file_changes) AS changes`,
      )
      .get() as { contents: number; bytes: number; changes: number };
  }

  private steps(undoId: string): UndoStepRow[] {
    const rows = this.db
      .prepare<
        [string],
        {
          path: string;
          workspace: string;
          changes_json: string;
          target_hash: string | null;
          target_mode: number | null;
          target_size: number | null;
          state: UndoStepRow['state'];
        }
      >('SELECT * FROM file_undo_steps WHERE undo_id = ? ORDER BY path')
      .all(undoId);
    return rows.map((row) => ({
      undoId,
      path: row.path,
      workspace: row.workspace,
      changeIds: JSON.parse(row.changes_json) as number[],
      target: version(row.target_hash, row.target_mode, row.target_size),
      state: row.state,
    }));
  }
}

/** A tool result's file changes as NewTurn carries them. */
export type NewFiles = RecordedFiles & { toolCallId: string; toolName: string };

// The file history as every process sees it (docs/file-history.md): what one tool call changed in
// the workspace, as recorded with its turn, and what an undo or a redo did. The main process records
// and undoes (src/main/node/file-history/); the chat and RPC clients read these shapes. Pure types.

/** One version of a file: the SHA-256 of its bytes, its permission bits, its size in bytes. */
export interface FileVersion {
  hash: string;
  mode: number;
  size: number;
}

export type FileChangeKind = 'created' | 'changed' | 'deleted';

/** What one tool call did to one file: before and after (null: absent), and its lines added and removed. */
export interface FileChange {
  /** Workspace-relative, "/" separated. */
  path: string;
  kind: FileChangeKind;
  before: FileVersion | null;
  after: FileVersion | null;
  added: number;
  removed: number;
  binary: boolean;
}

/** The short form a tool result's details carry for its card. */
export interface FileChangeSummary {
  path: string;
  kind: FileChangeKind;
  added: number;
  removed: number;
}

/** A change as the history keeps it: with its turn, and whether it is undone now. */
export interface StoredFileChange extends FileChange {
  id: number;
  /** The tool result's turn, and the person's message whose run made it (null: none before it). */
  turnId: string;
  userTurnId: string | null;
  toolCallId: string;
  toolName: string;
  state: 'applied' | 'undone';
  createdAt: number;
}

/** What a turn's tool call changed but could not record ("not recorded: …"). */
export interface NotRecordedNote {
  turnId: string;
  userTurnId: string | null;
  toolCallId: string;
  reasons: string[];
}

/** One undo or redo as recorded: `interrupted` when the app stopped during it (its steps say which files were done). */
export interface FileUndoRecord {
  id: string;
  action: 'undo' | 'redo';
  state: 'running' | 'done' | 'interrupted';
  createdAt: number;
  steps: { path: string; state: 'pending' | 'done' | 'kept' | 'not_done' }[];
}

export interface SessionFileChanges {
  sessionId: string;
  changes: StoredFileChange[];
  notRecorded: NotRecordedNote[];
  undos: FileUndoRecord[];
}

/** Undo the changes of one person's turn (`turn`), or of it and every later one (`from`: Restore files to here). */
export type UndoScope = 'turn' | 'from';

/** For a file that changed since: keep the person's version, or take the one the undo (or redo) would put back. */
export type ConflictChoice = 'keep' | 'take';

/** One file an undo or redo touches: what it will do (or did), and whether it changed since. */
export interface UndoFilePlan {
  path: string;
  /** restore: write the version from before; remove: the file was created; (redo likewise, the other way). */
  action: 'restore' | 'remove';
  /** The file on disk is neither the version the turn left nor the one the undo would put back. */
  conflict: boolean;
  added: number;
  removed: number;
  /** done; kept (the person's answer); already (the file was that version); failed (`reason` says why, the file is as it was). */
  result?: 'done' | 'kept' | 'already' | 'failed';
  reason?: string;
}

export interface UndoOutcome {
  /** preview: nothing written; conflict: nothing written, a choice is needed for each conflicting file. */
  status: 'done' | 'preview' | 'conflict' | 'nothing';
  undoId: string | null;
  files: UndoFilePlan[];
}

/** A changed file's diff for Review: null when it is binary (then only its sizes are shown). */
export interface FileReview {
  path: string;
  kind: FileChangeKind;
  diff: string | null;
  beforeSize: number | null;
  afterSize: number | null;
}

/** "+41 −7" on the Changed N files line: each file once, its lines summed over the turn's calls. */
export function summarizeChanges(changes: readonly FileChangeSummary[]): {
  files: number;
  added: number;
  removed: number;
} {
  const paths = new Set(changes.map((change) => change.path));
  const added = changes.reduce((sum, change) => sum + change.added, 0);
  const removed = changes.reduce((sum, change) => sum + change.removed, 0);
  return { files: paths.size, added, removed };
}

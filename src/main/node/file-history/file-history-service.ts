// The file history's door (docs/file-history.md): a session's recorded changes for the chat, the
// History view and RPC's get_file_changes; Review's diffs; undo and redo (file-undo.ts); and at
// start, the undos a stopped process left half-way, settled, and contents no change refers to
// removed. Built by the composition root (app-services.ts); the files domain and RPC mode call it.
import type { FileReview, SessionFileChanges, UndoOutcome } from '../../../shared/file-history';
import type { FileHistoryTable } from '../history/file-history-table';
import { diffOf } from './file-versions';
import { FileUndo, type FileUndoOptions, type UndoRequest } from './file-undo';

export class FileHistoryService {
  private readonly undoer: FileUndo;

  constructor(
    private readonly table: FileHistoryTable,
    options: FileUndoOptions,
  ) {
    this.undoer = new FileUndo(table, options);
  }

  /** At start: settle interrupted undos (each file's step says done or not done), then drop unused contents. */
  start(): { interruptedUndos: number } {
    const interruptedUndos = this.undoer.recover();
    this.table.removeUnreferenced();
    return { interruptedUndos };
  }

  changes(sessionId: string): SessionFileChanges {
    return this.table.sessionChanges(sessionId);
  }

  undo(request: UndoRequest): UndoOutcome {
    return this.undoer.run(request);
  }

  /** Each file a person's turn changed: from its version before the turn to its version after, as a diff. */
  review(sessionId: string, turnId: string): FileReview[] {
    const changes = this.table.changes(sessionId).filter((c) => c.userTurnId === turnId);
    const byPath = new Map<string, typeof changes>();
    for (const change of changes) byPath.set(change.path, [...(byPath.get(change.path) ?? []), change]);
    return [...byPath.values()].map((list) => {
      const [first, last] = [list[0], list[list.length - 1]];
      const before = first.before && this.table.content(first.before.hash);
      const after = last.after && this.table.content(last.after.hash);
      const kind = first.before === null ? 'created' : last.after === null ? 'deleted' : 'changed';
      return {
        path: first.path,
        kind,
        diff: diffOf(first.path, before, after),
        beforeSize: first.before?.size ?? null,
        afterSize: last.after?.size ?? null,
      };
    });
  }
}

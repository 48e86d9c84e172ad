// Undo and redo of the agent's file changes (docs/file-history.md, "Undo"): the changes of a
// person's turn (or of it and every later one: Restore files to here), newest first, each file put
// back to its version from before — or, for a redo, the turn's version again, oldest first. It
// never clobbers: a file that is neither what the turn left nor what the undo would put back is a
// conflict, and nothing is written until each conflict has the person's answer (keep yours / take
// the version from before). An undo is journalled before any file is touched, each file is
// replaced atomically through the tools' confined I/O and its step marked done after, so a kill
// leaves every file before or after and `recover` (at start) says which. FileHistoryService runs it.
import type { ConflictChoice, FileVersion, UndoFilePlan, UndoOutcome, UndoScope } from '../../../shared/file-history';
import { CommandError } from '../../../shared/wire';
import { errorText } from '../../../shared/text';
import { removeConfined, writeConfined } from '../tools/confined-io';
import type { ChangeInWorkspace, FileHistoryTable, UndoStepRow } from '../history/file-history-table';
import { currentFile, sameVersion, type CurrentFile } from './file-versions';

export interface UndoRequest {
  sessionId: string;
  /** A person's message (its turn id): its run's changes, and with scope `from` every later run's too. */
  turnId: string;
  scope: UndoScope;
  /** Put back the changes an earlier undo took away. */
  redo?: boolean;
  /** Say what would change, write nothing. */
  preview?: boolean;
  /** The person's answer for each file that changed since, by path. */
  choices?: Record<string, ConflictChoice>;
}

export interface FileUndoOptions {
  newId: () => string;
  now: () => number;
  /** Hears of each file once it is in place, before its step is marked done (progress; the crash test stops there). */
  onFilePlaced?: (path: string) => void;
}

/** One file of a plan: its changes in the order they are undone, and what is on disk now. */
interface PlannedFile extends UndoFilePlan {
  workspace: string;
  changeIds: number[];
  expected: FileVersion | null;
  target: FileVersion | null;
  seen: CurrentFile | null;
}

export class FileUndo {
  constructor(
    private readonly table: FileHistoryTable,
    private readonly options: FileUndoOptions,
  ) {}

  run(request: UndoRequest): UndoOutcome {
    const planned = this.plan(request);
    const files = planned.map(publicPlan);
    if (planned.length === 0) return { status: 'nothing', undoId: null, files };
    if (request.preview) return { status: 'preview', undoId: null, files };
    const unanswered = planned.some((file) => file.conflict && !request.choices?.[file.path]);
    if (unanswered) return { status: 'conflict', undoId: null, files };
    return this.apply(request, planned);
  }

  /** At start: an undo a stopped process left running says, per file, whether it was done. */
  recover(): number {
    const running = this.table.runningUndos();
    for (const undo of running) {
      for (const step of undo.steps) {
        const now = readQuietly(step.workspace, step.path);
        const placed = now !== undefined && sameVersion(now.version, step.target);
        this.table.finishStep(step, placed ? 'done' : 'not_done', undo.action);
      }
      this.table.endUndo(undo.id, 'interrupted');
    }
    return running.length;
  }

  private plan(request: UndoRequest): PlannedFile[] {
    const range = this.table.turnRange(request.sessionId, request.turnId);
    if (!range) throw new CommandError('not_found', `No turn ${request.turnId} in session ${request.sessionId}`);
    const wanted = request.redo ? 'undone' : 'applied';
    const inRange = this.table
      .changes(request.sessionId, range.seq)
      .filter((c) => request.scope === 'from' || range.nextUserSeq === null || c.turnSeq < range.nextUserSeq)
      .filter((c) => c.state === wanted);
    // Undo: newest first; redo: oldest first. A file's changes chain: the first one's far side is on disk.
    const ordered = request.redo ? inRange : inRange.reverse();
    const byFile = new Map<string, ChangeInWorkspace[]>();
    for (const change of ordered) {
      const key = `${change.workspace}\n${change.path}`;
      byFile.set(key, [...(byFile.get(key) ?? []), change]);
    }
    return [...byFile.values()].map((changes) => this.planFile(changes, request.redo === true));
  }

  private planFile(changes: ChangeInWorkspace[], redo: boolean): PlannedFile {
    const [first, last] = [changes[0], changes[changes.length - 1]];
    const expected = redo ? first.before : first.after;
    const target = redo ? last.after : last.before;
    const seen = readQuietly(first.workspace, first.path) ?? null;
    const already = seen !== null && !seen.irregular && sameVersion(seen.version, target);
    const conflict = !already && (seen === null || seen.irregular || !sameVersion(seen.version, expected));
    return {
      path: first.path,
      workspace: first.workspace,
      action: target === null ? 'remove' : 'restore',
      conflict,
      added: changes.reduce((sum, c) => sum + (redo ? c.added : c.removed), 0),
      removed: changes.reduce((sum, c) => sum + (redo ? c.removed : c.added), 0),
      changeIds: changes.map((c) => c.id),
      expected,
      target,
      seen,
      ...(already ? { result: 'already' as const } : {}),
    };
  }

  private apply(request: UndoRequest, planned: PlannedFile[]): UndoOutcome {
    const action = request.redo ? 'redo' : 'undo';
    const undoId = this.options.newId();
    const steps: UndoStepRow[] = planned.map((file) => ({
      undoId,
      path: file.path,
      workspace: file.workspace,
      changeIds: file.changeIds,
      target: file.target,
      state: file.conflict && request.choices?.[file.path] === 'keep' ? 'kept' : 'pending',
    }));
    this.table.beginUndo({ id: undoId, sessionId: request.sessionId, action, createdAt: this.options.now() }, steps);
    const files = planned.map((file, i) => {
      const step = steps[i];
      if (step.state === 'kept') return { ...publicPlan(file), result: 'kept' as const };
      const failure = file.result === 'already' ? null : this.place(file);
      this.table.finishStep(step, failure === null ? 'done' : 'not_done', action);
      if (failure === null) return { ...publicPlan(file), result: 'done' as const };
      return { ...publicPlan(file), result: 'failed' as const, reason: failure };
    });
    this.table.endUndo(undoId, 'done');
    return { status: 'done', undoId, files };
  }

  /** Put one file's target version in place; null when done, else why it was left as it is. */
  private place(file: PlannedFile): string | null {
    try {
      const now = currentFile(file.workspace, file.path);
      if (file.seen === null || now.irregular) return `${file.path} is not a regular file of the workspace now.`;
      if (!sameVersion(now.version, file.seen.version)) return `${file.path} changed again during the undo.`;
      if (file.target === null) {
        if (now.version !== null) removeConfined(file.workspace, now.file, file.path);
      } else {
        const bytes = this.table.content(file.target.hash);
        if (bytes === null) return `The content of ${file.path} is no longer stored.`;
        writeConfined(file.workspace, now.file, file.path, bytes, file.target.mode);
      }
    } catch (error) {
      return errorText(error);
    }
    this.options.onFilePlaced?.(file.path);
    return null;
  }
}

/** What a file holds now; undefined when it cannot be looked at (it leads through a link). */
function readQuietly(workspace: string, path: string): CurrentFile | undefined {
  try {
    return currentFile(workspace, path);
  } catch {
    return undefined;
  }
}

function publicPlan(file: PlannedFile): UndoFilePlan {
  return {
    path: file.path,
    action: file.action,
    conflict: file.conflict,
    added: file.added,
    removed: file.removed,
    ...(file.result ? { result: file.result } : {}),
  };
}

// The files domain: the file history's commands (files.*, docs/file-history.md) — a session's
// recorded changes, Review's diffs, and undo or redo with its preview and conflict answers. A
// session that is running a turn is not undone under it; an undo tells every client with
// history_changed, so the chat and the History view read the changes again. Built by app-services.ts.
import type { CommandHandlers, CommandParams } from '../../../shared/contract';
import type { SessionEvent } from '../../../shared/events';
import type { SessionFileChanges, UndoOutcome } from '../../../shared/file-history';
import type { SessionPool } from '../../core/session/session-pool';
import type { FileHistoryService } from '../file-history/file-history-service';
import type { SqliteHistoryStore } from '../history/sqlite-history-store';
import { CommandError } from '../../../shared/wire';
import { refuseWhileBusy } from './command-helpers';

export interface FilesDomainParts {
  files: FileHistoryService;
  history: Pick<SqliteHistoryStore, 'sessionSummary'>;
  sessions: Pick<SessionPool, 'current' | 'find'>;
  publish: (event: SessionEvent) => void;
}

export class FilesDomain {
  constructor(private readonly parts: FilesDomainParts) {}

  readonly commands = {
    'files.changes': ({ sessionId }) => this.changes(sessionId),
    'files.review': ({ sessionId, turnId }) => this.parts.files.review(this.sessionOf(sessionId), turnId),
    'files.undo': (params) => this.undo(params),
  } satisfies Pick<CommandHandlers, Extract<keyof CommandHandlers, `files.${string}`>>;

  changes(sessionId?: string): SessionFileChanges {
    return this.parts.files.changes(this.sessionOf(sessionId));
  }

  undo(params: CommandParams<'files.undo'>): UndoOutcome {
    const sessionId = this.sessionOf(params.sessionId);
    const running = this.parts.sessions.find(sessionId);
    if (running) refuseWhileBusy({ isBusy: running.isWorking });
    const outcome = this.parts.files.undo({ ...params, sessionId, scope: params.scope ?? 'turn' });
    if (outcome.status === 'done') {
      const session = this.parts.history.sessionSummary(sessionId) ?? null;
      this.parts.publish({ type: 'history_changed', sessionId, session });
    }
    return outcome;
  }

  /** The given session, else the one shown. */
  private sessionOf(sessionId: string | undefined): string {
    const id = sessionId ?? this.parts.sessions.current.sessionId;
    if (!id) throw new CommandError('not_found', 'No session');
    return id;
  }
}

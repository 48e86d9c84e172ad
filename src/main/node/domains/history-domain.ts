// The history domain: the stored conversations (history.*) — the lists, a session's pages, search,
// the errored turns, what failures cost, export, rename and delete. Reads go straight to the store;
// a change tells every client with history_changed. Built by the composition root (app-services.ts).
import type { CommandHandlers } from '../../../shared/contract';
import type { SessionEvent } from '../../../shared/events';
import type { FailureCostReport, SessionSummary } from '../../../shared/history';
import { CommandError } from '../../../shared/wire';
import type { SessionPool } from '../../core/session/session-pool';
import type { SaveFile, SaveFileRequest } from '../app-options';
import type { SqliteHistoryStore } from '../history/sqlite-history-store';
import { found } from './command-helpers';

export interface HistoryDomainParts {
  history: SqliteHistoryStore;
  /** The chats, shown or working in the background. */
  sessions: Pick<SessionPool, 'current' | 'find'>;
  /** A fresh chat when the current one is deleted (session-domain.ts). */
  newSession: () => void;
  /** The desktop app's save dialog; absent elsewhere. */
  saveFile?: SaveFile;
  publish: (event: SessionEvent) => void;
}

export class HistoryDomain {
  constructor(private readonly parts: HistoryDomainParts) {}

  readonly commands = {
    'history.list': (params) => this.parts.history.listSessions(params),
    'history.get': ({ sessionId, limit }) =>
      found(this.parts.history.getSession(sessionId, limit), `session ${sessionId}`),
    'history.turns': ({ sessionId, beforeSeq, limit }) =>
      found(this.parts.history.sessionTurns(sessionId, beforeSeq, limit), `session ${sessionId}`),
    'history.search': ({ query, limit }) => this.parts.history.search(query, limit),
    'history.erroredTurns': ({ limit }) => this.parts.history.erroredTurns(limit),
    'history.delete': ({ sessionId }) => ({ deleted: this.deleteSession(sessionId) }),
    'history.export': ({ sessionId, format }) =>
      found(this.parts.history.exportSession(sessionId, format), `session ${sessionId}`),
    'history.failureCost': ({ since }) => this.failureCost(since ?? null),
    'history.rename': ({ sessionId, title }) => this.renameSession(sessionId, title),
    'history.saveExport': async ({ sessionId, format }) => {
      // Saved to disk, a Markdown export's images go as files beside it rather than data: URIs.
      const exported = this.parts.history.exportSession(sessionId, format, { images: 'files' });
      const file = found(exported, `session ${sessionId}`);
      return { path: await this.saveFile(file) };
    },
  } satisfies Pick<CommandHandlers, Extract<keyof CommandHandlers, `history.${string}`>>;

  /** Delete a stored conversation (history_changed says so); false when there was none. */
  deleteSession(sessionId: string): boolean {
    const { history, sessions, publish } = this.parts;
    if (sessions.find(sessionId)?.isWorking) {
      throw new CommandError('failed', 'This session is running a turn; stop it before deleting.');
    }
    if (!history.deleteSession(sessionId)) return false;
    publish({ type: 'history_changed', sessionId, session: null });
    if (sessionId === sessions.current.sessionId) this.parts.newSession();
    return true;
  }

  /** Rename a stored conversation (history_changed says so). */
  renameSession(sessionId: string, title: string): SessionSummary {
    const { history, sessions, publish } = this.parts;
    if (!history.renameSession(sessionId, title)) throw new CommandError('not_found', 'No such session');
    sessions.find(sessionId)?.setTitle(title);
    const session = history.sessionSummary(sessionId) ?? null;
    publish({ type: 'history_changed', sessionId, session });
    if (!session) throw new CommandError('not_found', 'No such session');
    return session;
  }

  failureCost(since: number | null): FailureCostReport {
    return this.parts.history.failureCost(since);
  }

  /** History → Export in the desktop app: its save dialog says where the file goes; null when cancelled. */
  private saveFile(file: SaveFileRequest): Promise<string | null> {
    if (!this.parts.saveFile) throw new CommandError('failed', 'Saving to a chosen file needs the desktop app.');
    return this.parts.saveFile(file);
  }
}

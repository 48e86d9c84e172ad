// The tools domain: the three session commands about tools — an approval card's answer, and the
// folder the tools work in (typed, or picked with the desktop app's dialog; checked here). Why a
// tool is unavailable on this system is app.info's toolsNote (app-domain.ts). Built by app-services.ts.
import type { CommandHandlers } from '../../../shared/contract';
import type { SessionEvent } from '../../../shared/events';
import type { AgentSession } from '../../core/session/agent-session';
import type { HistoryReader } from '../../core/ports';
import { checkWorkspaceChoice } from '../tools/workspace-fs';
import { asInvalid } from './command-helpers';

export interface ToolsDomainParts {
  /** The chat shown now (the session pool's current one). */
  session: () => AgentSession;
  history: HistoryReader;
  /** The data folder, which no workspace may hold. */
  dataDir: string;
  /** The desktop app's folder dialog; absent elsewhere. */
  pickFolder?: () => Promise<string | null>;
  publish: (event: SessionEvent) => void;
  /** The session's snapshot to every client (session-domain.ts). */
  publishSnapshot: () => void;
}

export class ToolsDomain {
  constructor(private readonly parts: ToolsDomainParts) {}

  readonly commands = {
    'session.approveTool': ({ id, choice }) => ({ answered: this.parts.session().answerApproval(id, choice) }),
    'session.setWorkspace': ({ path }) => asInvalid(() => ({ workspace: this.setWorkspace(path) })),
    'session.pickWorkspace': async () => ({ workspace: await this.pickWorkspace() }),
  } satisfies Pick<CommandHandlers, 'session.approveTool' | 'session.setWorkspace' | 'session.pickWorkspace'>;

  /** Move the current session's tools to a folder, checked here (throws an Error saying why not); its real path. */
  setWorkspace(path: string): string {
    const { history, publish } = this.parts;
    const session = this.parts.session();
    const workspace = checkWorkspaceChoice(path, this.parts.dataDir);
    session.setWorkspace(workspace);
    this.parts.publishSnapshot();
    const row = history.sessionSummary(session.sessionId);
    if (row) publish({ type: 'history_changed', sessionId: row.id, session: row });
    return workspace;
  }

  /** The desktop app's folder dialog, then setWorkspace; null when closed without a choice. */
  async pickWorkspace(): Promise<string | null> {
    if (!this.parts.pickFolder)
      throw new Error("The folder dialog exists only in the desktop app; type the folder's path instead.");
    const chosen = await this.parts.pickFolder();
    return chosen === null ? null : this.setWorkspace(chosen);
  }
}

// The app domain: app.info (the version, the host, the folders, the simulator's URL, whether a
// folder dialog exists, why a tool is unavailable, the updater's state), app.checkForUpdates and the notices raised while the app started,
// before any client listened, which every client is given (app.info; the RPC mode at its start).
// Built by the composition root (app-services.ts).
import type { AppInfo, CommandHandlers, StartupNotice } from '../../../shared/contract';
import type { SessionEvent } from '../../../shared/events';
import type { McpServerStatus } from '../../../shared/mcp-values';
import type { NoticeText } from '../../../shared/notice-params';
import { noUpdater, type UpdatesPort } from '../../../shared/updates';

export interface AppDomainParts {
  host: AppInfo['host'];
  version: string;
  dataDir: string;
  logDir: string;
  simulatorUrl: string | null;
  canPickFolder: boolean;
  toolsNote: () => NoticeText | null;
  mcpServers: () => McpServerStatus[];
  /** Whether the simulator sent every step of its fault script (true when there is no simulator). */
  simulatorScriptUsedUp?: () => boolean;
  publish: (event: SessionEvent) => void;
  /** The desktop host's updater; absent in the browser and RPC modes. */
  updates?: UpdatesPort;
}

export class AppDomain {
  /** Raised while starting, before anyone listened; newest last. */
  private readonly startupNotices: StartupNotice[] = [];
  /** Makes a start-up notice's id unique across launches, so a window shows each once. */
  private readonly launchId = globalThis.crypto.randomUUID();

  constructor(private readonly parts: AppDomainParts) {}

  readonly commands = {
    'app.info': () => this.info(),
    'app.checkForUpdates': () => this.parts.updates?.check() ?? noUpdater(this.parts.version),
  } satisfies Pick<CommandHandlers, 'app.info' | 'app.checkForUpdates'>;

  info(): AppInfo {
    const { version, host, dataDir, logDir, simulatorUrl, canPickFolder, toolsNote } = this.parts;
    return {
      version,
      host,
      dataDir,
      logDir,
      simulatorUrl,
      notices: [...this.startupNotices],
      canPickFolder,
      toolsNote: toolsNote(),
      mcpServers: this.parts.mcpServers(),
      simulatorScriptUsedUp: this.parts.simulatorScriptUsedUp?.() ?? true,
      updates: this.parts.updates?.status() ?? noUpdater(version),
    };
  }

  /** An error for every client to see (a turn a command started that failed later, a log not written). */
  report(notice: NoticeText): void {
    this.parts.publish({ type: 'notice', level: 'error', ...notice });
  }

  /** Keep a notice for the clients that connect later; returns it with its id. */
  noteAtStart(level: StartupNotice['level'], text: NoticeText): StartupNotice {
    const notice = { id: `${this.launchId}:${this.startupNotices.length}`, level, ...text };
    this.startupNotices.push(notice);
    return notice;
  }
}

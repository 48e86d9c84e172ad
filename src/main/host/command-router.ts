// The command router: one method → one call on the app's services. Every transport (Electron
// IPC, the browser WebSocket, tests) hands it raw frames; it validates them against the shared
// contract and always answers with a serialisable reply — a bad frame is an error reply naming
// what was wrong, never a throw.
import type {
  AppInfo,
  CommandName,
  CommandParams,
  CommandResult,
  ConnectionTestResult,
  ProviderInfo,
} from '../../shared/contract';
import type { SessionSnapshot } from '../../shared/events';
import type { AttachmentUpload } from '../../shared/attachments';
import type { AttachmentBlock } from '../../shared/messages';
import type { FailureCostReport, SessionSummary } from '../../shared/history';
import { errorNotice, type NoticeText } from '../../shared/notices';
import type { ProviderId, Settings } from '../../shared/settings';
import { CommandError, parseRequest, toWireError, type ResponseFrame } from '../../shared/wire';
import type { AgentSession } from '../core/agent-session';
import type { HistoryReader, SettingsStore } from '../core/ports';

/** What the router drives; the composition root (src/main/node/app-services.ts) provides it. */
export interface AppContext {
  readonly session: AgentSession;
  readonly history: HistoryReader;
  readonly settings: SettingsStore;
  info(): AppInfo;
  /** The current session with what the history holds for it. */
  snapshot(): SessionSnapshot;
  /** Change the settings (validated; every client hears settings_changed). */
  updateSettings(patch: unknown): Promise<Settings>;
  providers(): Promise<ProviderInfo[]>;
  addKey(provider: ProviderId, apiKey: string): Promise<ProviderInfo>;
  removeKey(provider: ProviderId, keyId: string): Promise<ProviderInfo>;
  /** Start a new conversation; its snapshot goes out as session_changed. */
  newSession(): void;
  /** Switch to a stored conversation; its snapshot goes out as session_changed. */
  resumeSession(sessionId: string): void;
  /** Move the current session's tools to a folder, checked here (throws an Error saying why not); its real path. */
  setWorkspace(path: string): string;
  /** The desktop app's folder dialog, then setWorkspace; null when closed without a choice. */
  pickWorkspace(): Promise<string | null>;
  /** Delete a stored conversation (history_changed says so); false when there was none. */
  deleteSession(sessionId: string): boolean;
  /** The interrupted-turn card's two answers; false when the chain is not the one on offer. */
  resumeInterrupted(chainId: string): boolean;
  discardInterrupted(chainId: string): boolean;
  failureCost(since: number | null): FailureCostReport;
  /** Rename a stored conversation (history_changed says so). */
  renameSession(sessionId: string, title: string): SessionSummary;
  /**
   * Edit and resend a message of the current conversation, with the attachments of it listed in
   * `keepAttachments` (all when absent); resolves when that turn has ended.
   */
  editTurn(turnId: string, text: string, keepAttachments?: number[]): Promise<void>;
  /** A prompt's uploads as content for the current model; rejects with every refusal (AttachmentError). */
  prepareAttachments(uploads: AttachmentUpload[]): Promise<AttachmentBlock[]>;
  /** Regenerate the last reply (or try a failed one again); resolves when that turn has ended. */
  regenerate(): Promise<void>;
  /** Continue a stopped or cut-off reply; throws at once when the session cannot. */
  continueTurn(): Promise<void>;
  testConnection(): Promise<ConnectionTestResult>;
  /** Set the simulator's fault script, re-arming it even when the text is unchanged. */
  setSimulatorScript(script: string): Settings;
  /** Save a file where the person chooses (desktop only); null when they cancelled. */
  saveFile(file: { filename: string; content: string }): Promise<string | null>;
  /** Reported when a prompt started by a command fails after its reply was sent. */
  report(notice: NoticeText): void;
}

type Handlers = { [N in CommandName]: (params: CommandParams<N>) => CommandResult<N> | Promise<CommandResult<N>> };

export class CommandRouter {
  private readonly handlers: Handlers;

  /** `onCommand` hears of each request as it comes (launch.ts waits for the window's first ones to pass). */
  constructor(
    private readonly ctx: AppContext,
    private readonly onCommand: () => void = () => undefined,
  ) {
    this.handlers = this.buildHandlers();
  }

  /** Validate and run one raw request frame (object or JSON text). Never throws. */
  async dispatch(raw: unknown): Promise<ResponseFrame> {
    this.onCommand();
    const parsed = parseRequest(raw);
    if (!parsed.ok) return { kind: 'response', id: parsed.id, ok: false, error: parsed.error };
    try {
      const result = await this.call(parsed.method, parsed.params as never);
      return { kind: 'response', id: parsed.id, ok: true, result };
    } catch (error) {
      return { kind: 'response', id: parsed.id, ok: false, error: toWireError(error) };
    }
  }

  /** Run a command whose params were already validated. */
  call<N extends CommandName>(method: N, params: CommandParams<N>): Promise<CommandResult<N>> {
    const handler = this.handlers[method] as (p: CommandParams<N>) => CommandResult<N> | Promise<CommandResult<N>>;
    return Promise.resolve().then(() => handler(params));
  }

  private buildHandlers(): Handlers {
    const { ctx } = this;
    const found = <T>(value: T | undefined, what: string): T => {
      if (value === undefined) throw new CommandError('not_found', `${what} not found`);
      return value;
    };
    const busyCheck = (): void => {
      if (ctx.session.isBusy) throw new CommandError('failed', 'A turn is already running; wait for it or press Stop.');
    };
    // A turn started by a command runs on after its reply; a failure then arrives as a notice.
    const runInBackground = (running: Promise<void>): { accepted: true } => {
      running.catch((error: unknown) =>
        ctx.report(errorNotice('turn_command_failed', 'The turn could not run', error)),
      );
      return { accepted: true };
    };
    // A refusal of bad input, thrown or rejected, is an 'invalid_params' reply.
    const asInvalid = async <T>(apply: () => T | Promise<T>): Promise<T> => {
      try {
        return await apply();
      } catch (error) {
        throw new CommandError('invalid_params', error instanceof Error ? error.message : String(error));
      }
    };
    return {
      'app.info': () => ctx.info(),
      'session.getState': () => ctx.snapshot(),
      // Each checks before it starts, so a refusal (busy, a bad turn id) is an error reply, not a notice.
      'session.prompt': async ({ text, attachments }) => {
        busyCheck();
        // A refused attachment refuses the prompt: nothing is sent (docs/attachments.md).
        const blocks = attachments?.length ? await asInvalid(() => ctx.prepareAttachments(attachments)) : [];
        busyCheck();
        return runInBackground(ctx.session.prompt(text, blocks));
      },
      'session.edit': ({ turnId, text, keepAttachments }) => {
        busyCheck();
        return runInBackground(ctx.editTurn(turnId, text, keepAttachments));
      },
      'session.regenerate': () => {
        busyCheck();
        return runInBackground(ctx.regenerate());
      },
      'session.abort': async () => {
        await ctx.session.abort();
        return { aborted: true };
      },
      'session.abortRetry': () => ({ aborted: ctx.session.abortRetry() }),
      'session.retryNow': () => ({ skipped: ctx.session.retryNow() }),
      'session.sendAnyway': () => ({ sent: ctx.session.sendAnyway() }),
      'session.resumeInterrupted': ({ chainId }) => ({ resumed: ctx.resumeInterrupted(chainId) }),
      'session.discardInterrupted': ({ chainId }) => ({ discarded: ctx.discardInterrupted(chainId) }),
      'session.new': () => {
        ctx.newSession();
        return { sessionId: ctx.session.sessionId };
      },
      'session.resume': ({ sessionId }) => {
        found(ctx.history.sessionSummary(sessionId), `session ${sessionId}`);
        ctx.resumeSession(sessionId);
        return { sessionId };
      },
      'session.compact': () => ctx.session.compact(),
      // continueTurn's own checks throw before it starts, so they too are an error reply ('failed').
      'session.continue': () => runInBackground(ctx.continueTurn()),
      'session.approveTool': ({ id, choice }) => ({ answered: ctx.session.answerApproval(id, choice) }),
      'session.setWorkspace': ({ path }) => asInvalid(() => ({ workspace: ctx.setWorkspace(path) })),
      'session.pickWorkspace': async () => ({ workspace: await ctx.pickWorkspace() }),
      'settings.get': () => ctx.settings.get(),
      'settings.update': ({ patch }) => asInvalid(() => ctx.updateSettings(patch)),
      'simulator.setScript': ({ script }) => asInvalid(() => ctx.setSimulatorScript(script)),
      'providers.list': () => ctx.providers(),
      'providers.addKey': ({ provider, apiKey }) => ctx.addKey(provider, apiKey),
      'providers.removeKey': ({ provider, keyId }) => ctx.removeKey(provider, keyId),
      'providers.test': () => ctx.testConnection(),
      'history.list': (params) => ctx.history.listSessions(params),
      'history.get': ({ sessionId, limit }) => found(ctx.history.getSession(sessionId, limit), `session ${sessionId}`),
      'history.turns': ({ sessionId, beforeSeq, limit }) =>
        found(ctx.history.sessionTurns(sessionId, beforeSeq, limit), `session ${sessionId}`),
      'history.search': ({ query, limit }) => ctx.history.search(query, limit),
      'history.erroredTurns': ({ limit }) => ctx.history.erroredTurns(limit),
      'history.delete': ({ sessionId }) => {
        if (sessionId === ctx.session.sessionId && ctx.session.isBusy) {
          throw new CommandError('failed', 'This session is running a turn; stop it before deleting.');
        }
        return { deleted: ctx.deleteSession(sessionId) };
      },
      'history.export': ({ sessionId, format }) =>
        found(ctx.history.exportSession(sessionId, format), `session ${sessionId}`),
      'history.failureCost': ({ since }) => ctx.failureCost(since ?? null),
      'history.rename': ({ sessionId, title }) => ctx.renameSession(sessionId, title),
      'history.saveExport': async ({ sessionId, format }) => {
        const file = found(ctx.history.exportSession(sessionId, format), `session ${sessionId}`);
        return { path: await ctx.saveFile(file) };
      },
    };
  }
}

// The composition root shared by every host: it opens the data folder (settings, credentials,
// SQLite history, decision log), starts the built-in simulator when it is the provider, builds
// the session pool (an AgentSession per chat that works, each on its own agent; session-agent.ts:
// pi-ai loads with the first run) and wires the
// domains (domains/: app, session, tools, settings, providers, history), whose handlers are the
// command router's (`commands`, one per command of src/shared/contract.ts).
// Electron, the browser mode and the RPC mode all call AppServices.create; they differ only in
// transport.
import type { StreamFn } from '@mariozechner/pi-agent-core';
import { newId } from '../../shared/ids';
import { join } from 'node:path';
import type { CommandHandlers } from '../../shared/contract';
import type { SessionEvent } from '../../shared/events';
import type { NoticeText } from '../../shared/notice-params';
import type { Settings } from '../../shared/settings';
import { withMaskedMcpSecrets } from '../../shared/mcp-secrets';
import type { BudgetPort } from '../core/ports';
import { AgentSession } from '../core/session/agent-session';
import { RatePacer } from '../core/retry';
import { SessionPool } from '../core/session/session-pool';
import { warmPiRuntime } from '../core/llm/pi-runtime';
import { ActiveModel } from './active-model';
import { resolveDataDir, type AppServicesOptions } from './app-options';
import { CredentialVault } from './credential-store';
import { checkHistoryLater, openParts, startupProblems, type OpenedParts } from './app-startup';
import { acquireDataLock, type DataLock } from './data-lock';
import { JsonlAuditLog, JsonlDecisionLog } from './decision-log-file';
import { AppDomain } from './domains/app-domain';
import { assertOneHandlerEach } from './domains/command-helpers';
import { HistoryDomain } from './domains/history-domain';
import { ProviderDomain } from './domains/provider-domain';
import { SessionDomain } from './domains/session-domain';
import { SettingsDomain } from './domains/settings-domain';
import { ToolsDomain } from './domains/tools-domain';
import { HttpFactsRecorder } from './http-facts';
import type { SqliteHistoryStore } from './history/sqlite-history-store';
import { BUILTIN_KEYS, modelPrice } from './providers';
import { LocalServerProbe } from './local-server';
import { localServerLiveness } from './liveness-probe';
import { headProbe } from './reachability';
import { makePrivateDir } from './safe-files';
import { createAgentStream, createSessionAgent } from './session-agent';
import { FileSettingsStore } from './settings-file';
import { SimulatorServer } from './simulator/simulator-server';
import { NodeToolRuntime } from './tools/node-tool-runtime';
import { WorkspaceSnapshots } from './file-history/workspace-snapshot';
import { cachedExecutable } from './tools/executables';
import { takeEnvKeys } from './env-keys';
import { McpManager } from './mcp/mcp-manager';
import { SessionInstructionsStore } from './session-instructions-store';
import { McpDomain } from './domains/mcp-domain';
import { ThrottledToolRunJournal } from './history/tool-run-journal';
import { FilesDomain } from './domains/files-domain';
import { FileHistoryService } from './file-history/file-history-service';

/** The app's domains, each a small object owning its commands. */
export interface AppDomains {
  app: AppDomain;
  session: SessionDomain;
  tools: ToolsDomain;
  settings: SettingsDomain;
  providers: ProviderDomain;
  history: HistoryDomain;
  mcp: McpDomain;
  files: FilesDomain;
}

export class AppServices {
  /** The chats: the one shown, and those working in the background (docs/architecture.md, "Chats side by side"). */
  readonly sessions: SessionPool;
  readonly history: SqliteHistoryStore;
  readonly settings: FileSettingsStore;
  readonly credentials: CredentialVault;
  readonly decisionLog: JsonlDecisionLog;
  readonly auditLog: JsonlAuditLog;
  readonly simulator: SimulatorServer | null;
  readonly dataDir: string;
  readonly logDir: string;
  readonly domains: AppDomains;
  /** The MCP servers of `mcp.servers`, started in the background (docs/mcp.md). */
  readonly mcp: McpManager;
  /** What the agent changed in the workspaces, and its undo (docs/file-history.md). */
  readonly files: FileHistoryService;
  /** Every command's handler, from the domains: what the CommandRouter runs. */
  readonly commands: CommandHandlers;
  private readonly tools: NodeToolRuntime;
  private readonly runWorkspace: string;
  private readonly disposers: (() => void)[] = [];
  private readonly httpFacts = new HttpFactsRecorder();
  /** The guarded stream of the session's agent; Settings' Test connection uses it too. */
  private readonly streamFn: StreamFn;
  private readonly lock: DataLock;
  private readonly activeModel: ActiveModel;
  /** What OpenAI-compatible servers say of their models (their windows, their model lists). */
  private readonly servers = new LocalServerProbe();
  /** Each conversation's own instructions, by session id, kept in the history. */
  private readonly sessionInstructions: SessionInstructionsStore;
  /** What providers said of their rate limits, for every chat (docs/retry-policy.md, "Rate-limit pacing"). */
  private readonly ratePacer = new RatePacer();
  /** Every chat's tool calls in flight, kept for a restart (docs/tools.md, "Runs cut by a quit or a crash"). */
  private readonly toolRuns: ThrottledToolRunJournal;

  private constructor(
    private readonly options: AppServicesOptions,
    parts: OpenedParts,
  ) {
    this.dataDir = parts.dataDir;
    this.logDir = join(parts.dataDir, 'logs');
    this.settings = parts.settings;
    this.history = parts.history;
    this.sessionInstructions = new SessionInstructionsStore(parts.history);
    this.toolRuns = new ThrottledToolRunJournal(parts.history.toolRuns, Date.now, (error) =>
      process.stderr.write(`resolute: could not keep a running tool call's output: ${String(error)}\n`),
    );
    this.simulator = parts.simulator;
    this.lock = parts.lock;
    this.runWorkspace = parts.workspace;
    this.tools = new NodeToolRuntime({
      defaultWorkspace: parts.workspace,
      hidden: [parts.dataDir],
      sandbox: options.sandbox,
      snapshots: new WorkspaceSnapshots(parts.history.files),
    });
    this.files = new FileHistoryService(parts.history.files, { newId, now: () => Date.now() });
    this.files.start();
    const app = new AppDomain({
      host: options.host,
      version: options.version,
      dataDir: this.dataDir,
      logDir: this.logDir,
      simulatorUrl: parts.simulatorUrl,
      canPickFolder: options.pickFolder !== undefined,
      toolsNote: () => this.tools.bashUnavailable,
      mcpServers: () => this.mcp.statuses(),
      simulatorScriptUsedUp: () => this.simulator?.isScriptUsedUp ?? true,
      publish: options.publish,
      updates: options.updates,
    });
    const report = (notice: NoticeText): void => app.report(notice);
    this.decisionLog = new JsonlDecisionLog(this.logDir, report);
    this.auditLog = new JsonlAuditLog(this.logDir, report);
    const envKeys = takeEnvKeys();
    this.credentials = new CredentialVault({
      path: join(parts.dataDir, 'credentials.json'),
      cipher: parts.cipher,
      // Taken out of process.env here, so no program the app starts inherits them (env-keys.ts).
      envKey: (provider) => envKeys[provider],
      builtin: BUILTIN_KEYS,
      runKey: options.apiKey ? { provider: parts.settings.get().provider.id, apiKey: options.apiKey } : undefined,
    });
    this.disposers.push(this.httpFacts.install());
    const onScript = this.simulator?.onScriptState((usedUp) => options.publish({ type: 'simulator_script', usedUp }));
    if (onScript) this.disposers.push(onScript);
    const settings = () => this.settings.get();
    this.streamFn = createAgentStream({
      credentials: this.credentials,
      facts: this.httpFacts,
      timeoutMs: () => settings().retry.timeoutMs,
      keepAliveLimitMs: () => settings().retry.keepAliveLimitMinutes * 60_000,
      localServer: localServerLiveness({ settings, probeEveryMs: options.livenessProbeMs }),
    });
    this.activeModel = new ActiveModel({
      settings: parts.settings,
      credentials: this.credentials,
      simulatorUrl: parts.simulatorUrl,
      publish: options.publish,
      session: () => this.session,
      report,
      servers: this.servers,
    });
    this.sessions = new SessionPool({
      create: () => this.createSession(),
      onEvent: (event, _session, isShown) => this.onSessionEvent(event, isShown),
      onActivity: (sessions) => this.options.publish({ type: 'sessions_activity', sessions }),
      // A chat left working kept stdio MCP servers in their folder; the shown chat's may differ.
      onRetired: () => this.mcp.workspaceChanged(),
      // Chats whose approval a restart left waiting show it on their rows (docs/tools.md, "Approvals").
      storedApprovals: () => this.history.toolRuns.chatsWaiting(),
    });
    this.activeModel.askServer();
    this.mcp = this.startMcp(parts.dataDir);
    this.domains = this.createDomains(app, parts, report);
    this.commands = this.gatherCommands();
    this.disposers.push(this.settings.subscribe((settings) => this.onSettingsChanged(settings)));
  }

  /** The chat shown now, which the commands act on (the others run on in the pool). */
  get session(): AgentSession {
    return this.sessions.current;
  }

  private startMcp(dataDir: string): McpManager {
    const mcp = new McpManager({
      registry: this.tools.registry,
      settings: this.settings,
      decisionLog: this.decisionLog,
      logDir: this.logDir,
      version: this.options.version,
      workspace: () => this.mcpWorkspace(),
      launch: {
        hidden: [dataDir],
        bwrap: cachedExecutable('bwrap'),
        parentEnv: process.env,
        pathSource: this.options.pathSource ?? 'inherited',
      },
      onStatus: (servers) => this.options.publish({ type: 'mcp_status', servers }),
    });
    return mcp;
  }

  /** The session's workspace, created when it is the default; a missing one makes a stdio server fail to start. */
  private mcpWorkspace(): string {
    // Asked first while the pool is being built (the MCP manager starts after it).
    const workspace = this.sessions?.current.tools?.workspace ?? this.runWorkspace;
    try {
      return this.tools.openWorkspace(workspace);
    } catch {
      return workspace;
    }
  }

  private createDomains(app: AppDomain, parts: OpenedParts, report: (notice: NoticeText) => void): AppDomains {
    const { history, settings, credentials, streamFn, options } = this;
    const { publish } = options;
    const pool = this.sessions;
    const session = () => pool.current;
    const sessions = new SessionDomain({
      pool,
      history,
      activeModel: this.activeModel,
      runWorkspace: this.runWorkspace,
      publish,
      report,
      retrySettings: () => settings.get().retry,
      projectInstructions: (workspace) => this.tools.projectInstructions(workspace),
      sessionInstructions: this.sessionInstructions,
      // A new, resumed or moved session may work in another folder: stdio MCP servers follow it,
      // unless a chat left working may still call them there.
      workspaceMayChange: () => {
        if (pool.backgroundCount === 0) this.mcp.workspaceChanged();
      },
    });
    const publishSnapshot = (): void => sessions.publishSnapshot();
    const settingsDomain = new SettingsDomain({ settings, simulator: this.simulator, report });
    return {
      app,
      session: sessions,
      tools: new ToolsDomain({
        session,
        history,
        dataDir: this.dataDir,
        pickFolder: options.pickFolder,
        publish,
        publishSnapshot,
      }),
      settings: settingsDomain,
      providers: new ProviderDomain({
        settings,
        credentials,
        simulatorUrl: parts.simulatorUrl,
        streamFn,
        servers: this.servers,
        settingsSettled: () => settingsDomain.settled(),
      }),
      history: new HistoryDomain({
        history,
        sessions: pool,
        newSession: () => void sessions.newSession(),
        saveFile: options.saveFile,
        publish,
      }),
      mcp: new McpDomain({
        retryNow: (name) => this.mcp.retryNow(name),
        catalog: (name) => this.mcp.catalog(name),
        logPath: (name) => this.mcp.logPath(name),
      }),
      files: new FilesDomain({ files: this.files, history, sessions: pool, publish }),
    };
  }

  /** One handler per command: a command no domain answers fails to compile, one two answer fails here. */
  private gatherCommands(): CommandHandlers {
    const { app, session, tools, settings, providers, history, mcp, files } = this.domains;
    assertOneHandlerEach(Object.values(this.domains).map((domain) => domain.commands));
    return {
      ...app.commands,
      ...session.commands,
      ...tools.commands,
      ...settings.commands,
      ...providers.commands,
      ...history.commands,
      ...mcp.commands,
      ...files.commands,
    } satisfies CommandHandlers;
  }

  /** Open the data folder and start; throws DataFolderLockedError when another instance has it. */
  static async create(options: AppServicesOptions): Promise<AppServices> {
    // The OpenAI SDK logs malformed stream chunks to the console by default; we report them ourselves.
    process.env.OPENAI_LOG ??= 'off';
    const dataDir = resolveDataDir(options.dataDir);
    makePrivateDir(dataDir);
    // Before any file is read or written: a second instance would overwrite this one's files.
    const lock = acquireDataLock(dataDir);
    try {
      return await AppServices.open(options, dataDir, lock);
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  private static async open(options: AppServicesOptions, dataDir: string, lock: DataLock): Promise<AppServices> {
    const parts = await openParts(options, dataDir, lock);
    const services = new AppServices(options, parts);
    for (const { level, ...text } of startupProblems(options, parts)) services.domains.app.noteAtStart(level, text);
    if (services.credentials.loadProblem) services.domains.app.noteAtStart('error', services.credentials.loadProblem);
    // A schedule a quit or a crash left runs at its time (at once when it has passed), in every
    // host: the person asked for it. Else a window opens on the turn a quit or a crash interrupted.
    if (!services.domains.session.resumeScheduled() && options.host !== 'rpc')
      services.domains.session.openInterruptedSession([
        ...parts.cutToolRuns.map((run) => run.sessionId),
        // Newest last: a chat whose approval waits is opened first.
        ...services.history.toolRuns
          .chatsWaiting()
          .map((chat) => chat.sessionId)
          .reverse(),
      ]);
    services.checkHistoryLater();
    return services;
  }

  /** Damage the background integrity check finds is a start-up notice raised late (app-startup.ts). */
  private checkHistoryLater(): void {
    const stop = checkHistoryLater(this.history, (text) => {
      const notice = this.domains.app.noteAtStart('error', text);
      this.options.publish({ type: 'notice', ...notice });
    });
    this.disposers.push(stop);
  }

  /** A chat's spending and its own cap, as the spending cap reads them (docs/tools.md, "The spending cap"). */
  private readonly budgets: BudgetPort = {
    spent: (sessionId) => {
      const usage = this.history.sessionSummary(sessionId)?.usage;
      return { tokens: usage?.tokens ?? 0, costUsd: usage?.costUsd ?? 0 };
    },
    spentSince: (since) => this.history.spentSince(since),
    chatBudget: (sessionId) => this.history.sessionBudget(sessionId),
    setChatBudget: (sessionId, budget) => this.history.setSessionBudget(sessionId, budget),
    questions: {
      asked: (request) => this.history.keepSpendingCapQuestion(request),
      answered: (sessionId) => this.history.forgetSpendingCapQuestion(sessionId),
    },
  };

  private createSession(): AgentSession {
    const session: AgentSession = new AgentSession({
      agent: createSessionAgent({
        // A real provider's model comes from the catalogue: open() loaded pi-ai for it.
        model: this.activeModel.resolved().model,
        credentials: this.credentials,
        streamFn: this.streamFn,
        thinkingLevel: this.activeModel.startingThinkingLevel(),
      }),
      history: this.history,
      decisionLog: this.decisionLog,
      settings: this.settings,
      credentials: this.credentials,
      modelInfo: () => this.activeModel.info(),
      sessionId: newId(),
      tools: {
        runtime: this.tools,
        audit: this.auditLog,
        workspace: this.runWorkspace,
        instructions: (sessionId) => this.sessionInstructions.get(sessionId) ?? null,
        journal: this.toolRuns,
      },
      // A usage limit in a chat switches that chat's model, shown or not.
      fallback: this.activeModel.fallbackFor(() => session),
      networkCheck: this.options.networkCheck ?? headProbe(),
      offlinePollMs: this.options.offlinePollMs,
      priceOf: modelPrice,
      budget: this.budgets,
      clock: this.options.clock,
      ratePacer: this.ratePacer,
    });
    return session;
  }

  /**
   * Pass every session event on; a stored turn or a closed chain also changes its session's row
   * in the lists (its exchanges, and those that ended in an error).
   */
  private onSessionEvent(event: SessionEvent, isShown: boolean): void {
    // A chat not shown reaches the windows as its activity (sessions_activity) and its list row only.
    if (isShown) this.options.publish(event);
    if (event.type !== 'turn_persisted' && event.type !== 'retry_chain_closed') return;
    const sessionId = event.type === 'turn_persisted' ? event.turn.sessionId : event.sessionId;
    this.options.publish({
      type: 'history_changed',
      sessionId,
      session: this.history.sessionSummary(sessionId) ?? null,
    });
  }

  private onSettingsChanged(settings: Settings): void {
    this.activeModel.settingsChanged(settings);
    this.domains.settings.settingsChanged(settings);
    this.options.publish({ type: 'settings_changed', settings: withMaskedMcpSecrets(settings) });
  }

  /** Load pi-ai and the active model's provider module ahead of the first prompt (launch.ts, once the app is up). */
  warmUp(): Promise<void> {
    return warmPiRuntime(() => this.activeModel.resolved().model.api);
  }

  async dispose(): Promise<void> {
    // Every chain that is waiting, in every chat, is kept as interrupted, to be continued on the next start.
    await this.sessions.shutdown();
    this.sessions.dispose();
    this.toolRuns.dispose();
    await this.mcp.dispose();
    for (const dispose of this.disposers) dispose();
    await this.simulator?.stop();
    this.history.close();
    this.lock.release();
  }
}

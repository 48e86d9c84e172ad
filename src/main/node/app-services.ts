// The composition root shared by every host: it opens the data folder (settings, credentials,
// SQLite history, decision log), starts the built-in simulator when it is the provider, builds
// the AgentSession on its agent (session-agent.ts: pi-ai loads with the first run), and exposes
// what the command router needs (its AppContext, structurally).
// Electron, the browser mode and the RPC mode all call AppServices.create; they differ only in
// transport.
import type { StreamFn } from '@mariozechner/pi-agent-core';
import { newId } from '../../shared/ids';
import { join } from 'node:path';
import type { AppInfo, ConnectionTestResult, ProviderInfo, StartupNotice } from '../../shared/contract';
import { CommandError } from '../../shared/wire';
import type { SessionEvent, SessionSnapshot } from '../../shared/events';
import { errorNotice, type NoticeText } from '../../shared/notices';
import { TURN_PAGE_SIZE, type FailureCostReport, type SessionSummary } from '../../shared/history';
import { PROVIDER_IDS, PROVIDER_LABELS, type ProviderId, type Settings } from '../../shared/settings';
import { AgentSession } from '../core/agent-session';
import { loadPiRuntime, piRuntime, warmPiRuntime } from '../core/pi-runtime';
import { ActiveModel } from './active-model';
import {
  resolveDataDir,
  settingsNeedCatalogue,
  withDefaultModel,
  withRememberedModel,
  type AppServicesOptions,
} from './app-options';
import { testConnection } from './connection-test';
import { lastFailedReply, rewindForEdit, rewindForRegenerate } from './conversation-edits';
import { CredentialVault, fileKeyCipher } from './credential-store';
import { checkHistoryLater, openParts, startupProblems, type OpenedParts } from './app-startup';
import { acquireDataLock, type DataLock } from './data-lock';
import { JsonlAuditLog, JsonlDecisionLog } from './decision-log-file';
import { HttpFactsRecorder } from './http-facts';
import type { SqliteHistoryStore } from './history/sqlite-history-store';
import {
  BUILTIN_KEYS,
  defaultModelFor,
  contextWindowsFor,
  modelDetailsFor,
  modelPrice,
  modelsFor,
  resolveModel,
} from './providers';
import { headProbe } from './reachability';
import { makePrivateDir } from './safe-files';
import { createAgentStream, createSessionAgent } from './session-agent';
import { FileSettingsStore } from './settings-file';
import { SimulatorServer } from './simulator/simulator-server';
import { NodeToolRuntime } from './tools/node-tool-runtime';
import { checkWorkspaceChoice } from './tools/workspace-fs';

export class AppServices {
  readonly session: AgentSession;
  readonly history: SqliteHistoryStore;
  readonly settings: FileSettingsStore;
  readonly credentials: CredentialVault;
  readonly decisionLog: JsonlDecisionLog;
  readonly auditLog: JsonlAuditLog;
  private readonly tools: NodeToolRuntime;
  private readonly runWorkspace: string;
  readonly simulator: SimulatorServer | null;
  readonly dataDir: string;
  readonly logDir: string;
  private simulatorUrl: string | null;
  private readonly disposers: (() => void)[] = [];
  private readonly httpFacts = new HttpFactsRecorder();
  /** The guarded stream of the session's agent; Settings' Test connection uses it too. */
  private readonly streamFn: StreamFn;
  private appliedScript: string;
  private readonly lock: DataLock;
  /** Raised while starting, before anyone listened: every client is given them (app.info, RPC at start). */
  private readonly startupNotices: StartupNotice[] = [];
  /** Makes a start-up notice's id unique across launches, so a window shows each once. */
  private readonly launchId = globalThis.crypto.randomUUID();
  private readonly activeModel: ActiveModel;

  private constructor(
    private readonly options: AppServicesOptions,
    parts: OpenedParts,
  ) {
    this.dataDir = parts.dataDir;
    this.logDir = join(parts.dataDir, 'logs');
    this.settings = parts.settings;
    this.history = parts.history;
    this.simulator = parts.simulator;
    this.simulatorUrl = parts.simulatorUrl;
    this.lock = parts.lock;
    this.appliedScript = parts.settings.get().simulator.script;
    this.decisionLog = new JsonlDecisionLog(this.logDir, (notice) => this.report(notice));
    this.auditLog = new JsonlAuditLog(this.logDir, (notice) => this.report(notice));
    this.runWorkspace = parts.workspace;
    this.tools = new NodeToolRuntime({
      defaultWorkspace: parts.workspace,
      hidden: [parts.dataDir],
      sandbox: options.sandbox,
    });
    this.credentials = new CredentialVault({
      path: join(parts.dataDir, 'credentials.json'),
      cipher: options.cipher ?? fileKeyCipher(parts.dataDir),
      // Asked only when a request goes out or the provider list is built, both after pi-ai is loaded.
      envKey: (provider) =>
        provider === 'simulator' || provider === 'openai-compatible'
          ? undefined
          : piRuntime().piAi.getEnvApiKey(provider),
      builtin: BUILTIN_KEYS,
      runKey: options.apiKey ? { provider: parts.settings.get().provider.id, apiKey: options.apiKey } : undefined,
    });
    this.disposers.push(this.httpFacts.install());
    const timeoutMs = () => this.settings.get().retry.timeoutMs;
    this.streamFn = createAgentStream({ credentials: this.credentials, facts: this.httpFacts, timeoutMs });
    this.activeModel = new ActiveModel({
      settings: parts.settings,
      credentials: this.credentials,
      simulatorUrl: parts.simulatorUrl,
      publish: options.publish,
      session: () => this.session,
      report: (notice) => this.report(notice),
    });
    this.session = this.createSession();
    this.disposers.push(this.session.subscribe((event) => this.onSessionEvent(event)));
    this.disposers.push(this.settings.subscribe((settings) => this.onSettingsChanged(settings)));
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
    for (const { level, ...text } of startupProblems(options, parts)) services.noteAtStart(level, text);
    if (services.credentials.loadProblem) services.noteAtStart('error', services.credentials.loadProblem);
    // A window opens on the turn a quit or a crash interrupted, so its card offers to continue it.
    if (options.host !== 'rpc') services.openInterruptedSession();
    services.checkHistoryLater();
    return services;
  }

  /** Damage the background integrity check finds is a start-up notice raised late (app-startup.ts). */
  private checkHistoryLater(): void {
    const stop = checkHistoryLater(this.history, (text) => {
      const notice = this.noteAtStart('error', text);
      this.options.publish({ type: 'notice', ...notice });
    });
    this.disposers.push(stop);
  }

  private createSession(): AgentSession {
    return new AgentSession({
      agent: createSessionAgent({
        // A real provider's model comes from the catalogue: open() loaded pi-ai for it.
        model: this.activeModel.resolved().model,
        credentials: this.credentials,
        streamFn: this.streamFn,
      }),
      history: this.history,
      decisionLog: this.decisionLog,
      settings: this.settings,
      credentials: this.credentials,
      modelInfo: () => this.activeModel.info(),
      sessionId: newId(),
      tools: { runtime: this.tools, audit: this.auditLog, workspace: this.runWorkspace },
      fallback: this.activeModel.fallback,
      networkCheck: this.options.networkCheck ?? headProbe(),
      offlinePollMs: this.options.offlinePollMs,
      priceOf: modelPrice,
    });
  }

  /**
   * Pass every session event on; a stored turn or a closed chain also changes its session's row
   * in the lists (its exchanges, and those that ended in an error).
   */
  private onSessionEvent(event: SessionEvent): void {
    this.options.publish(event);
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
    // Only a change of the script itself re-arms the simulator (any other change must not reset it).
    if (this.simulator && settings.simulator.script !== this.appliedScript) {
      this.appliedScript = settings.simulator.script;
      try {
        this.simulator.setScript(settings.simulator.script);
      } catch (error) {
        this.report(errorNotice('simulator_script_not_applied', 'Simulator script not applied', error));
      }
    }
    this.options.publish({ type: 'settings_changed', settings });
  }

  // ---- AppContext (see src/main/host/command-router.ts) ----

  info(): AppInfo {
    return {
      version: this.options.version,
      host: this.options.host,
      dataDir: this.dataDir,
      logDir: this.logDir,
      simulatorUrl: this.simulatorUrl,
      notices: [...this.startupNotices],
      canPickFolder: this.options.pickFolder !== undefined,
      toolsNote: this.tools.bashUnavailable,
    };
  }

  snapshot(): SessionSnapshot {
    // The newest page only: a long session opens at once, and the client pages back (history.turns).
    const stored = this.history.getSession(this.session.sessionId, TURN_PAGE_SIZE);
    return this.session.snapshot(stored ?? { turns: [], chains: [], decisions: [], hasOlderTurns: false });
  }

  /**
   * A change of settings (the settings pane, through the router). One that names a real provider's
   * model loads pi-ai first: the fallback list is checked against its catalogue. A new provider
   * without a model starts on its default one.
   */
  async updateSettings(patch: unknown): Promise<Settings> {
    if (settingsNeedCatalogue(null, patch)) await loadPiRuntime();
    const current = this.settings.get().provider;
    return this.settings.update(withDefaultModel(withRememberedModel(patch, current), current.id));
  }

  /** Load pi-ai and the active model's provider module ahead of the first prompt (launch.ts, once the app is up). */
  warmUp(): Promise<void> {
    return warmPiRuntime(() => this.activeModel.resolved().model.api);
  }

  /** The provider list needs pi-ai's catalogue and its environment-key lookup. */
  async providers(): Promise<ProviderInfo[]> {
    await loadPiRuntime();
    return PROVIDER_IDS.map((id) => this.providerInfo(id));
  }

  private providerInfo(id: ProviderId): ProviderInfo {
    return {
      id,
      label: PROVIDER_LABELS[id],
      keys: this.credentials.hints(id),
      hasEnvKey: this.credentials.hasEnvKey(id),
      models: modelsFor(id),
      contextWindows: contextWindowsFor(id),
      modelDetails: modelDetailsFor(id),
      defaultModel: defaultModelFor(id),
      takesKeys: id !== 'simulator',
    };
  }

  /** One minimal request with the current provider settings, classified; nothing is stored. */
  async testConnection(): Promise<ConnectionTestResult> {
    // A real provider's model comes from pi-ai's catalogue.
    const provider = this.settings.get().provider;
    const unsent = {
      ok: false,
      provider: provider.id,
      model: provider.model,
      latencyMs: 0,
      category: null,
      message: '',
    };
    // What the request cannot go without is said as such, not as the SDK's error text.
    if (provider.id === 'openai-compatible' && !provider.baseUrl.trim()) return { ...unsent, missing: 'base_url' };
    await loadPiRuntime();
    // The first choice as Settings shows it, not a fallback a usage limit switched the session to.
    const { model } = resolveModel(provider, this.simulatorUrl);
    const apiKey = this.credentials.activeCredential(model.provider, undefined, model.id)?.apiKey;
    if (!apiKey && !(model.provider in BUILTIN_KEYS)) return { ...unsent, missing: 'key' };
    return testConnection({ streamFn: this.streamFn, model, apiKey, now: () => Date.now() });
  }

  /** Edit and resend a message of the current conversation; resolves when the turn has ended. */
  editTurn(turnId: string, text: string): Promise<void> {
    const rewind = rewindForEdit(this.history, this.session.sessionId, turnId);
    return this.session.rewindAndPrompt(rewind, text);
  }

  /** Regenerate the last reply (or try a failed one again); resolves when the turn has ended. */
  regenerate(): Promise<void> {
    return this.session.rewindAndContinue(rewindForRegenerate(this.history, this.session.sessionId));
  }

  /** Continue a stopped or cut-off reply: the failed reply comes from the history after a restart. */
  continueTurn(): Promise<void> {
    return this.session.continueTurn(lastFailedReply(this.history, this.session.sessionId));
  }

  renameSession(sessionId: string, title: string): SessionSummary {
    if (!this.history.renameSession(sessionId, title)) throw new CommandError('not_found', 'No such session');
    if (sessionId === this.session.sessionId) this.session.setTitle(title);
    const session = this.history.sessionSummary(sessionId) ?? null;
    this.options.publish({ type: 'history_changed', sessionId, session });
    if (!session) throw new CommandError('not_found', 'No such session');
    return session;
  }

  /** History → Export in the desktop app: its save dialog says where the file goes. */
  saveFile(file: { filename: string; content: string }): Promise<string | null> {
    if (!this.options.saveFile) throw new CommandError('failed', 'Saving to a chosen file needs the desktop app.');
    return this.options.saveFile(file);
  }

  /**
   * Set the simulator's fault script; entering the same script again re-arms it from its first
   * step (a settings change alone re-arms only when the text differs).
   */
  setSimulatorScript(script: string): Settings {
    const unchanged = script === this.settings.get().simulator.script;
    const settings = this.settings.update({ simulator: { script } });
    if (unchanged) this.simulator?.setScript(script);
    return settings;
  }

  async addKey(provider: ProviderId, apiKey: string): Promise<ProviderInfo> {
    await loadPiRuntime();
    this.credentials.add(provider, apiKey);
    return this.providerInfo(provider);
  }

  async removeKey(provider: ProviderId, keyId: string): Promise<ProviderInfo> {
    await loadPiRuntime();
    this.credentials.remove(provider, keyId);
    return this.providerInfo(provider);
  }

  newSession(): void {
    this.activeModel.sessionChanging();
    // A new chat keeps working where the last one did.
    this.session.replaceConversation({
      sessionId: newId(),
      title: '',
      messages: [],
      stored: false,
      workspace: this.session.tools?.workspace,
    });
    this.publishSnapshot();
  }

  resumeSession(sessionId: string): void {
    const summary = this.history.sessionSummary(sessionId);
    if (!summary) throw new Error(`session ${sessionId} not found`);
    this.activeModel.sessionChanging();
    this.session.replaceConversation({
      sessionId,
      title: summary.title,
      messages: this.history.loadContext(sessionId),
      stored: true,
      // Sessions from before tools have none: they work in the run's folder.
      workspace: summary.workspace || this.runWorkspace,
    });
    this.publishSnapshot();
  }

  setWorkspace(path: string): string {
    const workspace = checkWorkspaceChoice(path, this.dataDir);
    this.session.setWorkspace(workspace);
    this.publishSnapshot();
    const row = this.history.sessionSummary(this.session.sessionId);
    if (row) this.options.publish({ type: 'history_changed', sessionId: row.id, session: row });
    return workspace;
  }

  async pickWorkspace(): Promise<string | null> {
    if (!this.options.pickFolder)
      throw new Error("The folder dialog exists only in the desktop app; type the folder's path instead.");
    const chosen = await this.options.pickFolder();
    return chosen === null ? null : this.setWorkspace(chosen);
  }

  deleteSession(sessionId: string): boolean {
    const deleted = this.history.deleteSession(sessionId);
    if (!deleted) return false;
    this.options.publish({ type: 'history_changed', sessionId, session: null });
    if (sessionId === this.session.sessionId) this.newSession();
    return true;
  }

  /** "Retry now" on the interrupted-turn card of the current session. */
  resumeInterrupted(chainId: string): boolean {
    const offer = this.snapshot().interruptedRetry;
    if (!offer || offer.chainId !== chainId) return false;
    this.session.resumeInterruptedRetry(offer);
    return true;
  }

  /** "Discard" on the card: the chain stays interrupted and is not offered again. */
  discardInterrupted(chainId: string): boolean {
    const offer = this.snapshot().interruptedRetry;
    if (!offer || offer.chainId !== chainId) return false;
    this.session.discardInterruptedRetry(offer);
    this.publishSnapshot();
    return true;
  }

  failureCost(since: number | null): FailureCostReport {
    return this.history.failureCost(since);
  }

  /** Open the newest session whose interrupted chain can be continued, if there is one. */
  private openInterruptedSession(): void {
    for (const sessionId of this.history.interruptedSessions()) {
      const stored = this.history.getSession(sessionId, TURN_PAGE_SIZE);
      if (!stored || !this.session.snapshot(stored).interruptedRetry) continue;
      this.resumeSession(sessionId);
      return;
    }
  }

  private publishSnapshot(): void {
    this.options.publish({ type: 'session_changed', snapshot: this.snapshot() });
  }

  report(notice: NoticeText): void {
    this.options.publish({ type: 'notice', level: 'error', ...notice });
  }

  private noteAtStart(level: StartupNotice['level'], text: NoticeText): StartupNotice {
    const notice = { id: `${this.launchId}:${this.startupNotices.length}`, level, ...text };
    this.startupNotices.push(notice);
    return notice;
  }

  async dispose(): Promise<void> {
    // A chain that is waiting is kept as interrupted, to be continued on the next start.
    await this.session.shutdown().catch(() => undefined);
    this.session.dispose();
    for (const dispose of this.disposers) dispose();
    await this.simulator?.stop();
    this.history.close();
    this.lock.release();
  }
}

// The composition root shared by every host: it opens the data folder (settings, credentials,
// SQLite history, decision log), starts the built-in simulator when it is the provider, builds
// the Agent with the guarded stream and the AgentSession, and exposes what the command router
// needs (its AppContext, structurally). Electron, the browser mode and the RPC mode all call
// createAppServices; they differ only in transport.
import { Agent } from '@mariozechner/pi-agent-core';
import { getEnvApiKey, streamSimple } from '@mariozechner/pi-ai';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import type { AppInfo, ProviderInfo } from '../../shared/contract';
import type { SessionEvent, SessionSnapshot } from '../../shared/events';
import type { FailureCostReport } from '../../shared/history';
import { PROVIDER_IDS, type ProviderId, type Settings } from '../../shared/settings';
import { AgentSession } from '../core/agent-session';
import { createGuardedStreamFn } from '../core/guarded-stream';
import { ModelRoute, sameModel } from '../core/model-fallback';
import type { NetworkCheck } from '../core/ports';
import { CredentialVault, fileKeyCipher, type SecretCipher } from './credential-store';
import { JsonlDecisionLog } from './decision-log-file';
import { HttpFactsRecorder } from './http-facts';
import { openHistoryStore, type SqliteHistoryStore } from './history/sqlite-history-store';
import {
  BUILTIN_KEYS,
  PROVIDER_LABELS,
  checkFallbackModels,
  modelPrice,
  modelsFor,
  resolveRef,
  type ResolvedModel,
} from './providers';
import { headProbe } from './reachability';
import { FileSettingsStore } from './settings-file';
import { parseFaultScript } from './simulator/fault-script';
import { SimulatorServer } from './simulator/simulator-server';

const SYSTEM_PROMPT = 'You are Resolute, a helpful desktop assistant. Answer clearly and briefly.';

export interface AppServicesOptions {
  host: AppInfo['host'];
  version: string;
  /** Where settings, credentials and history live. Default: the OS user-data folder. */
  dataDir?: string;
  /** Run-only settings (`--set`), validated. */
  overlay?: Record<string, unknown>;
  /** `--provider`, `--model`, `--base-url`, `--api-key`: run-only provider choice. */
  provider?: ProviderId;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  /** The person agreed to move a damaged history database aside and start a new one. */
  startFreshHistory?: boolean;
  /** Electron passes a safeStorage cipher; elsewhere a key file beside the data is used. */
  cipher?: SecretCipher;
  /** Receives every session event and settings change. */
  publish: (event: SessionEvent) => void;
  /** Offline-aware backoff: Electron passes net.isOnline(); the Node modes a HEAD to the provider's host. */
  networkCheck?: NetworkCheck;
  /** How often a chain paused offline checks again, ms (tests make it short). */
  offlinePollMs?: number;
}

/** The OS user-data folder, as Electron's app.getPath('userData') would give for "Resolute". */
export function defaultDataDir(): string {
  if (process.env.RESOLUTE_DATA_DIR) return process.env.RESOLUTE_DATA_DIR;
  const home = homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Application Support', 'Resolute');
  if (process.platform === 'win32') return join(process.env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Resolute');
  return join(process.env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Resolute');
}

/**
 * Turn the provider flags into run-only settings. `--base-url` alone selects an OpenAI-compatible
 * server; with `--provider` it replaces that provider's base URL (validated in parseCommonFlags).
 */
export function providerOverlay(
  options: Pick<AppServicesOptions, 'provider' | 'model' | 'baseUrl'>,
): Record<string, unknown> {
  const provider: Record<string, unknown> = {};
  const id = options.provider ?? (options.baseUrl ? 'openai-compatible' : undefined);
  if (id) provider.id = id;
  if (options.model) provider.model = options.model;
  else if (id === 'openai-compatible') provider.model = 'default';
  else if (id && id !== 'simulator') provider.model = modelsFor(id)[0] ?? 'default';
  if (options.baseUrl && id === 'openai-compatible') provider.baseUrl = options.baseUrl;
  else if (options.baseUrl && id && id !== 'simulator') provider.baseUrls = { [id]: options.baseUrl };
  return Object.keys(provider).length ? { provider } : {};
}

export class AppServices {
  readonly session: AgentSession;
  readonly history: SqliteHistoryStore;
  readonly settings: FileSettingsStore;
  readonly credentials: CredentialVault;
  readonly decisionLog: JsonlDecisionLog;
  readonly simulator: SimulatorServer | null;
  readonly dataDir: string;
  readonly logDir: string;
  private simulatorUrl: string | null;
  private readonly disposers: (() => void)[] = [];
  private readonly httpFacts = new HttpFactsRecorder();
  private appliedScript: string;
  private readonly route: ModelRoute;
  private firstChoice: Settings['provider'];

  private constructor(
    private readonly options: AppServicesOptions,
    parts: {
      dataDir: string;
      settings: FileSettingsStore;
      history: SqliteHistoryStore;
      simulator: SimulatorServer | null;
      simulatorUrl: string | null;
    },
  ) {
    this.dataDir = parts.dataDir;
    this.logDir = join(parts.dataDir, 'logs');
    this.settings = parts.settings;
    this.history = parts.history;
    this.simulator = parts.simulator;
    this.simulatorUrl = parts.simulatorUrl;
    this.appliedScript = parts.settings.get().simulator.script;
    this.decisionLog = new JsonlDecisionLog(this.logDir, (message) => this.report(message));
    this.credentials = new CredentialVault({
      path: join(parts.dataDir, 'credentials.json'),
      cipher: options.cipher ?? fileKeyCipher(parts.dataDir),
      envKey: (provider) =>
        provider === 'simulator' || provider === 'openai-compatible' ? undefined : getEnvApiKey(provider),
      builtin: BUILTIN_KEYS,
      runKey: options.apiKey ? { provider: parts.settings.get().provider.id, apiKey: options.apiKey } : undefined,
    });
    this.disposers.push(this.httpFacts.install());
    this.firstChoice = parts.settings.get().provider;
    this.route = new ModelRoute({
      firstChoice: () => ({ provider: this.settings.get().provider.id, model: this.settings.get().provider.model }),
      fallbackList: () => this.settings.get().providers.fallback,
      hasUsableKey: (ref) => this.credentials.hasUsableKey(ref.provider, ref.model),
    });
    this.session = this.createSession();
    this.disposers.push(this.session.subscribe((event) => this.onSessionEvent(event)));
    this.disposers.push(this.settings.subscribe((settings) => this.onSettingsChanged(settings)));
  }

  static async create(options: AppServicesOptions): Promise<AppServices> {
    // The OpenAI SDK logs malformed stream chunks to the console by default; we report them ourselves.
    process.env.OPENAI_LOG ??= 'off';
    const dataDir = options.dataDir ?? defaultDataDir();
    mkdirSync(dataDir, { recursive: true });
    const overlay = { ...providerOverlay(options), ...(options.overlay ?? {}) };
    const settings = new FileSettingsStore(join(dataDir, 'settings.json'), overlay, (value) => {
      const script = parseFaultScript(value.simulator.script);
      return script.ok ? checkFallbackModels(value.providers.fallback) : `simulator.script: ${script.error}`;
    });
    const history = openHistoryStore(join(dataDir, 'history.db'), { startFresh: options.startFreshHistory });
    // Chains still pending were cut by a crash or a kill: they can be continued (docs/retry-policy.md).
    history.closeInterruptedChains(Date.now());
    let simulator: SimulatorServer | null = null;
    let simulatorUrl: string | null = null;
    try {
      // The simulator always runs: it is the default provider and the settings pane can switch to it.
      simulator = new SimulatorServer({ script: safeScript(settings.get().simulator.script) });
      simulatorUrl = await simulator.start();
    } catch (error) {
      history.close();
      throw error;
    }
    const services = new AppServices(options, { dataDir, settings, history, simulator, simulatorUrl });
    if (settings.loadProblem) services.report(settings.loadProblem);
    if (services.credentials.loadProblem) services.report(services.credentials.loadProblem);
    // A window opens on the turn a quit or a crash interrupted, so its card offers to continue it.
    if (options.host !== 'rpc') services.openInterruptedSession();
    return services;
  }

  /** The active model (the first choice, or the fallback a usage limit switched to), resolved. */
  private activeModel(): ResolvedModel {
    return resolveRef(this.route.current(), this.settings.get().provider, this.simulatorUrl);
  }

  private createSession(): AgentSession {
    const resolved = this.activeModel();
    const agent: Agent = new Agent({
      initialState: {
        systemPrompt: SYSTEM_PROMPT,
        model: resolved.model,
        thinkingLevel: 'off',
        tools: [],
        messages: [],
      },
      streamFn: createGuardedStreamFn({
        base: streamSimple,
        timeoutMs: () => this.settings.get().retry.timeoutMs,
        facts: this.httpFacts,
      }),
      getApiKey: (provider) => this.credentials.activeCredential(provider, undefined, agent.state.model.id)?.apiKey,
    });
    return new AgentSession({
      agent,
      history: this.history,
      decisionLog: this.decisionLog,
      settings: this.settings,
      credentials: this.credentials,
      modelInfo: () => this.activeModel().info,
      sessionId: globalThis.crypto.randomUUID(),
      fallback: () => {
        const result = this.route.onUsageLimit();
        if (result.kind === 'switched') this.applyActiveModel();
        return result;
      },
      networkCheck: this.options.networkCheck ?? headProbe(),
      offlinePollMs: this.options.offlinePollMs,
      priceOf: modelPrice,
    });
  }

  /** Pass every session event on; a stored turn also changes its session's row in the lists. */
  private onSessionEvent(event: SessionEvent): void {
    this.options.publish(event);
    if (event.type !== 'turn_persisted') return;
    const { sessionId } = event.turn;
    this.options.publish({
      type: 'history_changed',
      sessionId,
      session: this.history.sessionSummary(sessionId) ?? null,
    });
  }

  private onSettingsChanged(settings: Settings): void {
    // A new first choice (settings, RPC set_model) applies at once; other changes keep a fallback switch.
    const before = this.firstChoice;
    this.firstChoice = settings.provider;
    const chosen = (p: Settings['provider']) => ({ provider: p.id, model: p.model });
    if (!sameModel(chosen(before), chosen(settings.provider))) this.route.firstChoiceChanged();
    this.applyActiveModel();
    // Only a change of the script itself re-arms the simulator (any other change must not reset it).
    if (this.simulator && settings.simulator.script !== this.appliedScript) {
      this.appliedScript = settings.simulator.script;
      try {
        this.simulator.setScript(settings.simulator.script);
      } catch (error) {
        this.report(`Simulator script not applied: ${error instanceof Error ? error.message : String(error)}`);
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
    };
  }

  snapshot(): SessionSnapshot {
    const stored = this.history.getSession(this.session.sessionId);
    return this.session.snapshot(stored ?? { turns: [], chains: [], decisions: [] });
  }

  providers(): ProviderInfo[] {
    return PROVIDER_IDS.map((id) => this.providerInfo(id));
  }

  private providerInfo(id: ProviderId): ProviderInfo {
    return {
      id,
      label: PROVIDER_LABELS[id],
      keys: this.credentials.hints(id),
      hasEnvKey: this.credentials.hasEnvKey(id),
      models: modelsFor(id),
    };
  }

  addKey(provider: ProviderId, apiKey: string): ProviderInfo {
    this.credentials.add(provider, apiKey);
    return this.providerInfo(provider);
  }

  removeKey(provider: ProviderId, keyId: string): ProviderInfo {
    this.credentials.remove(provider, keyId);
    return this.providerInfo(provider);
  }

  newSession(): void {
    this.startOnChosenModel();
    this.session.replaceConversation({
      sessionId: globalThis.crypto.randomUUID(),
      title: '',
      messages: [],
      stored: false,
    });
    this.publishSnapshot();
  }

  resumeSession(sessionId: string): void {
    const summary = this.history.sessionSummary(sessionId);
    if (!summary) throw new Error(`session ${sessionId} not found`);
    this.startOnChosenModel();
    this.session.replaceConversation({
      sessionId,
      title: summary.title,
      messages: this.history.loadContext(sessionId),
      stored: true,
    });
    this.publishSnapshot();
  }

  deleteSession(sessionId: string): boolean {
    const deleted = this.history.deleteSession(sessionId);
    if (!deleted) return false;
    this.options.publish({ type: 'history_changed', sessionId, session: null });
    if (sessionId === this.session.sessionId) this.newSession();
    return true;
  }

  /** Another session: back to the first choice when the setting says so (docs/retry-policy.md, "Fallback models"). */
  private startOnChosenModel(): void {
    if (this.session.isBusy) return; // replaceConversation refuses it with the reason
    this.route.newSession(this.settings.get().providers.newSessionUsesFirstChoice);
    this.applyActiveModel();
  }

  /** Point the agent at the active model; clients hear of a change as model_changed. */
  private applyActiveModel(): void {
    const before = this.session.model;
    const { model, info } = this.activeModel();
    this.session.setModel(model);
    if (before.id !== model.id || before.provider !== model.provider || before.baseUrl !== model.baseUrl)
      this.options.publish({ type: 'model_changed', model: info });
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
      const stored = this.history.getSession(sessionId);
      if (!stored || !this.session.snapshot(stored).interruptedRetry) continue;
      this.resumeSession(sessionId);
      return;
    }
  }

  private publishSnapshot(): void {
    this.options.publish({ type: 'session_changed', snapshot: this.snapshot() });
  }

  report(message: string): void {
    this.options.publish({ type: 'notice', level: 'error', message });
  }

  async dispose(): Promise<void> {
    // A chain that is waiting is kept as interrupted, to be continued on the next start.
    await this.session.shutdown().catch(() => undefined);
    this.session.dispose();
    for (const dispose of this.disposers) dispose();
    await this.simulator?.stop();
    this.history.close();
  }
}

function safeScript(script: string): string {
  // A stored script that no longer parses must not stop the app from starting.
  return parseFaultScript(script).ok ? script : '';
}

// The composition root shared by every host: it opens the data folder (settings, credentials,
// SQLite history, decision log), starts the built-in simulator when it is the provider, builds
// the Agent with the guarded stream and the AgentSession, and exposes what the command router
// needs (its AppContext, structurally). Electron, the browser mode and the RPC mode all call
// createAppServices; they differ only in transport.
import type { Agent } from '@mariozechner/pi-agent-core';
import type { Api, Model } from '@mariozechner/pi-ai';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import type { AppInfo, ProviderInfo } from '../../shared/contract';
import type { SessionEvent, SessionSnapshot } from '../../shared/events';
import { TURN_PAGE_SIZE } from '../../shared/history';
import { PROVIDER_IDS, type ProviderId, type Settings } from '../../shared/settings';
import { AgentSession } from '../core/agent-session';
import { DeferredAgent, type AgentInitialState } from '../core/deferred-agent';
import { isPiRuntimeLoaded, loadPiRuntime, piRuntime } from '../core/pi-runtime';
import { CredentialVault, fileKeyCipher, type SecretCipher } from './credential-store';
import { JsonlDecisionLog } from './decision-log-file';
import { HttpFactsRecorder } from './http-facts';
import { describeDamageFoundInUse } from './history/history-errors';
import { openHistoryStore, type SqliteHistoryStore } from './history/sqlite-history-store';
import { BUILTIN_KEYS, PROVIDER_LABELS, describeModel, modelsFor, needsCatalogue, resolveModel } from './providers';
import { FileSettingsStore } from './settings-file';
import { parseFaultScript } from './simulator/fault-script';
import { SimulatorServer } from './simulator/simulator-server';

/**
 * How long after start-up the background integrity check begins: the first answers go out first,
 * even on a loaded machine, before a worker starts reading the whole file.
 */
const INTEGRITY_CHECK_DELAY_MS = 2_000;

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
}

/** The OS user-data folder, as Electron's app.getPath('userData') would give for "Resolute". */
function defaultDataDir(): string {
  if (process.env.RESOLUTE_DATA_DIR) return process.env.RESOLUTE_DATA_DIR;
  const home = homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Application Support', 'Resolute');
  if (process.platform === 'win32') return join(process.env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Resolute');
  return join(process.env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Resolute');
}

/**
 * Turn the provider flags into run-only settings: `--base-url` alone selects an OpenAI-compatible
 * server. A real provider without `--model` gets its first catalogue model: pi-ai must be loaded.
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
  if (options.baseUrl) provider.baseUrl = options.baseUrl;
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
      // Asked only when a request goes out or the provider list is built, both after pi-ai is loaded.
      envKey: (provider) =>
        provider === 'simulator' || provider === 'openai-compatible'
          ? undefined
          : piRuntime().piAi.getEnvApiKey(provider),
      builtin: BUILTIN_KEYS,
      runKey: options.apiKey ? { provider: parts.settings.get().provider.id, apiKey: options.apiKey } : undefined,
    });
    this.disposers.push(this.httpFacts.install());
    this.session = this.createSession();
    this.disposers.push(this.session.subscribe((event) => this.onSessionEvent(event)));
    this.disposers.push(this.settings.subscribe((settings) => this.onSettingsChanged(settings)));
  }

  static async create(options: AppServicesOptions): Promise<AppServices> {
    // The OpenAI SDK logs malformed stream chunks to the console by default; we report them ourselves.
    process.env.OPENAI_LOG ??= 'off';
    const dataDir = options.dataDir ?? defaultDataDir();
    mkdirSync(dataDir, { recursive: true });
    // A provider from the flags picks its first catalogue model: that needs pi-ai now.
    if (options.provider && needsCatalogue(options.provider) && !options.model) await loadPiRuntime();
    const overlay = { ...providerOverlay(options), ...(options.overlay ?? {}) };
    const settings = new FileSettingsStore(join(dataDir, 'settings.json'), overlay, (value) => {
      const script = parseFaultScript(value.simulator.script);
      return script.ok ? null : `simulator.script: ${script.error}`;
    });
    // The agent's first model comes from the catalogue when the provider is a real one.
    if (needsCatalogue(settings.get().provider.id)) await loadPiRuntime();
    const history = openHistoryStore(join(dataDir, 'history.db'), { startFresh: options.startFreshHistory });
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
    services.checkHistoryLater();
    return services;
  }

  /**
   * The integrity check the open left to the background (history-integrity.ts) starts once start-up
   * is over, in a worker thread; damage found is reported like any other problem.
   */
  private checkHistoryLater(): void {
    const timer = setTimeout(() => {
      void this.history.checkIntegrity().then((damage) => {
        if (!damage) return;
        const message = describeDamageFoundInUse(damage);
        process.stderr.write(`resolute: ${message}\n`);
        this.report(message);
      });
    }, INTEGRITY_CHECK_DELAY_MS);
    timer.unref();
    this.disposers.push(() => clearTimeout(timer));
  }

  private createSession(): AgentSession {
    const initial = {
      systemPrompt: SYSTEM_PROMPT,
      model: this.currentModel(),
      thinkingLevel: 'off' as const,
      tools: [],
      messages: [],
    };
    const getApiKey = (provider: string) => this.credentials.activeCredential(provider)?.apiKey;
    // pi-ai and pi-agent-core load with the first run, not at start-up (src/main/core/pi-runtime.ts).
    const agent = new DeferredAgent(initial, (state) => this.createAgent(state, getApiKey), getApiKey);
    return new AgentSession({
      agent,
      history: this.history,
      decisionLog: this.decisionLog,
      settings: this.settings,
      credentials: this.credentials,
      modelInfo: () => describeModel(this.settings.get().provider),
      sessionId: globalThis.crypto.randomUUID(),
    });
  }

  private async createAgent(
    state: AgentInitialState,
    getApiKey: (provider: string) => string | undefined,
  ): Promise<Agent> {
    const [{ piAi, agentCore }, { createGuardedStreamFn }] = await Promise.all([
      loadPiRuntime(),
      import('../core/guarded-stream'),
    ]);
    return new agentCore.Agent({
      // A provider chosen while pi-ai was still loading was applied to `state` first (followProvider).
      initialState: pickState(state),
      streamFn: createGuardedStreamFn({
        base: piAi.streamSimple,
        timeoutMs: () => this.settings.get().retry.timeoutMs,
        facts: this.httpFacts,
      }),
      getApiKey,
    });
  }

  private currentModel(): Model<Api> {
    return resolveModel(this.settings.get().provider, this.simulatorUrl).model;
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
    this.followProvider(settings.provider);
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

  /** Point the agent at the provider's model; a catalogue model first loads pi-ai. */
  private followProvider(provider: Settings['provider']): void {
    const apply = () => this.session.setModel(resolveModel(provider, this.simulatorUrl).model);
    if (!needsCatalogue(provider.id) || isPiRuntimeLoaded()) return apply();
    loadPiRuntime().then(apply, (error: unknown) =>
      this.report(`Could not load the model catalogue: ${String(error)}`),
    );
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
    // The newest page only: a long session opens at once, and the client pages back (history.turns).
    const stored = this.history.getSession(this.session.sessionId, TURN_PAGE_SIZE);
    return this.session.snapshot(stored ?? { turns: [], chains: [], decisions: [], hasOlderTurns: false });
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
    };
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

  private publishSnapshot(): void {
    this.options.publish({ type: 'session_changed', snapshot: this.snapshot() });
  }

  report(message: string): void {
    this.options.publish({ type: 'notice', level: 'error', message });
  }

  async dispose(): Promise<void> {
    await this.session.abort().catch(() => undefined);
    this.session.dispose();
    for (const dispose of this.disposers) dispose();
    await this.simulator?.stop();
    this.history.close();
  }
}

function pickState(state: AgentInitialState): AgentInitialState {
  const { systemPrompt, model, thinkingLevel, tools, messages } = state;
  return { systemPrompt, model, thinkingLevel, tools, messages };
}

function safeScript(script: string): string {
  // A stored script that no longer parses must not stop the app from starting.
  return parseFaultScript(script).ok ? script : '';
}

// The model the session talks to (docs/retry-policy.md, "Fallback models"): the first choice of
// the settings, or the fallback a usage limit (or, for one prompt, an outage) switched to, resolved with providers.ts and pointed
// at the agent; clients hear a change as model_changed. Owned by AppServices, which asks it at
// every switch: a usage limit, a change of settings, another session. An OpenAI-compatible
// server's model takes its limits from what the server says once it has answered
// (local-server.ts). A real provider's model comes from pi-ai's catalogue: when pi-ai is not
// loaded yet, the agent is pointed at it once it is.
import type { AgentSession } from '../core/session/agent-session';
import { ModelRoute, sameModel, type FallbackPort } from '../core/retry';
import { isPiRuntimeLoaded, loadPiRuntime } from '../core/llm/pi-runtime';
import type { ModelInfo, SessionEvent } from '../../shared/events';
import { errorNotice } from '../../shared/notices';
import { type NoticeText } from '../../shared/notice-params';
import { type ModelRef, type Settings } from '../../shared/settings';
import { rememberedThinkingLevel, type ThinkingLevelSetting } from '../../shared/settings-values';
import type { CredentialVault } from './credential-store';
import type { Api, Model } from '@mariozechner/pi-ai';
import type { LocalServerProbe } from './local-server';
import { compatibleUrl, describeRef, needsCatalogue, resolveRef, type ResolvedModel } from './providers';
import type { FileSettingsStore } from './settings-file';

export interface ActiveModelParts {
  settings: FileSettingsStore;
  credentials: CredentialVault;
  simulatorUrl: string | null;
  publish: (event: SessionEvent) => void;
  /** The session whose agent follows the active model (built after this, hence a getter). */
  session: () => AgentSession;
  /** Says what went wrong (loading the catalogue failed). */
  report: (notice: NoticeText) => void;
  /** What OpenAI-compatible servers say of their models (local-server.ts). */
  servers: LocalServerProbe;
}

/** The same model with the same limits (what the window shows of it would not change). */
function sameLimits(a: Model<Api>, b: Model<Api>): boolean {
  return (
    a.id === b.id &&
    a.provider === b.provider &&
    a.baseUrl === b.baseUrl &&
    a.contextWindow === b.contextWindow &&
    a.reasoning === b.reasoning &&
    // Marked text-only (or not) in Settings: the composer's image check follows.
    a.input.join() === b.input.join()
  );
}

const chosen = (provider: Settings['provider']) => ({ provider: provider.id, model: provider.model });

export class ActiveModel {
  private readonly route: ModelRoute;
  private firstChoice: Settings['provider'];
  /** The servers and models askServer has asked about. */
  private readonly asked = new Set<string>();
  /** The thinking level last set on the session from the settings (null: none yet). */
  private appliedLevel: ThinkingLevelSetting | null = null;

  constructor(private readonly parts: ActiveModelParts) {
    const { settings, credentials } = parts;
    this.firstChoice = settings.get().provider;
    this.route = new ModelRoute({
      firstChoice: () => chosen(settings.get().provider),
      fallbackList: () => settings.get().providers.fallback,
      hasUsableKey: (ref) => credentials.hasUsableKey(ref.provider, ref.model),
    });
  }

  /** The active model (the first choice, or the fallback a usage limit switched to), resolved (pi-ai loaded). */
  resolved(): ResolvedModel {
    const ref = this.route.current();
    const { provider } = this.parts.settings.get();
    const server =
      ref.provider === 'openai-compatible' ? this.parts.servers.facts(compatibleUrl(provider), ref.model) : undefined;
    return resolveRef(ref, provider, this.parts.simulatorUrl, server);
  }

  /**
   * An OpenAI-compatible server's model is asked about once per URL and model (the listing, and
   * Ollama's /api/show); its answer applies as soon as it comes (a window, images, thinking).
   */
  askServer(): void {
    const ref = this.route.current();
    if (ref.provider !== 'openai-compatible') return;
    const url = compatibleUrl(this.parts.settings.get().provider);
    const key = `${url} ${ref.model}`;
    if (this.asked.has(key)) return;
    this.asked.add(key);
    void this.parts.servers.probe(url, ref.model).then(() => this.apply());
  }

  /**
   * What events, history and the window show of the active model (no catalogue needed); its
   * window and reasoning flag once the catalogue is there, and the thinking level it uses.
   */
  info(): ModelInfo {
    const info = describeRef(this.route.current(), this.parts.settings.get().provider);
    const thinkingLevel = this.thinkingLevel();
    if (this.waitsForCatalogue) return { ...info, thinkingLevel };
    const { model } = this.resolved();
    const acceptsImages = model.input.includes('image');
    return { ...info, contextWindow: model.contextWindow, reasoning: model.reasoning, thinkingLevel, acceptsImages };
  }

  /** The level the session's agent starts with (later ones are set by apply). */
  startingThinkingLevel(): ThinkingLevelSetting {
    this.appliedLevel = this.thinkingLevel();
    return this.appliedLevel;
  }

  /**
   * The thinking level of the active model (docs/thinking-and-context.md): a `--set
   * agent.thinkingLevel` of this run, else the level remembered for the model, else the last chosen.
   */
  thinkingLevel(): ThinkingLevelSetting {
    const { settings } = this.parts;
    const { agent } = settings.get();
    if (settings.isRunOnly('agent', 'thinkingLevel')) return agent.thinkingLevel;
    const { provider, model } = this.route.current();
    return rememberedThinkingLevel(agent, provider, model);
  }

  /** The active model needs pi-ai's catalogue, which is not loaded yet. */
  get waitsForCatalogue(): boolean {
    return needsCatalogue(this.route.current().provider) && !isPiRuntimeLoaded();
  }

  /**
   * Lifecycle step 5's second switch, for a session's retry controller: choose, then use — on
   * that session, shown or working in the background (the route is the app's: the next chat
   * starts on the model the limit left usable too).
   */
  fallbackFor(session: () => AgentSession): FallbackPort {
    return {
      next: () => this.route.onUsageLimit(),
      use: (to) => {
        this.route.switchTo(to);
        this.apply(session());
      },
      nextAfterOutage: () => this.route.onOutage(),
      useAfterOutage: (to) => this.useForPrompt(to, session()),
      newPrompt: () => {
        if (this.route.endOutage()) this.apply(session());
      },
    };
  }

  /** "Continue on…" a failed card (docs/retry-policy.md): the shown chat goes on with `to`, as a failover would. */
  continueOn(to: ModelRef): void {
    this.useForPrompt(to, this.parts.session());
  }

  /** A failover holds for the prompt it happened in, or — providers.keepFailoverModel — like a usage limit's. */
  private useForPrompt(to: ModelRef, session: AgentSession): void {
    if (this.parts.settings.get().providers.keepFailoverModel) this.route.switchTo(to);
    else this.route.switchForOutage(to);
    this.apply(session);
  }

  /** A new first choice (settings, RPC set_model) applies at once; other changes keep a fallback switch. */
  settingsChanged(settings: Settings): void {
    const before = this.firstChoice;
    this.firstChoice = settings.provider;
    if (!sameModel(chosen(before), chosen(settings.provider))) this.route.firstChoiceChanged();
    this.apply();
  }

  /** Another session: back to the first choice when the setting says so. */
  sessionChanging(): void {
    if (this.parts.session().isBusy) return; // replaceConversation refuses it with the reason
    this.route.newSession(this.parts.settings.get().providers.newSessionUsesFirstChoice);
    this.apply();
  }

  /** Point the agent at the active model; clients hear of a change of the shown chat's as model_changed. */
  private apply(session = this.parts.session()): void {
    if (this.waitsForCatalogue) {
      // A run that starts meanwhile still gets it: the DeferredAgent hands over what was set while it loaded.
      loadPiRuntime().then(
        () => this.apply(session),
        (error: unknown) =>
          this.parts.report(errorNotice('catalogue_load_failed', 'Could not load the model catalogue', error)),
      );
      return;
    }
    this.askServer();
    const before = session.model;
    const { model } = this.resolved();
    session.setModel(model);
    // The level is set only when the settings' level changes, so RPC's set_thinking_level holds until then.
    const level = this.thinkingLevel();
    const levelChanged = level !== this.appliedLevel;
    if (levelChanged) session.setThinkingLevel(level);
    this.appliedLevel = level;
    const isShown = session === this.parts.session();
    if (isShown && (levelChanged || !sameLimits(before, model)))
      this.parts.publish({ type: 'model_changed', model: this.info() });
  }
}

// The model the session talks to (docs/retry-policy.md, "Fallback models"): the first choice of
// the settings, or the fallback a usage limit switched to, resolved with providers.ts and pointed
// at the agent; clients hear a change as model_changed. Owned by AppServices, which asks it at
// every switch: a usage limit, a change of settings, another session. A real provider's model comes
// from pi-ai's catalogue: when pi-ai is not loaded yet, the agent is pointed at it once it is.
import type { AgentSession } from '../core/agent-session';
import { ModelRoute, sameModel, type FallbackPort } from '../core/retry/model-fallback';
import { isPiRuntimeLoaded, loadPiRuntime } from '../core/pi-runtime';
import type { ModelInfo, SessionEvent } from '../../shared/events';
import { errorNotice, type NoticeText } from '../../shared/notices';
import type { Settings } from '../../shared/settings';
import type { CredentialVault } from './credential-store';
import { describeRef, needsCatalogue, resolveRef, type ResolvedModel } from './providers';
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
}

const chosen = (provider: Settings['provider']) => ({ provider: provider.id, model: provider.model });

export class ActiveModel {
  private readonly route: ModelRoute;
  private firstChoice: Settings['provider'];

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
    return resolveRef(this.route.current(), this.parts.settings.get().provider, this.parts.simulatorUrl);
  }

  /** What events, history and the window show of the active model (no catalogue needed). */
  info(): ModelInfo {
    return describeRef(this.route.current(), this.parts.settings.get().provider);
  }

  /** The active model needs pi-ai's catalogue, which is not loaded yet. */
  get waitsForCatalogue(): boolean {
    return needsCatalogue(this.route.current().provider) && !isPiRuntimeLoaded();
  }

  /** Lifecycle step 5's second switch, for the session's retry controller: choose, then use. */
  readonly fallback: FallbackPort = {
    next: () => this.route.onUsageLimit(),
    use: (to) => {
      this.route.switchTo(to);
      this.apply();
    },
  };

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

  /** Point the agent at the active model; clients hear of a change as model_changed. */
  private apply(): void {
    if (this.waitsForCatalogue) {
      // A run that starts meanwhile still gets it: the DeferredAgent hands over what was set while it loaded.
      loadPiRuntime().then(
        () => this.apply(),
        (error: unknown) =>
          this.parts.report(errorNotice('catalogue_load_failed', 'Could not load the model catalogue', error)),
      );
      return;
    }
    const session = this.parts.session();
    const before = session.model;
    const { model, info } = this.resolved();
    session.setModel(model);
    const inputChanged = before.input.join() !== model.input.join(); // marked text-only (or not) in Settings
    if (
      before.id !== model.id ||
      before.provider !== model.provider ||
      before.baseUrl !== model.baseUrl ||
      inputChanged
    )
      this.parts.publish({ type: 'model_changed', model: info });
  }
}

// Plain action functions: components call these; they never call the bridge themselves. A command
// whose action would only relay it goes through `call` (actions.call('session.abortRetry', {})),
// its failure a notice; the named actions are those that do more — start a turn, write the answer
// into the store, keep a refusal beside its field or hand it back to be shown in place.
import type { ResoluteBridge } from '../../../shared/bridge';
import type { SessionEvent } from '../../../shared/events';
import type { ProviderId } from '../../../shared/settings-values';
import type { Settings } from '../../../shared/settings';
import { patchedSettings } from './settings-check';
import type {
  CommandName,
  CommandParams,
  ProviderInfo,
  SessionInstructions,
  StartupNotice,
} from '../../../shared/contract';
import type { AttachmentUpload } from '../../../shared/attachments';
import { applyOlderTurns } from './apply-session-event';
import {
  SESSION_LIST_LIMIT,
  addNotice,
  type AppState,
  type ConnectionState,
  type FocusTarget,
  type ViewName,
} from './state';
import { eventDispatcher } from './event-dispatcher';
import { keepDraft } from '../chat/drafts';
import type { AppStore } from './state';
import { errorText } from '../../../shared/text';

export interface ActionOptions {
  /** Called after the store applied each event (the Esc swap listens here). */
  onEvent?: (event: SessionEvent) => void;
}

export function createActions(bridge: ResoluteBridge, store: AppStore, options: ActionOptions = {}) {
  const update = (fn: (state: AppState) => AppState): void => store.setState(fn(store.getState()), true);
  const report = (error: unknown): void => update((s) => addNotice(s, 'error', errorText(error)));

  async function attempt<T>(call: Promise<T>): Promise<T | undefined> {
    try {
      return await call;
    } catch (error) {
      report(error);
      return undefined;
    }
  }

  const dispatch = eventDispatcher(store, options.onEvent);

  /** The session list, fetched on (re)connect; history_changed keeps it current after that. */
  async function refreshHistory(): Promise<void> {
    const sessions = await attempt(bridge.call('history.list', { limit: SESSION_LIST_LIMIT }));
    if (sessions) update((s) => ({ ...s, history: { ...s.history, sessions } }));
  }

  let olderTurns: Promise<void> | null = null;
  /** Fetch the page before the oldest turn the chat holds; one fetch at a time. */
  function loadOlderTurns(): Promise<void> {
    const { sessionId, turns, hasOlderTurns } = store.getState().session;
    if (!sessionId || !hasOlderTurns || turns.length === 0) return Promise.resolve();
    olderTurns ??= attempt(bridge.call('history.turns', { sessionId, beforeSeq: turns[0].seq }))
      .then((page) => {
        if (page) update((s) => applyOlderTurns(s, page));
      })
      .finally(() => {
        olderTurns = null;
      });
    return olderTurns;
  }

  function requestFocus(target: FocusTarget): void {
    update((s) => ({ ...s, ui: { ...s.ui, focus: { target, n: (s.ui.focus?.n ?? 0) + 1 } } }));
  }

  /** The shown chat takes the focus: its message box, or its approval card when one waits (A answers it). */
  function focusChat(): void {
    requestFocus(store.getState().session.pendingApprovals.length > 0 ? 'approval' : 'composer');
  }

  /**
   * New or resumed: the session itself arrives as session_changed; here the chat is shown and
   * focused. A chat that works meanwhile runs on in the background.
   */
  async function openSession(call: () => Promise<{ sessionId: string }>, onShown?: () => void): Promise<boolean> {
    let sessionId: string;
    // What the composer holds now stays with the chat left; words typed from here on are the next one's.
    update((s) => ({ ...s, ui: { ...s.ui, openings: s.ui.openings + 1 } }));
    try {
      ({ sessionId } = await call());
    } catch (error) {
      report(error);
      return false;
    }
    showView('chat');
    whenShown(sessionId, () => {
      onShown?.();
      focusChat();
    });
    return true;
  }

  /** The stop of the last whenShown's wait: a newer opening replaces it. */
  let stopWaitingForShown: (() => void) | null = null;

  /**
   * Runs `then` once `sessionId` is the shown chat: its session_changed may come after the
   * command's answer, and the focus goes by what that chat holds (a waiting approval card).
   */
  function whenShown(sessionId: string, then: () => void): void {
    stopWaitingForShown?.();
    stopWaitingForShown = null;
    if (store.getState().session.sessionId === sessionId) return then();
    const unsubscribe = store.subscribe((state) => {
      if (state.session.sessionId !== sessionId) return;
      stop();
      then();
    });
    const stop = () => {
      unsubscribe();
      if (stopWaitingForShown === stop) stopWaitingForShown = null;
    };
    stopWaitingForShown = stop;
  }

  function showView(view: ViewName): void {
    update((s) => ({ ...s, ui: { ...s.ui, view } }));
  }

  function setProviders(info: ProviderInfo): void {
    update((s) => ({
      ...s,
      settings: { ...s.settings, providers: s.settings.providers.map((p) => (p.id === info.id ? info : p)) },
    }));
  }

  /**
   * Show a settings change before the main process confirms it, so controlled inputs (checkbox,
   * select) do not snap back meanwhile. Only a patch that validates is shown (settings-check.ts); the returned undo
   * restores the old values if the main process refuses it and nothing newer arrived since.
   */
  function applyOptimistic(patch: Record<string, unknown>): () => void {
    const previous = store.getState().settings.values;
    if (!previous) return () => undefined;
    const merged = patchedSettings(previous, patch);
    if (!merged.ok) return () => undefined;
    const show = (values: Settings): void => update((s) => ({ ...s, settings: { ...s.settings, values } }));
    show(merged.value);
    return () => {
      if (store.getState().settings.values === merged.value) show(previous);
    };
  }

  function confirmSaved(fieldPath: string, settings: Settings): void {
    setFieldError(fieldPath, null);
    dispatch({ type: 'settings_changed', settings });
    update((s) => ({ ...s, ui: { ...s.ui, savedCount: s.ui.savedCount + 1 } }));
  }

  function setFieldError(fieldPath: string, message: string | null): void {
    update((s) => {
      const fieldErrors = { ...s.settings.fieldErrors };
      if (message === null) delete fieldErrors[fieldPath];
      else fieldErrors[fieldPath] = message;
      return { ...s, settings: { ...s.settings, fieldErrors } };
    });
  }

  /** A message action that starts a turn; false (with a notice) when the main process refused it. */
  async function startTurn(call: Promise<{ accepted: true }>): Promise<boolean> {
    clearEndedBanner();
    return (await attempt(call)) !== undefined;
  }

  /** A new turn clears what the last chain left: its failure or the model it switched to. */
  function clearEndedBanner(): void {
    update((s) =>
      s.retry.banner && s.retry.banner.kind !== 'pending' ? { ...s, retry: { ...s.retry, banner: null } } : s,
    );
  }

  return {
    /** Any command of the contract, its failure a notice; undefined then. */
    call: <N extends CommandName>(method: N, params: CommandParams<N>) => attempt(bridge.call(method, params)),
    dispatch,
    report,
    refreshHistory,
    loadOlderTurns,
    showView,
    requestFocus,
    focusChat,
    /** Fetch the snapshot, the settings and the start-up notices (on connect and after every reconnect). */
    async sync(): Promise<{ snapshot: SessionEvent; settings: SessionEvent; startupNotices: StartupNotice[] }> {
      const [snapshot, settings, info] = await Promise.all([
        bridge.call('session.getState', {}),
        bridge.call('settings.get', {}),
        bridge.call('app.info', {}),
      ]);
      update((s) => ({
        ...s,
        ui: { ...s.ui, host: info.host },
        settings: {
          ...s.settings,
          mcpServers: info.mcpServers ?? [],
          updates: info.updates ?? null,
          simulatorScriptUsedUp: info.simulatorScriptUsedUp ?? false,
        },
      }));
      return {
        snapshot: applySnapshotEvent(snapshot),
        settings: { type: 'settings_changed', settings },
        startupNotices: info.notices,
      };
    },
    /** Settings → About's "Check for updates": the updater's answer replaces what About shows. */
    async checkForUpdates(): Promise<void> {
      const status = await bridge.call('app.checkForUpdates', {});
      update((s) => ({ ...s, settings: { ...s.settings, updates: status } }));
    },
    setConnection(connection: ConnectionState): void {
      update((s) => ({ ...s, ui: { ...s.ui, connection } }));
    },
    /** Send a prompt; false if the main process refused it (the composer then keeps the text). */
    prompt: (text: string) => startTurn(bridge.call('session.prompt', { text })),
    /**
     * Send a prompt with attachments; the refusal's words when the main process refused it (the
     * composer shows them beside the files and keeps everything), null when it was accepted.
     */
    async promptWithAttachments(text: string, attachments: AttachmentUpload[]): Promise<string | null> {
      clearEndedBanner();
      try {
        await bridge.call('session.prompt', { text, attachments });
        return null;
      } catch (error) {
        return errorText(error);
      }
    },
    /**
     * A file just attached: the main process starts on what Send would wait for (a PDF's text, read
     * in a worker). Nothing to wait for here; a failure is Send's to report.
     */
    prepareAttachment(file: AttachmentUpload): void {
      const { name, mimeType, data } = file;
      bridge.call('session.prepareAttachment', { name, mimeType, data }).catch(() => undefined);
    },
    /** Edit and resend a message of the person's: a new branch from that message on (keepAttachments: which of its files go again). */
    edit: (turnId: string, text: string, keepAttachments?: number[]) =>
      startTurn(bridge.call('session.edit', { turnId, text, ...(keepAttachments ? { keepAttachments } : {}) })),
    /** Regenerate the last reply, or (after a failure) ask for it again: one new request. */
    regenerate: () => startTurn(bridge.call('session.regenerate', {})),
    newChat: () => openSession(() => bridge.call('session.new', {})),
    /**
     * A new chat with words in its box, never sent (a resolute://new link, docs/hosts.md "Deep
     * links"): they are the new chat's draft before it shows, and given to the box once it has.
     */
    newChatWithText(text: string): Promise<boolean> {
      const open = async () => {
        const opened = await bridge.call('session.new', {});
        keepDraft(opened.sessionId, { text, files: [], refill: null });
        return opened;
      };
      const give = () =>
        update((s) => ({ ...s, ui: { ...s.ui, returnedDraft: { text, n: (s.ui.returnedDraft?.n ?? 0) + 1 } } }));
      return openSession(open, text ? give : undefined);
    },
    resume: (sessionId: string) => openSession(() => bridge.call('session.resume', { sessionId })),
    /** Settings → Provider, scrolled to one provider (the Authentication card's "Check your API key"). */
    openProviderSettings(provider: string): void {
      update((s) => ({ ...s, ui: { ...s.ui, view: 'settings', settingsProvider: provider } }));
    },
    providerSettingsShown(): void {
      update((s) => ({ ...s, ui: { ...s.ui, settingsProvider: null } }));
    },
    dismissRetryBanner(): void {
      update((s) => ({
        ...s,
        retry: { ...s.retry, banner: s.retry.banner?.kind === 'pending' ? s.retry.banner : null },
      }));
    },
    /** Text for the message box, when it is empty (the palette's "/…" that was not a command). */
    giveBackText(text: string): void {
      update((s) => ({ ...s, ui: { ...s.ui, returnedDraft: { text, n: (s.ui.returnedDraft?.n ?? 0) + 1 } } }));
    },
    /** A notice of the window's own (an app command's outcome). */
    notify(level: 'info' | 'error', text: string): void {
      update((s) => addNotice(s, level, text));
    },
    dismissNotice(id: number): void {
      update((s) => ({ ...s, ui: { ...s.ui, notices: s.ui.notices.filter((n) => n.id !== id) } }));
    },
    /** Apply one field's patch at once; the refusal message is kept next to the field. */
    async updateSettings(fieldPath: string, patch: Record<string, unknown>): Promise<boolean> {
      const undo = applyOptimistic(patch);
      try {
        const settings = await bridge.call('settings.update', { patch });
        confirmSaved(fieldPath, settings);
        return true;
      } catch (error) {
        undo();
        setFieldError(fieldPath, errorText(error));
        return false;
      }
    },
    /** Set the simulator's fault script; the same script entered again starts over. */
    async setSimulatorScript(script: string): Promise<boolean> {
      try {
        confirmSaved('simulator.script', await bridge.call('simulator.setScript', { script }));
        return true;
      } catch (error) {
        setFieldError('simulator.script', errorText(error));
        return false;
      }
    },
    /** Settings' Test connection: a failure is thrown, for the card to show beside the button. */
    testConnection: () => bridge.call('providers.test', {}),
    async loadProviders(): Promise<void> {
      const providers = await attempt(bridge.call('providers.list', {}));
      if (providers) update((s) => ({ ...s, settings: { ...s.settings, providers } }));
    },
    async addKey(provider: ProviderId, apiKey: string): Promise<boolean> {
      try {
        setProviders(await bridge.call('providers.addKey', { provider, apiKey }));
        setFieldError(`providers.${provider}`, null);
        return true;
      } catch (error) {
        setFieldError(`providers.${provider}`, errorText(error));
        return false;
      }
    },
    async removeKey(provider: ProviderId, keyId: string): Promise<void> {
      const info = await attempt(bridge.call('providers.removeKey', { provider, keyId }));
      if (info) setProviders(info);
    },
    /** The row leaves the lists by the history_changed event that the deletion sends. */
    async deleteSession(sessionId: string): Promise<boolean> {
      const result = await attempt(bridge.call('history.delete', { sessionId }));
      return result?.deleted ?? false;
    },
    /**
     * Summarise the older conversation now (the context meter's Compact now). Its progress and a
     * failure arrive as compaction events (the divider says why), so the refusal is not said twice.
     */
    async compact(): Promise<void> {
      await bridge.call('session.compact', {}).catch(() => undefined);
    },
    /** Give the conversation its own instructions (null: Settings → Agent's again); a refusal comes back as its text. */
    async setInstructions(override: SessionInstructions['override']): Promise<SessionInstructions | string> {
      try {
        return await bridge.call('session.setInstructions', { override });
      } catch (error) {
        return errorText(error);
      }
    },
    /** Move the session's tools to a folder; the main process checks it. Returns its refusal, or null. */
    async setWorkspace(path: string): Promise<string | null> {
      try {
        await bridge.call('session.setWorkspace', { path });
        return null;
      } catch (error) {
        return errorText(error);
      }
    },
  };
}

export type Actions = ReturnType<typeof createActions>;

function applySnapshotEvent(snapshot: Extract<SessionEvent, { type: 'session_changed' }>['snapshot']): SessionEvent {
  return { type: 'session_changed', snapshot };
}

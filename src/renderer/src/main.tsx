// Renderer entry: picks the bridge, creates the store and the actions, starts the event pump and the links,
// wires the shortcuts and Esc (through the handler stack) and the theme/language to the settings,
// then renders <App>.
import { StrictMode } from 'react';
import type { AppCommandId } from '../../shared/app-commands';
import { createRoot } from 'react-dom/client';
import { pickBridge } from './bridge/pick-bridge';
import { App } from './components/App';
import i18next from 'i18next';
import { applyLanguage, initI18n } from './i18n';
import { EscHandlerStack, RetryEscSwap } from './retry/esc-handler';
import { createActions } from './store/actions';
import { RuntimeContext, createAppStore, startEventPump } from './store/app-store';
import { preloadMarkdown } from './markdown/LazyMarkdown';
import { preloadSettingsCheck } from './store/settings-check';
import { ApprovalEscSwap } from './tools/approval-esc';
import { warmFormats } from './util/format';
import { runAppCommand } from './commands/bindings';
import { watchLinks } from './links/open-link';
import { linkRuntime } from './links/link-runtime';
import { handleShortcut } from './commands/shortcuts';
import { applyTheme } from './util/theme';
import './styles/base.css';
import './styles/layout.css';
import './styles/chat.css';
import './styles/settings.css';
import './styles/history.css';
import './styles/tools.css';
import './styles/resilience.css';
import './styles/markdown.css';
import './styles/attachments.css';

async function start(): Promise<void> {
  // Follow the system's light/dark until the settings arrive (they may choose one).
  applyTheme('system');
  // The set-up below runs as a task of its own, after the one that evaluated the chunk's modules:
  // together they were the load's longest task, 55-63 ms of CPU (bench/first-window.ts).
  await new Promise((resolve) => setTimeout(resolve, 0));
  await initI18n();
  const bridge = pickBridge();
  const store = createAppStore();

  // Default Esc: stop the streaming turn. The retry swap pushes abortRetry on top while a retry waits.
  const escStack = new EscHandlerStack(() => {
    if (store.getState().session.isStreaming) void actions.call('session.abort', {});
  });
  // While the banner shows, Esc cancels the retry (docs/retry-policy.md, "Cancel and abort"). Once
  // the retried request is on its way the main process refuses the cancel (the retry has
  // happened); Esc then stops that stream.
  const retrySwap = new RetryEscSwap(escStack, () => {
    void actions.call('session.abortRetry', {}).then((result) => {
      if (result && !result.aborted && store.getState().session.isStreaming) void actions.call('session.abort', {});
    });
  });
  const actions = createActions(bridge, store, { onEvent: (event) => retrySwap.onEvent(event) });

  const run = (id: AppCommandId, which = 0) =>
    runAppCommand(id, { actions, state: store.getState(), t: i18next.t }, which);
  // The desktop menu's items (src/main/electron/app-menu.ts) arrive as the same commands.
  bridge.onAppCommand?.(run);
  window.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || handleShortcut(event, run)) return;
    // Esc during IME composition cancels the conversion; an open dialog handles its own Esc.
    if (event.key !== 'Escape' || event.shiftKey || event.isComposing) return;
    if (document.querySelector('dialog[open]')) return;
    escStack.handle();
  });

  // While an approval card shows, Esc denies the tool call (docs/tools.md, "Approvals").
  const approvalSwap = new ApprovalEscSwap(
    escStack,
    (request) => void actions.call('session.approveTool', { id: request.id, choice: 'deny' }),
  );
  store.subscribe((state) => approvalSwap.onPending(state.session.pendingApprovals));

  let appliedUi: unknown = null;
  store.subscribe((state) => {
    const ui = state.settings.values?.ui;
    if (!ui || ui === appliedUi) return;
    appliedUi = ui;
    applyTheme(ui.theme);
    void applyLanguage(ui.language).then(warmWhenIdle);
  });
  warmWhenIdle();

  startEventPump(bridge, actions);
  // resolute:// links: the desktop's link channel, the browser mode's #/link/… (docs/hosts.md, "Deep links").
  watchLinks(linkRuntime(store, actions), bridge, window);
  // On load the focus goes into the chat once its first snapshot is in, not to the page body.
  const unsubscribeFirstChat = store.subscribe((state) => {
    if (state.session.sessionId === null) return;
    unsubscribeFirstChat();
    actions.focusChat();
  });

  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  createRoot(root).render(
    <StrictMode>
      <RuntimeContext value={{ store, actions }}>
        <App />
      </RuntimeContext>
    </StrictMode>,
  );
}

/** Load the UI language's Intl data, the Markdown chunk and the settings schema while nothing else happens (util/format.ts, LazyMarkdown.tsx, settings-check.ts). */
function warmWhenIdle(): void {
  const language = i18next.language;
  const warm = () => {
    warmFormats(language);
    void preloadMarkdown();
    void preloadSettingsCheck();
  };
  // The browser mode's page may be opened in a browser without requestIdleCallback (Safari).
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(warm, { timeout: 2000 });
  else setTimeout(warm, 1000);
}

void start();

// The app shell: a skip link, the sidebar (folded away behind a Menu button in a narrow window),
// the main pane (chat, history or settings), the connection strip, the notices and a resolute://
// link's question — or, when the browser-mode server refused the page's token,
// only what to do about it. Rendered once by main.tsx inside the runtime and i18n providers.
import { useRef, useState, type Dispatch, type MouseEvent, type SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppState } from '../store/app-store';
import type { FocusTarget } from '../store/state';
import { useFocusRequest } from '../util/use-focus-target';
import { ChatView } from './chat/ChatView';
import { HistoryView } from './history/HistoryView';
import { SettingsView } from './settings/SettingsView';
import { ConnectionStatus } from './shell/ConnectionStatus';
import { NoticeList } from './shell/NoticeList';
import { RetryBanner } from '../retry/RetryBanner';
import { CommandPalette } from '../commands/CommandPalette';
import { Sidebar } from './shell/Sidebar';
import { TokenNeeded } from './shell/TokenNeeded';
import { LinkDialog } from './shell/LinkDialog';

export function App() {
  const { t } = useTranslation();
  const view = useAppState((s) => s.ui.view);
  const main = useRef<HTMLElement>(null);
  const refused = useAppState((s) => s.ui.connection === 'unauthorized');
  // A narrow window (≤ 800 px) folds the sidebar away: a button opens it over the pane, and going
  // somewhere from it (a view, a session, New chat) or Esc folds it again.
  const [isSidebarOpen, setIsSidebarOpen] = useState(false);
  // Ctrl/⌘+. (the 'sidebar' request): a wide window hides or shows it, a narrow one opens or folds it.
  const [isSidebarHidden, setIsSidebarHidden] = useState(false);
  useFocusRequest(isSidebarRequest, toggleSidebar(setIsSidebarOpen, setIsSidebarHidden));
  const foldAfterChoice = (event: MouseEvent): void => {
    if ((event.target as Element).closest('.nav-button, .new-chat, .sidebar-session')) setIsSidebarOpen(false);
  };
  if (refused) return <TokenNeeded />;
  return (
    <div
      className={`app${isSidebarOpen ? ' sidebar-open' : ''}${isSidebarHidden ? ' sidebar-hidden' : ''}`}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && isSidebarOpen) setIsSidebarOpen(false);
      }}
    >
      <a
        href="#main"
        className="skip-link"
        data-testid="skip-link"
        onClick={(event) => {
          // Focus moves without changing the address (the browser mode's URL carries its token).
          event.preventDefault();
          main.current?.focus();
        }}
      >
        {t('app.skipLink')}
      </a>
      <div className="sidebar-frame" id="sidebar" data-testid="sidebar" onClick={foldAfterChoice}>
        <Sidebar />
      </div>
      <main className="main" id="main" ref={main} tabIndex={-1}>
        <button
          type="button"
          className="button button-small sidebar-toggle"
          data-testid="sidebar-toggle"
          aria-controls="sidebar"
          aria-expanded={isSidebarOpen}
          onClick={() => setIsSidebarOpen((open) => !open)}
        >
          {/* An icon of one width in every language, so the header leaves it a fixed room. */}
          <span aria-hidden="true">☰</span>
          <span className="visually-hidden">{t('nav.menu')}</span>
        </button>
        <ConnectionStatus />
        <NoticeList />
        {/* The chat places the banner above its composer; elsewhere it sits on top of the pane. */}
        {view !== 'chat' && <RetryBanner />}
        {view === 'chat' && <ChatView />}
        {view === 'history' && <HistoryView />}
        {view === 'settings' && <SettingsView />}
      </main>
      <CommandPalette />
      <LinkDialog />
    </div>
  );
}

const isSidebarRequest = (target: FocusTarget): boolean => target === 'sidebar';
const NARROW = '(max-width: 800px)';

type Flag = Dispatch<SetStateAction<boolean>>;
const toggleSidebar = (setOpen: Flag, setHidden: Flag) => (): void => {
  if (window.matchMedia(NARROW).matches) setOpen((open) => !open);
  else setHidden((hidden) => !hidden);
};

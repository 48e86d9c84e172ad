// The app shell: a skip link, the sidebar, the main pane (chat, history or settings), the
// connection strip and the notices — or, when the browser-mode server refused the page's token,
// only what to do about it. Rendered once by main.tsx inside the runtime and i18n providers.
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppState } from '../store/app-store';
import { ChatView } from './chat/ChatView';
import { HistoryView } from './history/HistoryView';
import { SettingsView } from './settings/SettingsView';
import { ConnectionStatus } from './shell/ConnectionStatus';
import { NoticeList } from './shell/NoticeList';
import { RetryBanner } from './RetryBanner';
import { Sidebar } from './shell/Sidebar';
import { TokenNeeded } from './shell/TokenNeeded';

export function App() {
  const { t } = useTranslation();
  const view = useAppState((s) => s.ui.view);
  const main = useRef<HTMLElement>(null);
  const refused = useAppState((s) => s.ui.connection === 'unauthorized');
  if (refused) return <TokenNeeded />;
  return (
    <div className="app">
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
      <Sidebar />
      <main className="main" id="main" ref={main} tabIndex={-1}>
        <ConnectionStatus />
        <NoticeList />
        {/* The chat places the banner above its composer; elsewhere it sits on top of the pane. */}
        {view !== 'chat' && <RetryBanner />}
        {view === 'chat' && <ChatView />}
        {view === 'history' && <HistoryView />}
        {view === 'settings' && <SettingsView />}
      </main>
    </div>
  );
}

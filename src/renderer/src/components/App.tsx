// The app shell: sidebar + main pane (chat, history or settings), the connection strip and the
// notices. Rendered once by main.tsx inside the runtime and i18n providers.
import { useAppState } from '../store/app-store';
import { ChatView } from './chat/ChatView';
import { HistoryView } from './history/HistoryView';
import { SettingsView } from './settings/SettingsView';
import { ConnectionStatus } from './shell/ConnectionStatus';
import { NoticeList } from './shell/NoticeList';
import { RetryBanner } from './RetryBanner';
import { Sidebar } from './shell/Sidebar';

export function App() {
  const view = useAppState((s) => s.ui.view);
  return (
    <div className="app">
      <Sidebar />
      <main className="main">
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

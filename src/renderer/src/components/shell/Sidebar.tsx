// The app's sidebar: New chat, the views (Chat, History, Settings) and the recent sessions from
// history.list, each with what it is doing (a chat left while it works runs on; docs/architecture.md,
// "Chats side by side"). The session list is one Tab stop (SessionList: arrow keys inside, F2
// renames, Delete deletes).
import { useTranslation } from 'react-i18next';
import { useActions, useAppState } from '../../store/app-store';
import type { ViewName } from '../../store/state';
import { SessionList } from './SessionList';

export function Sidebar() {
  const { t } = useTranslation();
  const actions = useActions();
  const view = useAppState((s) => s.ui.view);

  const navButton = (name: ViewName, label: string) => (
    <button
      type="button"
      className="nav-button"
      data-testid={`nav-${name}`}
      aria-current={view === name ? 'page' : undefined}
      onClick={() => actions.showView(name)}
    >
      {label}
    </button>
  );

  return (
    <nav className="sidebar" aria-label={t('nav.label')}>
      <div className="sidebar-brand">{t('app.name')}</div>
      <button
        type="button"
        className="button button-primary new-chat"
        data-testid="new-chat"
        onClick={() => void actions.newChat()}
      >
        {t('nav.newChat')}
      </button>
      <div className="nav-group">
        {navButton('chat', t('nav.chat'))}
        {navButton('history', t('nav.history'))}
        {navButton('settings', t('nav.settings'))}
      </div>
      <h2 className="sidebar-heading" id="sidebar-sessions">
        {t('nav.sessions')}
      </h2>
      <SessionList />
    </nav>
  );
}

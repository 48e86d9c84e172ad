// The app's sidebar: New chat, the views (Chat, History, Settings) and the recent sessions from
// history.list. While a turn runs, switching chats is refused and the sidebar says why (with
// Stop). The session list is one Tab stop (SessionList: arrow keys inside, F2 renames, Delete deletes).
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
      <SwitchRefused />
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

/** Why New chat or another session did nothing: a turn runs here. Stop it, or wait. */
function SwitchRefused() {
  const { t } = useTranslation();
  const actions = useActions();
  const isRefused = useAppState((s) => s.ui.isSwitchRefused);
  if (!isRefused) return null;
  return (
    <div className="switch-refused" role="alert" data-testid="switch-refused">
      <p>{t('nav.switchRefused')}</p>
      <div className="switch-refused-actions">
        <button
          type="button"
          className="button button-small button-danger"
          data-testid="switch-refused-stop"
          onClick={() => {
            actions.dismissSwitchRefused();
            void actions.abort().then(() => actions.requestFocus('session-list'));
          }}
        >
          {t('nav.stopTurn')}
        </button>
        <button
          type="button"
          className="button button-small"
          data-testid="switch-refused-dismiss"
          onClick={() => {
            actions.dismissSwitchRefused();
            actions.requestFocus('session-list');
          }}
        >
          {t('nav.dismiss')}
        </button>
      </div>
    </div>
  );
}

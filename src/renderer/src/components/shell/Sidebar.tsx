// The app's sidebar: New chat, the views (Chat, History, Settings) and the recent sessions from
// history.list (a link each: opening one resumes it in the chat).
import { useTranslation } from 'react-i18next';
import { useActions, useAppState } from '../../store/app-store';
import type { ViewName } from '../../store/state';

const RECENT_SESSIONS = 30;

export function Sidebar() {
  const { t } = useTranslation();
  const actions = useActions();
  const view = useAppState((s) => s.ui.view);
  const sessions = useAppState((s) => s.history.sessions);
  const currentId = useAppState((s) => s.session.sessionId);

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
      {sessions.length === 0 ? (
        <p className="sidebar-empty">{t('nav.noSessions')}</p>
      ) : (
        <ul className="sidebar-sessions" aria-labelledby="sidebar-sessions">
          {sessions.slice(0, RECENT_SESSIONS).map((session) => (
            <li key={session.id}>
              <a
                href={`#session-${session.id}`}
                className="sidebar-session"
                data-testid="sidebar-session"
                aria-current={session.id === currentId ? 'true' : undefined}
                onClick={(event) => {
                  event.preventDefault();
                  void actions.resume(session.id);
                }}
              >
                <span className="sidebar-session-title">{session.title || t('nav.untitled')}</span>
                {session.erroredTurnCount > 0 && (
                  <span className="badge badge-error" aria-hidden="true">
                    {session.erroredTurnCount}
                  </span>
                )}
              </a>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}

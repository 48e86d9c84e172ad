// The history's session list: date, title (a link that opens the session read-only), turn count,
// the session's tokens and cost (every stored turn's) and an errored-turn badge. Reads the list the
// store keeps fresh (history.list).
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useActions, useAppState } from '../../store/app-store';
import { formatDateTime } from '../../util/format';
import { shortTokens } from '../../chat/context-usage';
import { costText } from '../../chat/session-cost-text';

export function SessionTable({ onOpen }: { onOpen: (sessionId: string) => void }) {
  const { t, i18n } = useTranslation();
  const actions = useActions();
  const sessions = useAppState((s) => s.history.sessions);
  useEffect(() => {
    void actions.refreshHistory();
  }, [actions]);

  if (sessions.length === 0) return <p className="pane-empty">{t('history.empty')}</p>;
  return (
    <table className="history-table" data-testid="history-sessions">
      <thead>
        <tr>
          <th scope="col">{t('history.column.date')}</th>
          <th scope="col">{t('history.column.title')}</th>
          <th scope="col">{t('history.column.turns')}</th>
          <th scope="col">{t('history.column.usage')}</th>
          <th scope="col">{t('history.column.errors')}</th>
        </tr>
      </thead>
      <tbody>
        {sessions.map((session) => {
          const title = session.title || t('nav.untitled');
          return (
            <tr key={session.id} data-testid="history-session-row" data-session-id={session.id}>
              <td className="nowrap">{formatDateTime(session.updatedAt, i18n.language)}</td>
              <td>
                <a
                  href={`#history-${session.id}`}
                  className="link"
                  data-testid="history-open"
                  onClick={(event) => {
                    event.preventDefault();
                    onOpen(session.id);
                  }}
                >
                  {title}
                </a>
              </td>
              <td className="nowrap">{t('history.turns', { count: session.turnCount })}</td>
              <td className="nowrap" data-testid="history-session-usage">
                {session.usage
                  ? t('history.usage', {
                      tokens: shortTokens(session.usage.tokens, i18n.language),
                      cost: costText(session.usage, t, i18n.language),
                    })
                  : ''}
              </td>
              <td>
                {session.erroredTurnCount > 0 && (
                  <span className="badge badge-error" data-testid="history-errored-badge">
                    {t('history.erroredBadge', { count: session.erroredTurnCount })}
                  </span>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

// "Errored turns only": one card per retry chain across sessions (history.erroredTurns), the same
// card the chat shows, with its whole timeline open and a link to its session.
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { erroredTurnItem } from '../../chat/chat-items';
import { useActions, useAppState } from '../../store/app-store';
import { formatDateTime } from '../../util/format';
import { useLoader } from '../../util/use-loader';
import { ErroredChainCard } from '../chat/ErroredChainCard';

/** The newest errored turns the list shows. */
const ERRORED_TURNS_LIMIT = 200;

export function ErroredTurnList({ onOpen }: { onOpen: (sessionId: string) => void }) {
  const { t, i18n } = useTranslation();
  const actions = useActions();
  const revision = useAppState((s) => s.history.revision);
  const { data, isLoading } = useLoader(
    () => actions.call('history.erroredTurns', { limit: ERRORED_TURNS_LIMIT }),
    [revision],
  );
  const entries = useMemo(() => (data ?? []).map((entry) => ({ entry, item: erroredTurnItem(entry) })), [data]);

  if (!data) return <p className="pane-empty">{isLoading ? t('history.loading') : t('history.noErrored')}</p>;
  if (data.length === 0) return <p className="pane-empty">{t('history.noErrored')}</p>;
  return (
    <ul className="errored-list">
      {entries.map(({ entry, item }) => (
        <li key={entry.turn.id} className="errored-entry" data-testid="history-errored-turn">
          <p className="errored-where">
            <span className="muted">{formatDateTime(entry.turn.createdAt, i18n.language)}</span>{' '}
            <a
              href={`#history-${entry.session.id}`}
              className="link"
              onClick={(event) => {
                event.preventDefault();
                onOpen(entry.session.id);
              }}
            >
              {t('history.inSession', { title: entry.session.title || t('nav.untitled') })}
            </a>
          </p>
          <ul className="transcript-list">
            <li className="transcript-row">
              <ErroredChainCard item={item} isExpanded />
            </li>
          </ul>
        </li>
      ))}
    </ul>
  );
}

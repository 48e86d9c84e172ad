// Search hits across all sessions (history.search): the session, the role and a snippet with the
// matched words highlighted; a hit opens its session read-only.
import { useTranslation } from 'react-i18next';
import { snippetParts } from '../../../../shared/history';
import { useActions, useAppState } from '../../store/app-store';
import { formatDateTime } from '../../util/format';
import { useLoader } from '../../util/use-loader';

/** The most hits a search shows. */
const SEARCH_LIMIT = 100;

export function SearchResults({ query, onOpen }: { query: string; onOpen: (sessionId: string) => void }) {
  const { t, i18n } = useTranslation();
  const actions = useActions();
  const revision = useAppState((s) => s.history.revision);
  const { data, isLoading } = useLoader(
    () => actions.call('history.search', { query, limit: SEARCH_LIMIT }),
    [query, revision],
  );

  if (!data || data.length === 0) {
    return <p className="pane-empty">{isLoading ? t('history.loading') : t('history.noResults')}</p>;
  }
  return (
    <ul className="search-results" data-testid="history-search-results">
      {data.map((hit) => (
        <li key={hit.turnId} className="search-hit" data-testid="history-search-hit">
          <a
            href={`#history-${hit.sessionId}`}
            className="link"
            onClick={(event) => {
              event.preventDefault();
              onOpen(hit.sessionId);
            }}
          >
            {hit.sessionTitle || t('nav.untitled')}
          </a>
          <span className="muted">
            {hit.role === 'user' ? t('chat.you') : t('chat.assistant')} · {formatDateTime(hit.createdAt, i18n.language)}
          </span>
          <p className="search-snippet">
            {snippetParts(hit.snippet).map((part, i) =>
              part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>,
            )}
          </p>
        </li>
      ))}
    </ul>
  );
}

// The History view: a search box (history.search; Ctrl/Cmd+K comes here), an "Errored turns only"
// toggle (history.erroredTurns), what failures cost over a period, and the session list; opening a
// session shows it read-only with focus on its heading, and Back returns focus to the search box.
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useActions } from '../../store/app-store';
import { useFocusTarget } from '../../util/use-focus-target';
import { ErroredTurnList } from './ErroredTurnList';
import { FailureCostPanel } from './FailureCostPanel';
import { SearchResults } from './SearchResults';
import { SessionDetailView } from './SessionDetailView';
import { SessionTable } from './SessionTable';

/** Pause after typing before a search runs, ms. */
const SEARCH_PAUSE_MS = 300;

export function HistoryView() {
  const { t } = useTranslation();
  const id = useId();
  const [openSessionId, setOpenSessionId] = useState<string | null>(null);
  // A stored session's transcript scrolls with the pane (its header goes away as the reader reads on).
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  const [isErroredOnly, setIsErroredOnly] = useState(false);
  const [draft, setDraft] = useState('');
  const [query, setQuery] = useState('');
  const actions = useActions();
  const searchRef = useFocusTarget<HTMLInputElement>('history-search');
  const open = (sessionId: string | null): void => {
    setOpenSessionId(sessionId);
    actions.requestFocus(sessionId ? 'history-detail' : 'history-search');
  };

  useEffect(() => {
    const timer = setTimeout(() => setQuery(draft.trim()), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [draft]);

  const body = openSessionId ? (
    <SessionDetailView sessionId={openSessionId} scrollParent={scroller} onBack={() => open(null)} />
  ) : query ? (
    <SearchResults query={query} onOpen={open} />
  ) : isErroredOnly ? (
    <ErroredTurnList onOpen={open} />
  ) : (
    <>
      <SessionTable onOpen={open} />
      <FailureCostPanel onOpen={open} />
    </>
  );

  return (
    <section className="history" aria-label={t('history.title')}>
      <header className="pane-header">
        <h1 className="pane-title">{t('history.title')}</h1>
      </header>
      <form
        className="history-toolbar"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setQuery(draft.trim());
        }}
      >
        <label htmlFor={`${id}-search`} className="visually-hidden">
          {t('history.search')}
        </label>
        <input
          id={`${id}-search`}
          className="input"
          type="search"
          data-testid="history-search"
          placeholder={t('history.searchPlaceholder')}
          ref={searchRef}
          value={draft}
          onChange={(event) => {
            setDraft(event.target.value);
            setOpenSessionId(null);
          }}
        />
        <label className="toggle">
          <input
            type="checkbox"
            data-testid="history-errored-only"
            checked={isErroredOnly}
            onChange={(event) => setIsErroredOnly(event.target.checked)}
          />
          {t('history.erroredOnly')}
        </label>
      </form>
      <div className="pane-scroll" ref={setScroller}>
        {body}
      </div>
    </section>
  );
}

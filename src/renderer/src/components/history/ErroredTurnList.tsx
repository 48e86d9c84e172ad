// "Errored turns only": every errored turn across sessions (history.erroredTurns) with its error,
// category and retry timeline (attempts, waits, errors, decisions, outcome).
import { useTranslation } from 'react-i18next';
import { useActions, useAppState } from '../../store/app-store';
import { formatDateTime } from '../../util/format';
import { useLoader } from '../../util/use-loader';
import { FailureCostLine } from '../chat/FailureCostLine';
import { RetryTimeline } from '../chat/RetryTimeline';

export function ErroredTurnList({ onOpen }: { onOpen: (sessionId: string) => void }) {
  const { t, i18n } = useTranslation();
  const actions = useActions();
  const revision = useAppState((s) => s.history.revision);
  const { data, isLoading } = useLoader(() => actions.erroredTurns(), [revision]);

  if (!data) return <p className="pane-empty">{isLoading ? t('history.loading') : t('history.noErrored')}</p>;
  if (data.length === 0) return <p className="pane-empty">{t('history.noErrored')}</p>;
  return (
    <ul className="errored-list">
      {data.map(({ turn, session, chain, decisions }) => (
        <li
          key={turn.id}
          className="errored-card"
          data-testid="history-errored-turn"
          data-category={turn.errorCategory ?? undefined}
        >
          <div className="errored-head">
            <span className="errored-icon" aria-hidden="true">
              !
            </span>
            <span className="badge badge-error">
              {turn.errorCategory ? t(`category.${turn.errorCategory}`) : t('errored.unknownCategory')}
            </span>
            <span className="muted">{formatDateTime(turn.createdAt, i18n.language)}</span>
            <a
              href={`#history-${session.id}`}
              className="link"
              onClick={(event) => {
                event.preventDefault();
                onOpen(session.id);
              }}
            >
              {t('history.inSession', { title: session.title || t('nav.untitled') })}
            </a>
          </div>
          <p className="errored-message">{turn.errorMessage}</p>
          <FailureCostLine attempts={[turn]} />
          <h3 className="timeline-title">{t('history.timeline')}</h3>
          <RetryTimeline
            decisions={decisions}
            chain={chain && { outcome: chain.outcome, attempts: chain.attempts, finalError: chain.finalError }}
          />
        </li>
      ))}
    </ul>
  );
}

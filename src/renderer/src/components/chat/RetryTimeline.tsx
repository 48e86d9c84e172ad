// The retry timeline of one errored turn or chain: each failed attempt with its category, error
// text and the decision taken (retry after a wait, stop, compact), then the chain's outcome.
// Used inside the chat's errored card and in the history view.
import { useTranslation } from 'react-i18next';
import type { RetryDecisionRecord } from '../../../../shared/history';
import type { ErroredAttempt } from '../../chat/chat-items';
import type { ChainView } from '../../store/state';
import { formatSeconds } from '../../util/format';

interface RetryTimelineProps {
  decisions: RetryDecisionRecord[];
  /** Shown when no decision was recorded (e.g. a chain still in flight). */
  attempts?: ErroredAttempt[];
  chain: ChainView | null;
}

/** The final error adds nothing to "recovered" or "cancelled" (it reads "Retry cancelled"). */
function showsFinalError(outcome: ChainView['outcome']): boolean {
  return outcome !== 'recovered' && outcome !== 'cancelled';
}

export function RetryTimeline({ decisions, attempts = [], chain }: RetryTimelineProps) {
  const { t } = useTranslation();
  return (
    <div className="timeline" data-testid="retry-timeline">
      {decisions.length > 0 ? (
        <ol className="timeline-list">
          {decisions.map((d) => (
            <li key={d.id} className="timeline-entry" data-testid="timeline-entry" data-action={d.action}>
              <span className="timeline-attempt">{t('errored.attempt', { n: d.attempt })}</span>
              <span className="badge">{t(`category.${d.category}`)}</span>
              {d.errorMessage && <span className="timeline-error">{d.errorMessage}</span>}
              <span className="timeline-decision">
                {d.finalDecision === 'success'
                  ? t('errored.succeeded')
                  : t(`decisionAction.${d.action}`, { seconds: formatSeconds(d.waitSeconds) })}
              </span>
            </li>
          ))}
        </ol>
      ) : attempts.length > 0 ? (
        <ol className="timeline-list">
          {attempts.map((a, i) => (
            <li key={a.key} className="timeline-entry" data-testid="timeline-entry">
              <span className="timeline-attempt">{t('errored.attempt', { n: i + 1 })}</span>
              <span className="badge">{a.category ? t(`category.${a.category}`) : t('errored.unknownCategory')}</span>
              <span className="timeline-error">{a.errorMessage}</span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="timeline-empty">{t('history.noDecisions')}</p>
      )}
      {chain && (
        <p className="timeline-outcome" data-testid="timeline-outcome" data-outcome={chain.outcome}>
          {t('history.outcomeLabel', { outcome: t(`outcome.${chain.outcome}`, { count: chain.attempts }) })}
          {chain.finalError && showsFinalError(chain.outcome) ? ` — ${chain.finalError}` : ''}
        </p>
      )}
    </div>
  );
}

// The retry timeline of one chain: the first try and each retry with its category, error text and
// the decision taken (retry after a wait, stop, compact), then the chain's outcome. A chain can
// change category mid-way, so every entry names its own; the attempt that succeeded carries no
// error badge, and each failed attempt shows the start of what it had streamed. Used inside the
// chat's cards and in the history view.
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { RetryDecisionRecord } from '../../../../shared/history';
import type { ErroredAttempt } from '../../chat/chat-items';
import type { ChainView } from '../../store/state';
import { formatWait } from '../../retry/scheduled-time';
import { attemptLabels } from '../../chat/timeline-labels';
import { partialSnippet } from './PartialReplyView';

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
  // Attempt 1 is the first try; attempt n + 1 is retry n (decision records count attempts from 1).
  const label = (attempt: number) => (attempt <= 1 ? t('errored.firstTry') : t('errored.retryN', { n: attempt - 1 }));
  const labels = attemptLabels(t, decisions);
  return (
    <div className="timeline" data-testid="retry-timeline">
      {decisions.length > 0 ? (
        <ol className="timeline-list">
          {decisions.map((d, i) =>
            d.finalDecision === 'success' ? (
              <li
                key={d.id}
                className="timeline-entry timeline-success"
                data-testid="timeline-entry"
                data-action="success"
              >
                <span className="timeline-attempt">{labels[i]}</span>
                <span className="timeline-decision">{t('errored.succeeded')}</span>
              </li>
            ) : (
              <li key={d.id} className="timeline-entry" data-testid="timeline-entry" data-action={d.action}>
                <span className="timeline-attempt">{labels[i]}</span>
                <span className="badge">{t(`category.${d.category}`)}</span>
                {d.errorMessage && <span className="timeline-error">{d.errorMessage}</span>}
                <AttemptWords attempt={attempts.find((a) => a.key === d.context.turnId)} />
                <span className="timeline-decision">
                  {t(`decisionAction.${d.action}`, { wait: formatWait(t, d.waitSeconds) })}
                </span>
              </li>
            ),
          )}
        </ol>
      ) : attempts.length > 0 ? (
        <ol className="timeline-list">
          {attempts.map((a, i) => (
            <li key={a.key} className="timeline-entry" data-testid="timeline-entry">
              <span className="timeline-attempt">{label(i + 1)}</span>
              <span className="badge">{a.category ? t(`category.${a.category}`) : t('errored.unknownCategory')}</span>
              <span className="timeline-error">{a.errorMessage}</span>
              <AttemptWords attempt={a} />
            </li>
          ))}
        </ol>
      ) : (
        <p className="timeline-empty">{t('history.noDecisions')}</p>
      )}
      {chain && chain.outcome !== 'pending' && (
        <p className="timeline-outcome" data-testid="timeline-outcome" data-outcome={chain.outcome}>
          {t('history.outcomeLabel', { outcome: outcomeText(t, chain, attempts.length) })}
          {chain.finalError && showsFinalError(chain.outcome) ? ` — ${chain.finalError}` : ''}
        </p>
      )}
    </div>
  );
}

/** What the attempt had streamed before it failed, on one line (docs/retry-policy.md, "Nothing streamed is lost"). */
function AttemptWords({ attempt }: { attempt: ErroredAttempt | undefined }) {
  const words = partialSnippet(attempt?.partial ?? null);
  return words ? (
    <q className="timeline-partial" data-testid="timeline-partial">
      {words}
    </q>
  ) : null;
}

function outcomeText(t: TFunction, chain: ChainView, failed: number): string {
  if (chain.outcome === 'recovered') return t('outcome.recovered', { count: failed });
  if (chain.outcome === 'exhausted') return t('outcome.exhausted', { count: Math.max(0, failed - 1) });
  return t(`outcome.${chain.outcome}`);
}

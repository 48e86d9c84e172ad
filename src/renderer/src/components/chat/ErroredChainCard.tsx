// ONE compact card per retry chain: the latest error, its category, how many attempts failed and
// what the app decided (retrying, recovered, gave up, cancelled, not retried), with the attempts
// behind a disclosure. Shared by the chat and the read-only history transcript.
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { chainVerdict, latestAttempt, type ErroredChainItem } from '../../chat/chat-items';
import { formatSeconds } from '../../util/format';
import { FailureCostLine } from './FailureCostLine';
import { RetryTimeline } from './RetryTimeline';

export function ErroredChainCard({ item, isExpanded = false }: { item: ErroredChainItem; isExpanded?: boolean }) {
  const { t } = useTranslation();
  const latest = latestAttempt(item);
  const verdict = verdictText(t, item);
  const hasDetails = item.attempts.length > 1 || item.decisions.length > 0;
  return (
    <li
      className="errored-card"
      data-testid="errored-turn-card"
      data-chain-id={item.chainId ?? undefined}
      data-category={latest.category ?? undefined}
      data-outcome={item.chain?.outcome}
    >
      <div className="errored-head">
        <span className="errored-icon" aria-hidden="true">
          !
        </span>
        <span className="errored-title">{t('errored.title')}</span>
        <span className="badge badge-error" data-testid="errored-category">
          {latest.category ? t(`category.${latest.category}`) : t('errored.unknownCategory')}
        </span>
        {item.attempts.length > 1 && (
          <span className="errored-count">{t('errored.attempts', { count: item.attempts.length })}</span>
        )}
      </div>
      <p className="errored-message" data-testid="errored-message">
        {latest.errorMessage}
      </p>
      {verdict && (
        <p className="errored-decision" data-testid="errored-decision">
          <span className="errored-decision-label">{t('errored.decision')}: </span>
          {verdict}
        </p>
      )}
      <FailureCostLine attempts={item.attempts} />
      {hasDetails && (
        <details className="errored-details" open={isExpanded}>
          <summary>{t('errored.showAttempts')}</summary>
          <RetryTimeline decisions={item.decisions} attempts={item.attempts} chain={item.chain} />
        </details>
      )}
    </li>
  );
}

function verdictText(t: TFunction, item: ErroredChainItem): string {
  const verdict = chainVerdict(item);
  switch (verdict.kind) {
    case 'outcome':
      return t(`outcome.${verdict.outcome}`, { count: verdict.attempts });
    case 'decision': {
      const { action, waitSeconds, reason } = verdict.decision;
      const text = t(`decisionAction.${action}`, { seconds: formatSeconds(waitSeconds) });
      // For a stop, the main process's reason ("auto-retry is turned off") is the useful part.
      return action !== 'retry' && reason ? `${text} — ${reason}` : text;
    }
    case 'unknown':
      // Without a chain the turn was never retried; with one, its outcome has not arrived yet.
      return item.chainId ? '' : t('errored.notRetried');
  }
}

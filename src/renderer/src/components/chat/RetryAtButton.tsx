// "Retry at 14:05" on a failed chain's card (docs/retry-policy.md, "Scheduled retries"): a chain
// that stopped because the provider's wait was above the maximum delay (and within 24 h) can be
// scheduled for the time the provider named, in one click. An entry of MESSAGE_ACTIONS.
import { useTranslation } from 'react-i18next';
import type { ErroredChainItem } from '../../chat/chat-items';
import { formatClockTime } from '../../retry/scheduled-time';
import { useActions } from '../../store/app-store';
import { useNow } from '../../util/use-now';

/** The time the provider named when the chain stopped for a wait above the maximum delay (up to 24 h). */
export function namedRetryTime(item: ErroredChainItem): number | undefined {
  if (item.chain?.outcome !== 'exhausted') return undefined;
  const last = item.decisions.at(-1);
  return last?.finalDecision === 'abort' ? last.retryAt : undefined;
}

/** "Retry at 14:05": schedules this chain's retry for the time the provider named; gone once it passed. */
export function RetryAtButton({ chainId, at }: { chainId: string; at: number }) {
  const { t, i18n } = useTranslation();
  const actions = useActions();
  const now = useNow(15_000);
  if (at <= now) return null;
  const time = formatClockTime(at, now, i18n.language);
  return (
    <button
      type="button"
      className="button button-small"
      data-testid="card-retry-at"
      aria-label={t('errored.retryAtLabel', { time })}
      onClick={() =>
        void actions.call('session.scheduleRetry', { chainId }).then(() => actions.requestFocus('composer'))
      }
    >
      {t('errored.retryAt', { time })}
    </button>
  );
}

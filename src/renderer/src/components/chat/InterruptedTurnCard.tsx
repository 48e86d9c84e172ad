// The interrupted-turn card (docs/retry-policy.md, "Resume after a restart"): a retry chain that a
// quit or a crash cut is offered again on the next start — "Retry now" continues the same chain
// with its counter, "Discard" gives it up for good. A row of the chat's list, after that chain's card.
import { useTranslation } from 'react-i18next';
import type { InterruptedRetry } from '../../../../shared/events';
import { useActions } from '../../store/app-store';

export function InterruptedTurnCard({ offer }: { offer: InterruptedRetry }) {
  const { t } = useTranslation();
  const actions = useActions();
  return (
    <div className="chat-aid">
      <div
        className="retry-banner interrupted-card"
        role="status"
        data-testid="interrupted-card"
        data-chain-id={offer.chainId}
      >
        <p className="interrupted-text" data-testid="interrupted-text">
          {t('interrupted.text', { attempt: offer.attempt, maxAttempts: offer.maxAttempts, error: offer.errorMessage })}
        </p>
        <div className="interrupted-actions">
          <button
            type="button"
            className="button button-primary"
            data-testid="interrupted-retry"
            onClick={() => void actions.call('session.resumeInterrupted', { chainId: offer.chainId })}
          >
            {t('interrupted.retryNow')}
          </button>
          <button
            type="button"
            className="button"
            data-testid="interrupted-discard"
            onClick={() => void actions.call('session.discardInterrupted', { chainId: offer.chainId })}
          >
            {t('interrupted.discard')}
          </button>
        </div>
      </div>
    </div>
  );
}

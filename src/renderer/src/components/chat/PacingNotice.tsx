// Rate-limit pacing (docs/retry-policy.md, "Rate-limit pacing"): while a prompt waits for the
// provider's rate limit to reset, "Waiting 12 s for the rate limit to reset" counts down with
// "Send anyway"; Stop in the composer gives the text and the files back unsent. The last row of the chat's list.
import { useTranslation } from 'react-i18next';
import type { PacingWait } from '../../../../shared/events';
import { useCountdown } from '../../retry/countdown';
import { useActions } from '../../store/app-store';

export function PacingNotice({ pacing }: { pacing: PacingWait }) {
  const { t } = useTranslation();
  const actions = useActions();
  const seconds = useCountdown(pacing.until);
  return (
    <div className="chat-aid">
      <div className="retry-banner pacing-notice" role="status" aria-live="polite" data-testid="pacing-notice">
        <span className="pacing-text" data-testid="pacing-text">
          {seconds > 0 ? t('pacing.waiting', { seconds }) : t('pacing.sending')}
        </span>
        <button
          type="button"
          className="button"
          data-testid="pacing-send-anyway"
          onClick={() => void actions.call('session.sendAnyway', {})}
        >
          {t('pacing.sendAnyway')}
        </button>
      </div>
    </div>
  );
}

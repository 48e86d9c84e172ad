// Rate-limit pacing (docs/retry-policy.md, "Rate-limit pacing"): while a prompt waits for the
// provider's rate limit to reset, "Waiting 12 s for the rate limit to reset" counts down with
// "Send anyway"; Stop in the composer gives the text and the files back unsent. A wait of a minute or
// more says the clock time it ends and what is left, and a usage limit says so (retry/pacing-text.ts).
// The last row of the chat's list.
import { useTranslation } from 'react-i18next';
import type { PacingWait } from '../../../../shared/events';
import { useCountdown } from '../../retry/RetryBanner';
import { pacingText } from '../../retry/pacing-text';
import { useActions } from '../../store/app-store';

export function PacingNotice({ pacing }: { pacing: PacingWait }) {
  const { t, i18n } = useTranslation();
  const actions = useActions();
  const seconds = useCountdown(pacing.until);
  const text = pacingText(t, i18n.language, pacing, seconds);
  return (
    <div className="chat-aid">
      <div className="retry-banner pacing-notice" role="status" aria-live="polite" data-testid="pacing-notice">
        <span className="pacing-text" data-testid="pacing-text">
          {text}
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

// The retry banner (docs/retry-policy.md, "The banner"): while a retry waits it counts down to
// `retryAt` with Cancel and Retry now; a failed chain leaves "Retry failed after N attempts: …"
// until dismissed. The live region stays mounted (hidden when idle) so screen readers announce the
// first message too.
import { useTranslation } from 'react-i18next';
import { useActions, useAppState } from '../store/app-store';
import type { RetryBannerState } from '../store/state';
import { useCountdown } from '../retry/use-countdown';

export function RetryBanner() {
  const banner = useAppState((s) => s.retry.banner);
  return (
    <div
      className={`retry-banner retry-banner-${banner?.kind ?? 'idle'}`}
      role="status"
      aria-live="polite"
      data-testid="retry-banner"
      hidden={!banner}
    >
      {banner?.kind === 'pending' && <PendingRetry key={`${banner.chainId}:${banner.attempt}`} banner={banner} />}
      {banner?.kind === 'failed' && <FailedRetry banner={banner} />}
    </div>
  );
}

function PendingRetry({ banner }: { banner: Extract<RetryBannerState, { kind: 'pending' }> }) {
  const { t } = useTranslation();
  const actions = useActions();
  const seconds = useCountdown(banner.retryAt);
  const values = { attempt: banner.attempt, maxAttempts: banner.maxAttempts, seconds };
  // At 0 the retry is going out: it can no longer be cancelled (Stop still stops the request).
  const firing = banner.delayMs === 0 || seconds === 0;
  const text = firing ? t('retry.now', values) : t('retry.countdown', values);
  return (
    <>
      <div className="retry-banner-body">
        <span className="retry-banner-text" data-testid="retry-banner-text">
          {text}
        </span>
        <span className="retry-banner-cause">
          {t('retry.cause', { category: t(`category.${banner.category}`), message: banner.errorMessage })}
        </span>
      </div>
      <div className="retry-banner-actions" hidden={firing}>
        <button type="button" className="button" data-testid="retry-now" onClick={() => void actions.retryNow()}>
          {t('retry.retryNow')}
        </button>
        <button
          type="button"
          className="button button-danger"
          aria-label={t('retry.cancelLabel')}
          data-testid="retry-cancel"
          onClick={() => void actions.abortRetry()}
        >
          {t('retry.cancel')}
        </button>
      </div>
    </>
  );
}

function FailedRetry({ banner }: { banner: Extract<RetryBannerState, { kind: 'failed' }> }) {
  const { t } = useTranslation();
  const actions = useActions();
  return (
    <>
      <div className="retry-banner-body">
        <span className="retry-banner-text" data-testid="retry-banner-text">
          {t('retry.failed', { attempt: banner.attempt, finalError: banner.finalError })}
        </span>
      </div>
      <div className="retry-banner-actions">
        <button type="button" className="button" data-testid="retry-dismiss" onClick={actions.dismissRetryBanner}>
          {t('retry.dismiss')}
        </button>
      </div>
    </>
  );
}

// The retry banner (docs/retry-policy.md, "The banner"): while a retry waits it counts down to
// `retryAt` with Cancel and Retry now — or, paused offline, says so without counting; a failed
// chain leaves "Retry failed after N attempts: …", a switch of model "Switched to …", until dismissed. The live region stays mounted (hidden when idle) so screen readers announce the
// first message too.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useActions, useAppState } from '../store/app-store';
import type { RetryBannerState } from '../store/state';
import { useCountdown } from '../retry/use-countdown';
import { ModelSwitchLine } from './retry/ModelSwitchNotice';

export function RetryBanner() {
  const banner = useAppState((s) => s.retry.banner);
  return (
    <div
      className={`retry-banner retry-banner-${banner?.kind ?? 'idle'}`}
      data-offline={banner?.kind === 'pending' && banner.offline ? 'true' : undefined}
      role="status"
      aria-live="polite"
      data-testid="retry-banner"
      hidden={!banner}
    >
      {banner?.kind === 'pending' && <PendingRetry key={`${banner.chainId}:${banner.attempt}`} banner={banner} />}
      {banner?.kind === 'failed' && <FailedRetry banner={banner} />}
      {banner?.kind === 'switched' && <DismissibleText text={<ModelSwitchLine switched={banner} />} />}
    </div>
  );
}

function PendingRetry({ banner }: { banner: Extract<RetryBannerState, { kind: 'pending' }> }) {
  const { t } = useTranslation();
  const actions = useActions();
  const seconds = useCountdown(banner.retryAt);
  const values = { attempt: banner.attempt, maxAttempts: banner.maxAttempts, seconds };
  // At 0 the retry is going out: it can no longer be cancelled (Stop still stops the request).
  // Paused offline, nothing counts down and the retry waits for the network (Cancel and Retry now work).
  const firing = !banner.offline && (banner.delayMs === 0 || seconds === 0);
  const text = banner.offline
    ? t('retry.offline', values)
    : firing
      ? t('retry.now', values)
      : t('retry.countdown', values);
  return (
    <>
      <div className="retry-banner-body">
        <span className="retry-banner-text" data-testid="retry-banner-text">
          {text}
        </span>
        {banner.switchedModel && <ModelSwitchLine switched={banner.switchedModel} />}
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
  return <DismissibleText text={t('retry.failed', { attempt: banner.attempt, finalError: banner.finalError })} />;
}

/** What a chain left behind (its failure, or the model it switched to), until Dismiss or the next prompt. */
function DismissibleText({ text }: { text: ReactNode }) {
  const { t } = useTranslation();
  const actions = useActions();
  return (
    <>
      <div className="retry-banner-body">
        <span className="retry-banner-text" data-testid="retry-banner-text">
          {text}
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

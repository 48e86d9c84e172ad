// The retry banner (docs/retry-policy.md, "The banner"): while a retry waits it counts down to
// `retryAt` with Cancel and Retry now — a scheduled one reads "Retrying at 14:05 (in 2 h 13 min)" — or, paused offline, says so without counting (offering a local fallback model at once); a chain that
// failed leaves "Retry failed after N retries: …" (or "Retry cancelled" after a cancel), a switch of
// model "Switched to …", until dismissed. The live region stays mounted (hidden when idle) so
// screen readers announce the first message too. After Cancel, Retry now or Dismiss, focus goes to
// the composer, never to the page body. Its countdown (useCountdown, also the rate-limit notice's)
// and whether the wait still offers Cancel (useRetryWaiting, which Composer reads) are at the end.
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useActions, useAppState } from '../store/app-store';
import type { RetryBannerState } from '../store/state';
import { scheduledText } from './scheduled-time';
import { ModelSwitchLine } from './ModelSwitchNotice';
import { OfflineContinueButton } from './OfflineContinue';

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

function PendingRetry({ banner }: { banner: PendingBanner }) {
  const { t, i18n } = useTranslation();
  const actions = useActions();
  const seconds = useCountdown(banner.retryAt);
  // A chain that changed category counts on with one counter against the new row's budget: say so.
  const changedCategory = useAppState((s) =>
    s.session.decisions.some((d) => d.chainId === banner.chainId && d.category !== banner.category),
  );
  const thenComposer = (run: Promise<unknown>) => void run.then(() => actions.requestFocus('composer'));
  const values = { attempt: banner.attempt, maxAttempts: banner.maxAttempts, seconds };
  // Retry now says "Retrying now" at the click: the countdown went on until the retry's first event
  // came back (~250 ms), while the retry already ran. Keyed to this attempt, so a next one counts again.
  const attemptKey = `${banner.chainId}:${banner.attempt}`;
  const [firedFor, setFiredFor] = useState<string | null>(null);
  const retryNow = (): void => {
    setFiredFor(attemptKey);
    // Refused (reported as a notice) or nothing skipped: the banner counts as before.
    const asked = actions.call('session.retryNow', {});
    void asked.then((answer) => {
      if (!answer?.skipped) setFiredFor(null);
    });
    thenComposer(asked);
  };
  // Paused offline, nothing counts down and the retry waits for the network (Cancel and Retry now work).
  const firing = isRetryFiring(banner, seconds) || (firedFor === attemptKey && !banner.offline);
  const text = banner.offline
    ? t('retry.offline', values)
    : firing
      ? t('retry.now', values)
      : banner.scheduled
        ? scheduledText(t, i18n.language, banner.retryAt, banner.retryAt - seconds * 1000)
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
        {changedCategory && (
          <span className="retry-banner-cause" data-testid="retry-budget">
            {t('retry.budget', { max: banner.maxAttempts, category: t(`category.${banner.category}`) })}
          </span>
        )}
      </div>
      <div className="retry-banner-actions" hidden={firing}>
        {banner.offline && <OfflineContinueButton />}
        <button type="button" className="button" data-testid="retry-now" onClick={retryNow}>
          {t('retry.retryNow')}
        </button>
        <button
          type="button"
          className="button button-danger"
          aria-label={t('retry.cancelLabel')}
          data-testid="retry-cancel"
          onClick={() => thenComposer(actions.call('session.abortRetry', {}))}
        >
          {t('retry.cancel')}
        </button>
      </div>
    </>
  );
}

/** One count with the chain's card: retries made (docs/retry-policy.md, "Counting"). */
function failedText(t: TFunction, banner: Extract<RetryBannerState, { kind: 'failed' }>): string {
  if (banner.outcome === 'cancelled') return t('retry.cancelled');
  if (banner.retries === 0) return t('retry.notRetried', { finalError: banner.finalError });
  return t('retry.failed', { count: banner.retries, finalError: banner.finalError });
}

function FailedRetry({ banner }: { banner: Extract<RetryBannerState, { kind: 'failed' }> }) {
  const { t } = useTranslation();
  return <DismissibleText text={failedText(t, banner)} />;
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
        <button
          type="button"
          className="button"
          data-testid="retry-dismiss"
          onClick={() => {
            actions.dismissRetryBanner();
            actions.requestFocus('composer');
          }}
        >
          {t('retry.dismiss')}
        </button>
      </div>
    </>
  );
}

// Whether a retry waits with the banner's Cancel on offer: counting down (or paused offline) and
// not yet going out. The banner shows Cancel and Retry now only then; Composer hides its Stop
// then, so the wait has one control and Stop is the composer's again once the attempt is under
// way (docs/retry-policy.md, "Cancel and abort").
type PendingBanner = Extract<RetryBannerState, { kind: 'pending' }>;

/** At 0 the retry is going out: it can no longer be cancelled (Stop still stops the request). */
export function isRetryFiring(banner: PendingBanner, seconds: number): boolean {
  return !banner.offline && (banner.delayMs === 0 || seconds === 0);
}

/** True while the banner's Cancel is the way to stop the chain; re-renders on each second of the countdown. */
export function useRetryWaiting(): boolean {
  const banner = useAppState((s) => (s.retry.banner?.kind === 'pending' ? s.retry.banner : null));
  const seconds = useCountdown(banner?.retryAt ?? 0);
  return banner !== null && !isRetryFiring(banner, seconds);
}

// The countdown (the banner's and the rate-limit notice's): whole seconds left until `retryAt`, a
// ticker that fires on each second boundary (not every 1000 ms from mount, which would drift
// against the main process's clock), pure apart from the injected timer functions, and the hook.
/** Whole seconds left until `retryAtMs`, rounded up so "in 1s" shows until the very end; never below 0. */
export function secondsLeft(retryAtMs: number, nowMs: number): number {
  return Math.max(0, Math.ceil((retryAtMs - nowMs) / 1000));
}

/** Ms until `secondsLeft` next changes (the next whole-second boundary before `retryAtMs`). */
export function msUntilNextTick(retryAtMs: number, nowMs: number): number {
  const remainingMs = retryAtMs - nowMs;
  if (remainingMs <= 0) return 0;
  return remainingMs % 1000 || 1000;
}

export interface CountdownOptions {
  /** Clock, ms since epoch. Default Date.now. */
  now?: () => number;
  setTimer?: (callback: () => void, delayMs: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/**
 * Call `onTick(seconds)` now and whenever the whole-second value changes, until it reaches 0.
 * Returns a stop function; stopping twice is harmless.
 */
export function startCountdown(
  retryAtMs: number,
  onTick: (seconds: number) => void,
  options: CountdownOptions = {},
): () => void {
  const now = options.now ?? (() => Date.now());
  const setTimer = options.setTimer ?? ((cb: () => void, ms: number) => setTimeout(cb, ms));
  const clearTimer = options.clearTimer ?? ((handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  let handle: unknown = null;
  let isStopped = false;

  const tick = (): void => {
    handle = null;
    if (isStopped) return;
    const at = now();
    const seconds = secondsLeft(retryAtMs, at);
    onTick(seconds);
    if (seconds > 0) handle = setTimer(tick, msUntilNextTick(retryAtMs, at));
  };
  tick();

  return () => {
    isStopped = true;
    if (handle !== null) clearTimer(handle);
    handle = null;
  };
}

/** The whole seconds left until `retryAtMs`, re-rendering once per second boundary. */
export function useCountdown(retryAtMs: number): number {
  const [seconds, setSeconds] = useState(() => secondsLeft(retryAtMs, Date.now()));
  useEffect(() => startCountdown(retryAtMs, setSeconds), [retryAtMs]);
  return seconds;
}

// Whether a retry waits with the banner's Cancel on offer: counting down (or paused offline) and
// not yet going out. RetryBanner shows Cancel and Retry now only then; Composer hides its Stop
// then, so the wait has one control and Stop is the composer's again once the attempt is under
// way (docs/retry-policy.md, "Cancel and abort").
import type { RetryBannerState } from '../store/state';
import { useAppState } from '../store/app-store';
import { useCountdown } from './countdown';

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

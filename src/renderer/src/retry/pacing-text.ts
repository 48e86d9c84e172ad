// What a prompt held for a provider's limit reads (docs/retry-policy.md, "Rate-limit pacing"):
// under a minute the seconds count down; a minute or more names the clock time it ends and what is
// left, never thousands of seconds; a usage limit (a plan's window, hours long) says "usage limit",
// not "rate limit". The pacing notice shows it.
import type { TFunction } from 'i18next';
import type { PacingWait } from '../../../shared/events';
import { formatClockTime, formatWait } from './scheduled-time';

/** `seconds`: whole seconds left (the notice's countdown). */
export function pacingText(
  t: TFunction,
  language: string,
  pacing: Pick<PacingWait, 'until' | 'limit'>,
  seconds: number,
): string {
  if (seconds <= 0) return t('pacing.sending');
  const wait = formatWait(t, seconds);
  const isUsage = pacing.limit === 'usage';
  if (seconds < 60) return t(isUsage ? 'pacing.usageWaiting' : 'pacing.waiting', { wait });
  const time = formatClockTime(pacing.until, pacing.until - seconds * 1000, language);
  return t(isUsage ? 'pacing.usageWaitingUntil' : 'pacing.waitingUntil', { wait, time });
}

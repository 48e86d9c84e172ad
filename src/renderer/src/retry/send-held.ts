// Why Enter sends nothing while this chat's retry waits (docs/retry-policy.md, "Scheduled
// retries"): the composer says it under the box — when the retry goes (a clock time for a
// scheduled one, hours away), and that the banner's Cancel frees the chat for the new message.
import type { TFunction } from 'i18next';
import { formatClockTime, formatTimeLeft } from './scheduled-time';

/** The waiting retry, as the banner holds it. */
export interface HeldBy {
  scheduled?: boolean;
  offline?: boolean;
  retryAt: number;
}

/** "Not sent: this chat retries its last message at 14:05 (in 2 h 13 min). Cancel that retry above…". */
export function sendHeldText(t: TFunction, language: string, wait: HeldBy, nowMs: number): string {
  const left = formatTimeLeft(t, wait.retryAt, nowMs);
  const when = wait.offline
    ? t('sendHeld.whenOnline')
    : wait.scheduled
      ? t('sendHeld.at', { time: formatClockTime(wait.retryAt, nowMs, language), left })
      : t('sendHeld.in', { left });
  return t('sendHeld.text', { when });
}

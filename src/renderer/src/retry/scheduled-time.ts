// How a scheduled retry's time reads (docs/retry-policy.md, "Scheduled retries"): the clock time in
// the window's language, 24-hour ("14:05"; with the date when it is not today), and what is left
// ("2 h 13 min", "2 h", "5 min", "42 s"). Used by the retry banner and the chain's card, which say the same,
// and, for a wait's length, by the retry timeline and the rate-limit pacing notice (formatWait).
import type { TFunction } from 'i18next';
import { formatSeconds } from '../util/format';

/** "14:05", or "Dec 2, 14:05" when `atMs` is on another day than `nowMs`. */
export function formatClockTime(atMs: number, nowMs: number, language: string): string {
  const at = new Date(atMs);
  const sameDay = at.toDateString() === new Date(nowMs).toDateString();
  const options: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
  if (!sameDay) Object.assign(options, { month: 'short', day: 'numeric' });
  return new Intl.DateTimeFormat(language, options).format(at);
}

/** What is left until `atMs`: hours and minutes, minutes, or seconds under a minute (rounded up). */
export function formatTimeLeft(t: TFunction, atMs: number, nowMs: number): string {
  return formatWait(t, Math.max(0, Math.ceil((atMs - nowMs) / 1000)));
}

/**
 * A wait's length as a person reads it: "2.5 s" and "42 s" under a minute, then minutes and hours
 * ("5 min", "2 h", "2 h 13 min", minutes rounded up) — a two-hour wait is never "7200 s".
 */
export function formatWait(t: TFunction, seconds: number): string {
  if (seconds < 60) return t('retry.leftSeconds', { seconds: formatSeconds(seconds) });
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return t('retry.leftMinutes', { minutes });
  const hours = Math.floor(minutes / 60);
  if (minutes % 60 === 0) return t('retry.leftHours', { hours });
  return t('retry.leftHoursMinutes', { hours, minutes: minutes % 60 });
}

/** "Retrying at 14:05 (in 2 h 13 min)". */
export function scheduledText(t: TFunction, language: string, atMs: number, nowMs: number): string {
  return t('retry.scheduled', {
    time: formatClockTime(atMs, nowMs, language),
    left: formatTimeLeft(t, atMs, nowMs),
  });
}

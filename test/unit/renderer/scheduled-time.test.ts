// How a scheduled retry's time reads in the window (docs/retry-policy.md, "Scheduled retries"): the
// 24-hour clock time, with the date when it is not today, and what is left, in en/ja/ko — the
// banner and the card both say scheduledText. Real i18next with the app's own resources.
import { describe, expect, it } from 'vitest';
import {
  formatClockTime,
  formatTimeLeft,
  formatWait,
  scheduledText,
} from '../../../src/renderer/src/retry/scheduled-time';
import { appLanguages } from './app-i18n';

const inLanguage = appLanguages();

// Local times, so the test reads the same in any time zone.
const NOW = new Date(2026, 11, 1, 11, 52, 0).getTime();
const AT = new Date(2026, 11, 1, 14, 5, 0).getTime();

describe('scheduledText', () => {
  it('reads "Retrying at 14:05 (in 2 h 13 min)", in each language', () => {
    expect(scheduledText(inLanguage('en'), 'en', AT, NOW)).toBe('Retrying at 14:05 (in 2 h 13 min)');
    expect(scheduledText(inLanguage('ja'), 'ja', AT, NOW)).toBe('14:05 に再試行します（あと 2 時間 13 分）');
    expect(scheduledText(inLanguage('ko'), 'ko', AT, NOW)).toBe('14:05에 재시도 (2시간 13분 후)');
  });

  it('says what is left in hours, minutes or seconds, rounded up', () => {
    const t = inLanguage('en');
    expect(formatTimeLeft(t, NOW + 7_200_000, NOW)).toBe('2 h');
    expect(formatTimeLeft(t, NOW + 7_199_001, NOW)).toBe('2 h');
    expect(formatTimeLeft(t, NOW + 5 * 60_000 - 30_000, NOW)).toBe('5 min');
    expect(formatTimeLeft(t, NOW + 42_000, NOW)).toBe('42 s');
    expect(formatTimeLeft(t, NOW - 5, NOW)).toBe('0 s');
  });

  it('puts the date in front of a time that is not today', () => {
    const tomorrow = new Date(2026, 11, 2, 0, 58, 0).getTime();
    expect(formatClockTime(tomorrow, NOW, 'en')).toBe('Dec 2, 00:58');
    expect(formatClockTime(AT, NOW, 'en')).toBe('14:05');
  });
});

describe('formatWait', () => {
  it('gives a wait in seconds under a minute, then in minutes and hours — never thousands of seconds', () => {
    const t = inLanguage('en');
    expect(formatWait(t, 2.5)).toBe('2.5 s');
    expect(formatWait(t, 42)).toBe('42 s');
    expect(formatWait(t, 300)).toBe('5 min');
    expect(formatWait(t, 7200)).toBe('2 h');
    expect(formatWait(t, 7192)).toBe('2 h');
    expect(formatWait(t, 7980)).toBe('2 h 13 min');
  });

  it('reads in Japanese and Korean, and in the timeline and the pacing notice', () => {
    expect(formatWait(inLanguage('ja'), 7200)).toBe('2 時間');
    expect(formatWait(inLanguage('ko'), 42)).toBe('42초');
    expect(inLanguage('en')('decisionAction.retry', { wait: formatWait(inLanguage('en'), 7200) })).toBe(
      'Retry after 2 h',
    );
    expect(inLanguage('ja')('decisionAction.retry', { wait: formatWait(inLanguage('ja'), 4) })).toBe('4 秒後に再試行');
    expect(inLanguage('en')('pacing.waitingUntil', { wait: formatWait(inLanguage('en'), 7192), time: '03:54' })).toBe(
      'Waiting for the rate limit to reset: until 03:54 (in 2 h)',
    );
  });
});

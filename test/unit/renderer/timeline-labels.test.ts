// The retry timeline's labels (docs/retry-policy.md, "Scheduled retries"): a schedule taken up again
// after a restart, or by "Retry at …", writes a second record about the same attempt; it reads as
// that attempt taken up again, not as a second "First try". And a wait above the maximum delay is
// said in minutes and hours, in en/ja/ko.
import { describe, expect, it } from 'vitest';
import { attemptLabels, waitTooLongText } from '../../../src/renderer/src/chat/timeline-labels';
import { appLanguages } from './app-i18n';

const inLanguage = appLanguages();

describe('attemptLabels', () => {
  it('labels a record about an attempt already shown as taken up again', () => {
    const decisions = [
      { attempt: 1, finalDecision: null },
      { attempt: 1, finalDecision: null },
      { attempt: 2, finalDecision: 'success' as const },
    ];
    expect(attemptLabels(inLanguage('en'), decisions)).toEqual(['First try', 'Taken up again', 'Retry 1']);
    expect(attemptLabels(inLanguage('ja'), decisions)).toEqual(['最初の試行', '再開', '再試行 1']);
    expect(attemptLabels(inLanguage('ko'), decisions)).toEqual(['첫 시도', '다시 시작', '재시도 1']);
  });

  it('counts retries as before when each record is a new attempt', () => {
    const decisions = [1, 2, 3].map((attempt) => ({ attempt, finalDecision: null }));
    expect(attemptLabels(inLanguage('en'), decisions)).toEqual(['First try', 'Retry 1', 'Retry 2']);
  });
});

describe('waitTooLongText', () => {
  it('says a two-hour wait in hours, not seconds with decimals', () => {
    expect(waitTooLongText(inLanguage('en'), 7_200_000, 60_000)).toBe(
      'Not retried: the provider asked to wait 2 h, above the 1 min maximum delay',
    );
    expect(waitTooLongText(inLanguage('ja'), 7_200_000, 60_000)).toBe(
      '再試行なし: プロバイダーが 2 時間の待機を求めました（最大待機時間 1 分を超えています）',
    );
    expect(waitTooLongText(inLanguage('ko'), 7_980_000, 90_500)).toBe(
      '재시도 안 함: 공급자가 2시간 13분 대기를 요청했습니다(최대 대기 시간 2분 초과)',
    );
  });
});

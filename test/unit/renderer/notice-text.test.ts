// The window's text for what the main process sends: a notice's code in the UI language (plural
// forms by count), its English message for an unknown code or malformed parameters, and provider
// names (generic ones translated, brands as sent). Real i18next with the app's own resources.
import { beforeAll, describe, expect, it } from 'vitest';
import i18next, { type TFunction } from 'i18next';
import { en } from '../../../src/renderer/src/i18n/en';
import { ja } from '../../../src/renderer/src/i18n/ja';
import { ko } from '../../../src/renderer/src/i18n/ko';
import { noticeText, providerLabel } from '../../../src/renderer/src/i18n/notice-text';
import { NOTICE_PARAMS, type NoticeText } from '../../../src/shared/notices';

const i18n = i18next.createInstance();
const inLanguage = (lng: string): TFunction => i18n.getFixedT(lng);

beforeAll(async () => {
  await i18n.init({
    resources: { en: { translation: en }, ja: { translation: ja }, ko: { translation: ko } },
    lng: 'en',
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
  });
});

const FALLBACK = 'English text from the main process';
// What arrives from the wire is not checked by the type: any params at all.
const interrupted = (params: unknown): NoticeText => ({
  code: 'interrupted_chains',
  params: params as NoticeText['params'],
  message: FALLBACK,
});

describe('noticeText', () => {
  it('translates a known code with its count, in the plural form the count asks for', () => {
    expect(noticeText(inLanguage('en'), interrupted({ count: 1 }))).toBe(
      '1 retry chain was cut off when Resolute last stopped; it is marked interrupted in the history.',
    );
    expect(noticeText(inLanguage('en'), interrupted({ count: 2 }))).toMatch(/^2 retry chains were cut off/);
    expect(noticeText(inLanguage('ja'), interrupted({ count: 2 }))).toBe(
      '前回 Resolute が終了したとき、再試行中だった 2 件の処理が途中で打ち切られました。履歴では「中断」として記録されています。',
    );
    expect(noticeText(inLanguage('ko'), interrupted({ count: 3 }))).toBe(
      '지난번 Resolute가 종료될 때 재시도 중이던 작업 3건이 중간에 끊겼습니다. 기록에는 ‘중단됨’으로 표시되어 있습니다.',
    );
  });

  it('puts text parameters in place', () => {
    const notice = {
      code: 'history_damaged_in_use',
      params: { path: '/data/history.db', detail: 'database disk image is malformed' },
      message: FALLBACK,
    };
    expect(noticeText(inLanguage('ko'), notice)).toMatch(
      /^\/data\/history\.db의 기록 데이터베이스가 손상되었습니다\(database disk image is malformed\)/,
    );
    expect(noticeText(inLanguage('ja'), { ...notice, code: 'lock_taken_over', params: { pid: 4242 } })).toContain(
      'プロセス 4242',
    );
  });

  it('has a text in every language for every code the main process sends', () => {
    for (const code of Object.keys(NOTICE_PARAMS)) {
      for (const resource of [en, ja, ko]) {
        const keys = Object.keys(resource.notices);
        expect(
          keys.some((key) => key === code || key === `${code}_other`),
          code,
        ).toBe(true);
      }
    }
  });

  it('shows the English message for an unknown code, or none', () => {
    const ja = inLanguage('ja');
    expect(noticeText(ja, { code: 'from_a_newer_version', params: { count: 1 }, message: FALLBACK })).toBe(FALLBACK);
    expect(noticeText(ja, { code: 'toString', message: FALLBACK })).toBe(FALLBACK);
    expect(noticeText(ja, { message: FALLBACK })).toBe(FALLBACK);
  });

  it('shows the English message when the parameters are malformed', () => {
    const ko = inLanguage('ko');
    for (const params of [
      undefined,
      null,
      'two',
      {},
      { count: 'two' },
      { count: -1 },
      { count: 1.5 },
      { count: 2, x: 1 },
    ])
      expect(noticeText(ko, interrupted(params)), JSON.stringify(params)).toBe(FALLBACK);
    expect(noticeText(ko, { code: 'lock_taken_over', params: { pid: '<b>' }, message: FALLBACK })).toBe(FALLBACK);
  });
});

describe('providerLabel', () => {
  it('translates the generic names and keeps the brands', () => {
    expect(providerLabel(inLanguage('ko'), { id: 'simulator', label: 'Simulator (built in)' })).toBe(
      '시뮬레이터(내장)',
    );
    expect(providerLabel(inLanguage('ja'), { id: 'openai-compatible', label: 'OpenAI-compatible server' })).toBe(
      'OpenAI 互換サーバー',
    );
    expect(providerLabel(inLanguage('en'), { id: 'simulator', label: 'x' })).toBe('Simulator (built in)');
    expect(providerLabel(inLanguage('ja'), { id: 'anthropic', label: 'Anthropic' })).toBe('Anthropic');
  });
});

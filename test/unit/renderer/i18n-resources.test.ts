// The en, ja and ko resources: same keys, same {{placeholders}} per key, the banner strings of
// docs/retry-policy.md ("The banner") exactly, and the "system" language following the browser's preferences.
import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { en } from '../../../src/renderer/src/i18n/en';
import { ja } from '../../../src/renderer/src/i18n/ja';
import { ko } from '../../../src/renderer/src/i18n/ko';
import { resolveLanguage } from '../../../src/shared/ui-language';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string): string[] => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('i18n resources', () => {
  const reference = flatten(en);

  it.each([
    ['ja', ja],
    ['ko', ko],
  ])('%s has the same keys and placeholders as en, and no empty string', (_, resource) => {
    const flat = flatten(resource);
    expect([...flat.keys()].sort()).toEqual([...reference.keys()].sort());
    for (const [key, text] of reference) {
      expect({ key, vars: placeholders(flat.get(key) ?? '') }).toEqual({ key, vars: placeholders(text) });
      expect(flat.get(key)?.trim(), key).not.toBe('');
    }
  });

  it('renders the retry banner in each language', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({
      resources: { en: { translation: en }, ja: { translation: ja }, ko: { translation: ko } },
      lng: 'en',
      fallbackLng: 'en',
      interpolation: { escapeValue: false },
    });
    const values = { attempt: 1, maxAttempts: 3, seconds: 2 };
    expect(i18n.t('retry.countdown', values)).toBe('Retrying (1/3) in 2s… (esc to cancel)');
    expect(i18n.t('retry.failed', { count: 3, finalError: '503' })).toBe('Retry failed after 3 retries: 503');
    expect(i18n.t('retry.failed', { count: 1, finalError: '503' })).toBe('Retry failed after 1 retry: 503');
    expect(i18n.t('outcome.recovered', { count: 2 })).toBe('Recovered after 2 retries');
    expect(i18n.t('outcome.exhausted', { count: 3, lng: 'ja' })).toBe('3 回再試行した後、中止しました');
    expect(i18n.t('outcome.exhausted', { count: 1, lng: 'ko' })).toBe('1회 재시도 후 중단함');
    expect(i18n.t('retry.now', values)).toContain('Retrying now');
    expect(i18n.t('retry.countdown', { ...values, lng: 'ja' })).toBe('再試行中 (1/3) あと 2 秒… (Esc でキャンセル)');
    expect(i18n.t('retry.countdown', { ...values, lng: 'ko' })).toBe('재시도 중 (1/3) 2초 후… (Esc로 취소)');
    expect(i18n.t('history.turns', { count: 1 })).toBe('1 turn');
    // The cost line counts in retries too (docs/retry-policy.md, "What failures cost").
    const cost = { input: '1,240' };
    expect(i18n.t('cost.input', { ...cost, count: 2 })).toBe(
      'The first try and 2 retries failed, using 1,240 input tokens',
    );
    expect(i18n.t('cost.input', { ...cost, count: 1 })).toBe(
      'The first try and 1 retry failed, using 1,240 input tokens',
    );
    expect(i18n.t('cost.input', { ...cost, count: 0 })).toBe('The first try failed, using 1,240 input tokens');
    expect(i18n.t('cost.input', { ...cost, count: 0, lng: 'ja' })).toBe(
      '最初の試行が失敗し、入力トークン 1,240 を使用',
    );
    expect(i18n.t('retry.offline', { ...values, lng: 'en' })).toBe(
      'Offline — waiting for the network (retry 1/3 kept)',
    );
    expect(i18n.t('history.turns', { count: 4, lng: 'ja' })).toBe('4 ターン');
  });
});

describe('typed keys (src/renderer/src/i18n/i18next.d.ts)', () => {
  it('a key en.ts does not hold fails the type check, and at run time shows itself', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ resources: { en: { translation: en } }, lng: 'en', interpolation: { escapeValue: false } });
    expect(i18n.t('settings.action.retry')).toBe('Retry');
    // Without the CustomTypeOptions declaration this line type-checks and the directive fails `npm run typecheck`.
    // @ts-expect-error — misspelt on purpose: 'retyr' is no key of en.ts.
    expect(i18n.t('settings.action.retyr')).toBe('settings.action.retyr');
    // A plural key is asked for by its name without _one/_other.
    expect(i18n.t('history.turns', { count: 2 })).toBe('2 turns');
  });
});

describe('resolveLanguage', () => {
  it('uses an explicit setting as is', () => {
    expect(resolveLanguage('ko', ['ja-JP'])).toBe('ko');
  });

  it('follows the first shipped browser language for "system", else English', () => {
    expect(resolveLanguage('system', ['ja-JP', 'en-US'])).toBe('ja');
    expect(resolveLanguage('system', ['fr-FR', 'ko-KR'])).toBe('ko');
    expect(resolveLanguage('system', ['de'])).toBe('en');
    expect(resolveLanguage('system', [])).toBe('en');
  });
});

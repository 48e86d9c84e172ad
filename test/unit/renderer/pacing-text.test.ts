// What a prompt held for a provider's limit reads (docs/retry-policy.md, "Rate-limit pacing"): a
// short wait counts seconds; a long one names the clock time and what is left; a usage limit says
// "usage limit" — never "Waiting 7192 s for the rate limit". In en/ja/ko.
import { describe, expect, it } from 'vitest';
import { pacingText } from '../../../src/renderer/src/retry/pacing-text';
import { appLanguages } from './app-i18n';

const inLanguage = appLanguages();
const UNTIL = new Date(2026, 11, 1, 3, 54, 0).getTime();
const NOW = UNTIL - 7_192_000;

describe('pacingText', () => {
  it('a usage limit names itself, the clock time and what is left, in each language', () => {
    expect(pacingText(inLanguage('en'), 'en', { until: UNTIL, limit: 'usage' }, 7192)).toBe(
      'Waiting for the usage limit to reset: until 03:54 (in 2 h)',
    );
    expect(pacingText(inLanguage('ja'), 'ja', { until: UNTIL, limit: 'usage' }, 7192)).toMatch(/利用上限.*03:54/);
    expect(pacingText(inLanguage('ko'), 'ko', { until: UNTIL, limit: 'usage' }, 7192)).toMatch(/사용 한도.*03:54/);
  });

  it('a rate limit counts seconds, or names the clock time when a minute or more', () => {
    const t = inLanguage('en');
    expect(pacingText(t, 'en', { until: NOW + 12_000 }, 12)).toBe('Waiting 12 s for the rate limit to reset');
    expect(pacingText(t, 'en', { until: UNTIL }, 7192)).toBe(
      'Waiting for the rate limit to reset: until 03:54 (in 2 h)',
    );
    expect(pacingText(t, 'en', { until: NOW }, 0)).toBe('The rate limit has reset: sending…');
  });
});

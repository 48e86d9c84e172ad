// Real i18next with the app's own en/ja/ko resources, for the renderer tests that read the window's
// text in each language (notice-text, scheduled-time, byte-size): initialised before the file's
// tests, it hands out each language's t.
import i18next, { type TFunction } from 'i18next';
import { beforeAll } from 'vitest';
import { en } from '../../../src/renderer/src/i18n/en';
import { ja } from '../../../src/renderer/src/i18n/ja';
import { ko } from '../../../src/renderer/src/i18n/ko';

export function appLanguages(): (lng: string) => TFunction {
  const i18n = i18next.createInstance();
  beforeAll(async () => {
    await i18n.init({
      resources: { en: { translation: en }, ja: { translation: ja }, ko: { translation: ko } },
      lng: 'en',
      fallbackLng: 'en',
      interpolation: { escapeValue: false },
    });
  });
  return (lng) => i18n.getFixedT(lng);
}

// i18next set-up for the renderer (en, ja, ko) and applyLanguage(), which main.tsx calls
// whenever settings.ui.language changes. Every visible string goes through t().
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { LanguageSetting } from '../../../shared/settings-values';
import { en } from './en';
import { ja } from './ja';
import { ko } from './ko';
import { resolveLanguage, type UiLanguage } from '../../../shared/ui-language';

function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}

export async function initI18n(): Promise<typeof i18next> {
  await i18next.use(initReactI18next).init({
    resources: { en: { translation: en }, ja: { translation: ja }, ko: { translation: ko } },
    lng: resolveLanguage('system', browserLanguages()),
    // i18next 27 no longer falls back by default; a missing key should show English, not the key.
    fallbackLng: 'en',
    supportedLngs: ['en', 'ja', 'ko'],
    // React escapes text itself.
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  setDocumentLanguage(i18next.language as UiLanguage);
  return i18next;
}

export async function applyLanguage(setting: LanguageSetting): Promise<void> {
  const language = resolveLanguage(setting, browserLanguages());
  if (i18next.language !== language) await i18next.changeLanguage(language);
  setDocumentLanguage(language);
}

function setDocumentLanguage(language: UiLanguage): void {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

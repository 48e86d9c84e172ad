// Which UI language to use: the setting, or for "system" the first of the OS's or browser's
// preferred languages that we ship, else English. Pure and shared: the renderer's i18n passes
// navigator.languages, the Electron menu and notifications pass app.getPreferredSystemLanguages().
import type { LanguageSetting } from './settings-values';

export const UI_LANGUAGES = ['en', 'ja', 'ko'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];

export function resolveLanguage(setting: LanguageSetting, preferred: readonly string[]): UiLanguage {
  if (setting !== 'system') return setting;
  for (const tag of preferred) {
    const base = tag.toLowerCase().split(/[-_]/)[0];
    const match = UI_LANGUAGES.find((lang) => lang === base);
    if (match) return match;
  }
  return 'en';
}

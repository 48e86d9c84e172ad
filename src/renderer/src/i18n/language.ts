// Which UI language to use: the setting, or for "system" the first of the browser's preferred
// languages that we ship (navigator.languages), else English. Pure, so it is unit-tested.
import type { LanguageSetting } from '../../../shared/settings';

const UI_LANGUAGES = ['en', 'ja', 'ko'] as const;
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

// What the window shows for text the main process sends: a notice's code translated (with its
// parameters; counts pick the plural form), else its English message — an unknown code (an older
// or newer main process) or malformed parameters fall back to it (docs/architecture.md,
// "Notices"). Provider names: brands as they are, the generic ones translated. Used by NoticeList
// and the settings panes.
import type { TFunction } from 'i18next';
import type { ProviderInfo } from '../../../shared/contract';
import { readNoticeCode, type NoticeText } from '../../../shared/notices';

export function noticeText(t: TFunction, notice: NoticeText): string {
  const known = readNoticeCode(notice);
  return known ? t(`notices.${known.code}`, known.params) : notice.message;
}

/** The providers whose name is words rather than a brand. */
const TRANSLATED_PROVIDERS = ['simulator', 'openai-compatible'] as const;
type TranslatedProvider = (typeof TRANSLATED_PROVIDERS)[number];

function isTranslated(id: string): id is TranslatedProvider {
  return (TRANSLATED_PROVIDERS as readonly string[]).includes(id);
}

/** A provider's name in the UI language; the main process's English label for the brands. */
export function providerLabel(t: TFunction, provider: Pick<ProviderInfo, 'id' | 'label'>): string {
  return isTranslated(provider.id) ? t(`providerNames.${provider.id}`) : provider.label;
}

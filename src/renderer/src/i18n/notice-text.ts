// What the window shows for text the main process sends: a notice's code translated (with its
// parameters; counts pick the plural form), else its English message — an unknown code (an older
// or newer main process) or malformed parameters fall back to it (docs/architecture.md,
// "Notices"). Provider names: brands as they are, the generic ones translated; key hints: the
// masked key as sent, the words about where it comes from in the UI language. Used by NoticeList,
// the workspace picker and the settings panes.
import type { TFunction } from 'i18next';
import type { ProviderInfo, ProviderKeyHint } from '../../../shared/contract';
import { readNoticeCode } from '../../../shared/notice-params';
import type { NoticeText } from '../../../shared/notice-params';
import { PROVIDER_LABELS, type ProviderId } from '../../../shared/settings-values';

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

/** A provider's name by id, also before the provider list has come (the brands' names are known here too). */
export function providerLabelById(t: TFunction, providers: readonly ProviderInfo[], id: ProviderId): string {
  return providerLabel(t, providers.find((p) => p.id === id) ?? { id, label: PROVIDER_LABELS[id] });
}

/** A key as the list shows it: "sk-…a1b2", with where it comes from when the person did not store it. */
export function keyHintText(t: TFunction, key: Pick<ProviderKeyHint, 'source' | 'hint'>): string {
  const masked = key.hint ?? '';
  switch (key.source) {
    case 'environment':
      return t('settings.keySource.environment', { hint: masked });
    case 'run':
      return t('settings.keySource.run', { hint: masked });
    case 'built-in':
      return t('settings.keySource.builtIn');
    default:
      // 'stored', or a source a newer main process added: the masked key says enough.
      return masked;
  }
}

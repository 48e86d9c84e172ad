// The few strings the Electron host shows itself — menu labels Electron's roles do not supply, the
// OS notifications, the taskbar badge's description — in en, ja and ko through i18next, like the
// renderer's. main.ts makes one translator per language setting (desktopTranslator).
import i18next from 'i18next';
import type { LanguageSetting } from '../../shared/settings';
import { resolveLanguage, UI_LANGUAGES } from '../../shared/ui-language';

export const desktopEn = {
  menu: {
    view: 'View',
    help: 'Help',
    openDataFolder: 'Open Data Folder',
    openLogsFolder: 'Open Logs Folder',
  },
  notification: {
    retryFailedTitle: 'Retry failed',
    retryFailedBody_one: 'Gave up after {{count}} retry: {{error}}',
    retryFailedBody_other: 'Gave up after {{count}} retries: {{error}}',
    approvalTitle: 'Approval needed',
    approvalBody: '{{subject}} is waiting for your approval.',
    scheduledRunningTitle: 'Scheduled retry',
    scheduledRunningBody: 'The retry you scheduled is running now.',
    scheduledFailedTitle: 'Scheduled retry failed',
    scheduledFailedBody: 'The scheduled retry did not get a reply: {{error}}',
  },
  badge: {
    approvalWaiting: 'Waiting for your approval',
  },
};

type DesktopStrings = typeof desktopEn;

export const desktopJa: DesktopStrings = {
  menu: {
    view: '表示',
    help: 'ヘルプ',
    openDataFolder: 'データフォルダーを開く',
    openLogsFolder: 'ログフォルダーを開く',
  },
  notification: {
    retryFailedTitle: '再試行に失敗しました',
    retryFailedBody_one: '{{count}} 回再試行しましたが失敗しました: {{error}}',
    retryFailedBody_other: '{{count}} 回再試行しましたが失敗しました: {{error}}',
    approvalTitle: '承認が必要です',
    approvalBody: '{{subject}} があなたの承認を待っています。',
    scheduledRunningTitle: '予約した再試行',
    scheduledRunningBody: '予約した再試行を今実行しています。',
    scheduledFailedTitle: '予約した再試行に失敗しました',
    scheduledFailedBody: '予約した再試行で応答を得られませんでした: {{error}}',
  },
  badge: {
    approvalWaiting: '承認待ち',
  },
};

export const desktopKo: DesktopStrings = {
  menu: {
    view: '보기',
    help: '도움말',
    openDataFolder: '데이터 폴더 열기',
    openLogsFolder: '로그 폴더 열기',
  },
  notification: {
    retryFailedTitle: '재시도 실패',
    retryFailedBody_one: '{{count}}회 재시도했지만 실패했습니다: {{error}}',
    retryFailedBody_other: '{{count}}회 재시도했지만 실패했습니다: {{error}}',
    approvalTitle: '승인 필요',
    approvalBody: '{{subject}}이(가) 승인을 기다리고 있습니다.',
    scheduledRunningTitle: '예약된 재시도',
    scheduledRunningBody: '예약한 재시도를 지금 실행하고 있습니다.',
    scheduledFailedTitle: '예약된 재시도 실패',
    scheduledFailedBody: '예약한 재시도에서 응답을 받지 못했습니다: {{error}}',
  },
  badge: {
    approvalWaiting: '승인 대기 중',
  },
};

/** A key's name without i18next's plural suffix: `retryFailedBody_one` is asked for as `retryFailedBody`. */
type Unplural<K extends string> = K extends `${infer B}_one` ? B : K extends `${infer B}_other` ? B : K;
/** The dotted keys of the strings above, so a misspelt or missing key fails the type check. */
type KeyOf<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${Unplural<K>}` : KeyOf<T[K], `${P}${K}.`>;
}[keyof T & string];
export type DesktopKey = KeyOf<DesktopStrings>;

/** A translate function over the keys above, e.g. t('menu.help') or t('notification.retryFailedBody', {count, error}). */
export type Translate = (key: DesktopKey, values?: Record<string, string | number>) => string;

/**
 * A translator for the language setting; 'system' follows the OS's preferred languages
 * (app.getPreferredSystemLanguages()). Synchronous: the resources are bundled.
 */
export function desktopTranslator(setting: LanguageSetting, systemLanguages: readonly string[]): Translate {
  const instance = i18next.createInstance();
  void instance.init({
    initAsync: false,
    resources: { en: { translation: desktopEn }, ja: { translation: desktopJa }, ko: { translation: desktopKo } },
    lng: resolveLanguage(setting, systemLanguages),
    fallbackLng: 'en',
    supportedLngs: [...UI_LANGUAGES],
    // Menu labels and notification text are plain strings, not HTML.
    interpolation: { escapeValue: false },
  });
  return (key, values) => instance.t(key, values ?? {});
}

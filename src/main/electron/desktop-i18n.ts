// The few strings the Electron host shows itself — menu labels Electron's roles do not supply (the
// app commands' come from their declarations, src/shared/app-commands.ts), the
// OS notifications, the taskbar badge's description, the tray's menu — in en, ja and ko through i18next, like the
// renderer's. main.ts makes one translator per language setting (desktopTranslator).
import i18next from 'i18next';
import { appCommandLabels, type AppCommandId } from '../../shared/app-commands';
import type { LanguageSetting } from '../../shared/settings-values';
import { resolveLanguage, UI_LANGUAGES } from '../../shared/ui-language';

export const desktopEn = {
  menu: {
    file: 'File',
    view: 'View',
    help: 'Help',
    openDataFolder: 'Open Data Folder',
    openLogsFolder: 'Open Logs Folder',
  },
  commands: appCommandLabels('en') as Record<AppCommandId, string>,
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
    chatReplyTitle: 'A reply came',
    chatFailedTitle: 'A chat failed',
    chatApprovalTitle: 'A chat waits for your approval',
    chatBody: '“{{title}}”',
  },
  badge: {
    approvalWaiting: 'Waiting for your approval',
  },
  tray: {
    idle: 'Nothing running',
    working_one: '{{count}} chat working',
    working_other: '{{count}} chats working',
    nextRetry: 'next retry {{time}}',
    show: 'Show Resolute',
    quit: 'Quit Resolute',
  },
  quit: {
    title_one: 'A retry is waiting',
    title_other: '{{count}} retries are waiting',
    body_one: 'It is kept and offered again when Resolute starts.',
    body_other: 'They are kept and offered again when Resolute starts (a scheduled one runs at its time).',
    quit: 'Quit',
    cancel: 'Cancel',
  },
};

type DesktopStrings = typeof desktopEn;

export const desktopJa: DesktopStrings = {
  menu: {
    file: 'ファイル',
    view: '表示',
    help: 'ヘルプ',
    openDataFolder: 'データフォルダーを開く',
    openLogsFolder: 'ログフォルダーを開く',
  },
  commands: appCommandLabels('ja'),
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
    chatReplyTitle: '応答が届きました',
    chatFailedTitle: 'チャットが失敗しました',
    chatApprovalTitle: 'チャットが承認を待っています',
    chatBody: '「{{title}}」',
  },
  badge: {
    approvalWaiting: '承認待ち',
  },
  tray: {
    idle: '実行中の作業はありません',
    working_one: '{{count}} 件のチャットが作業中',
    working_other: '{{count}} 件のチャットが作業中',
    nextRetry: '次の再試行 {{time}}',
    show: 'Resolute を表示',
    quit: 'Resolute を終了',
  },
  quit: {
    title_one: '再試行が待機中です',
    title_other: '{{count}} 件の再試行が待機中です',
    body_one: '次に Resolute を起動したときに再開できるよう保存されます。',
    body_other: '次に Resolute を起動したときに再開できるよう保存されます（予約したものはその時刻に実行されます）。',
    quit: '終了',
    cancel: 'キャンセル',
  },
};

export const desktopKo: DesktopStrings = {
  menu: {
    file: '파일',
    view: '보기',
    help: '도움말',
    openDataFolder: '데이터 폴더 열기',
    openLogsFolder: '로그 폴더 열기',
  },
  commands: appCommandLabels('ko'),
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
    chatReplyTitle: '응답이 도착했습니다',
    chatFailedTitle: '채팅이 실패했습니다',
    chatApprovalTitle: '채팅이 승인을 기다리고 있습니다',
    chatBody: '“{{title}}”',
  },
  badge: {
    approvalWaiting: '승인 대기 중',
  },
  tray: {
    idle: '실행 중인 작업 없음',
    working_one: '채팅 {{count}}개 작업 중',
    working_other: '채팅 {{count}}개 작업 중',
    nextRetry: '다음 재시도 {{time}}',
    show: 'Resolute 보기',
    quit: 'Resolute 종료',
  },
  quit: {
    title_one: '재시도가 대기 중입니다',
    title_other: '재시도 {{count}}개가 대기 중입니다',
    body_one: '다음에 Resolute를 시작할 때 이어서 할 수 있도록 보관됩니다.',
    body_other: '다음에 Resolute를 시작할 때 이어서 할 수 있도록 보관됩니다(예약된 것은 그 시각에 실행됩니다).',
    quit: '종료',
    cancel: '취소',
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

// The app's own commands — what a person does from the command palette, a keyboard shortcut or the
// desktop menu (not the contract's commands, which cross to the main process). One declaration
// each: its label in en, ja and ko, its shortcut, whether the palette and which desktop menu show
// it. The renderer derives the palette, the shortcut handler and Settings → Keyboard shortcuts from
// this table and binds what each runs (src/renderer/src/commands/bindings.ts, which the compiler
// holds to it); the Electron menu (src/main/electron/app-menu.ts) derives its items. Plain data:
// the preload, the window's first chunk and the main process all read it.

/** A key with its modifiers; `mod` is Ctrl, or ⌘ on macOS. `key` as KeyboardEvent.key, any case. */
export interface KeyChord {
  key: string;
  mod?: boolean;
  shift?: boolean;
}

export interface AppCommandSpec {
  /** What the palette, the Settings list and the menu say; `{{…}}` for a family's variant. */
  label: { en: string; ja: string; ko: string };
  shortcut?: KeyChord;
  /** Listed in the command palette. */
  palette?: boolean;
  /** The desktop menu it sits in. */
  menu?: 'file' | 'view';
}

/** In the palette's order (and each menu's); the first match of a shortcut wins. */
export const APP_COMMANDS = {
  newChat: {
    label: { en: 'New chat', ja: '新しいチャット', ko: '새 채팅' },
    shortcut: { key: 'n', mod: true },
    palette: true,
    menu: 'file',
  },
  showChat: {
    label: { en: 'Go to Chat', ja: 'チャットへ移動', ko: '채팅으로 이동' },
    palette: true,
    menu: 'view',
  },
  showHistory: {
    label: { en: 'Go to History', ja: '履歴へ移動', ko: '기록으로 이동' },
    palette: true,
    menu: 'view',
  },
  searchHistory: {
    label: { en: 'Search the history', ja: '履歴を検索', ko: '기록 검색' },
    shortcut: { key: 'k', mod: true },
    menu: 'view',
  },
  openPalette: {
    label: { en: 'Open the command palette', ja: 'コマンドパレットを開く', ko: '명령 팔레트 열기' },
    shortcut: { key: 'p', mod: true, shift: true },
    menu: 'view',
  },
  focusComposer: {
    label: { en: 'Go to the message box', ja: 'メッセージ欄へ移動', ko: '메시지 입력란으로 이동' },
    shortcut: { key: 'Escape', shift: true },
  },
  switchModel: {
    label: { en: 'Switch model', ja: 'モデルを切り替える', ko: '모델 전환' },
    palette: true,
  },
  /** A family: one palette entry per level, for a model that thinks. */
  thinkingLevel: {
    label: { en: 'Thinking level: {{level}}', ja: '思考レベル: {{level}}', ko: '생각 수준: {{level}}' },
    palette: true,
  },
  attach: {
    label: { en: 'Attach files…', ja: 'ファイルを添付…', ko: '파일 첨부…' },
    palette: true,
    menu: 'file',
  },
  /** A family: one palette entry per Settings section. */
  settingsSection: {
    label: { en: 'Settings: {{section}}', ja: '設定: {{section}}', ko: '설정: {{section}}' },
    palette: true,
  },
  exportMarkdown: {
    label: {
      en: 'Export this chat as Markdown',
      ja: 'このチャットを Markdown で書き出す',
      ko: '이 채팅을 Markdown으로 내보내기',
    },
    palette: true,
    menu: 'file',
  },
  exportJson: {
    label: { en: 'Export this chat as JSON', ja: 'このチャットを JSON で書き出す', ko: '이 채팅을 JSON으로 내보내기' },
    palette: true,
    menu: 'file',
  },
} as const satisfies Record<string, AppCommandSpec>;

export type AppCommandId = keyof typeof APP_COMMANDS;

export const APP_COMMAND_IDS = Object.keys(APP_COMMANDS) as AppCommandId[];

export function isAppCommandId(value: unknown): value is AppCommandId {
  return typeof value === 'string' && Object.hasOwn(APP_COMMANDS, value);
}

/** The declarations as one list, each with its id. */
export function appCommands(): (AppCommandSpec & { id: AppCommandId })[] {
  return APP_COMMAND_IDS.map((id) => ({ id, ...APP_COMMANDS[id] }));
}

type Language = keyof AppCommandSpec['label'];

/**
 * One language's labels, for its i18next resources (`commands.<id>`, renderer and desktop). Typed
 * by the literal strings, so that i18next's types see each label's `{{…}}`.
 */
export function appCommandLabels<L extends Language>(
  language: L,
): { [Id in AppCommandId]: (typeof APP_COMMANDS)[Id]['label'][L] } {
  return Object.fromEntries(APP_COMMAND_IDS.map((id) => [id, APP_COMMANDS[id].label[language]])) as {
    [Id in AppCommandId]: (typeof APP_COMMANDS)[Id]['label'][L];
  };
}

/** As the Settings list shows it: "Ctrl+Shift+P", "⌘+K" on macOS, "Shift+Esc". */
export function chordText(chord: KeyChord, isMac: boolean): string {
  const key = chord.key === 'Escape' ? 'Esc' : chord.key.length === 1 ? chord.key.toUpperCase() : chord.key;
  return [chord.mod ? (isMac ? '⌘' : 'Ctrl') : null, chord.shift ? 'Shift' : null, key].filter(Boolean).join('+');
}

/** As Electron's menu takes it: "CmdOrCtrl+Shift+P". */
export function chordAccelerator(chord: KeyChord): string {
  const key = chord.key.length === 1 ? chord.key.toUpperCase() : chord.key;
  return [chord.mod ? 'CmdOrCtrl' : null, chord.shift ? 'Shift' : null, key].filter(Boolean).join('+');
}

/** The parts of a KeyboardEvent a chord is matched against. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

export function chordMatches(chord: KeyChord, press: KeyPress): boolean {
  return (
    !press.altKey &&
    Boolean(chord.mod) === (press.ctrlKey || press.metaKey) &&
    Boolean(chord.shift) === press.shiftKey &&
    press.key.toLowerCase() === chord.key.toLowerCase()
  );
}

// The app's own commands — what a person does from the command palette, a keyboard shortcut or the
// desktop menu (not the contract's commands, which cross to the main process). One declaration
// each: its label in en, ja and ko, its shortcut, whether the palette and which desktop menu show
// it. The renderer derives the palette, the shortcut handler and Settings → Keyboard shortcuts from
// this table and binds what each runs (src/renderer/src/commands/bindings.ts, which the compiler
// holds to it); the Electron menu (src/main/electron/app-menu.ts) derives its items. Plain data:
// the preload, the window's first chunk and the main process all read it.

/**
 * A key with its modifiers; `mod` is Ctrl, or ⌘ on macOS; `ctrl` is Ctrl on every OS (Ctrl+Tab).
 * `key` as KeyboardEvent.key, any case; for a key typed with Shift, its unshifted name (`]`, not `}`).
 */
export interface KeyChord {
  key: string;
  mod?: boolean;
  ctrl?: boolean;
  shift?: boolean;
}

export interface AppCommandSpec {
  /** What the palette, the Settings list and the menu say; `{{…}}` for a family's variant. */
  label: { en: string; ja: string; ko: string };
  /** Its keys; the first is the one the desktop menu shows. Which one was pressed reaches the binding. */
  shortcuts?: readonly KeyChord[];
  /** The Settings list shows the shortcuts as one range ("Ctrl+1…9"), not one by one. */
  shortcutRange?: boolean;
  /** Listed in the command palette. */
  palette?: boolean;
  /** The desktop menu it sits in. */
  menu?: 'file' | 'view';
}

/** In the palette's order (and each menu's); the first match of a shortcut wins. */
export const APP_COMMANDS = {
  newChat: {
    label: { en: 'New chat', ja: '新しいチャット', ko: '새 채팅' },
    // Ctrl+Shift+O as in Claude desktop and ChatGPT; Ctrl+N kept for those used to it.
    shortcuts: [
      { key: 'n', mod: true },
      { key: 'o', mod: true, shift: true },
    ],
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
    shortcuts: [{ key: 'k', mod: true }],
    menu: 'view',
  },
  openPalette: {
    label: { en: 'Open the command palette', ja: 'コマンドパレットを開く', ko: '명령 팔레트 열기' },
    shortcuts: [{ key: 'p', mod: true, shift: true }],
    menu: 'view',
  },
  focusComposer: {
    label: { en: 'Go to the message box', ja: 'メッセージ欄へ移動', ko: '메시지 입력란으로 이동' },
    shortcuts: [{ key: 'Escape', shift: true }],
  },
  nextChat: {
    label: { en: 'Next chat', ja: '次のチャット', ko: '다음 채팅' },
    shortcuts: [
      { key: 'Tab', ctrl: true },
      { key: ']', mod: true, shift: true },
    ],
    palette: true,
    menu: 'view',
  },
  previousChat: {
    label: { en: 'Previous chat', ja: '前のチャット', ko: '이전 채팅' },
    shortcuts: [
      { key: 'Tab', ctrl: true, shift: true },
      { key: '[', mod: true, shift: true },
    ],
    palette: true,
    menu: 'view',
  },
  /** The sidebar's chats in their order: the key pressed (1–9) is which. */
  goToChat: {
    label: {
      en: 'Go to a chat of the sidebar by its place',
      ja: 'サイドバーの順でチャットへ移動',
      ko: '사이드바 순서로 채팅 이동',
    },
    shortcuts: ['1', '2', '3', '4', '5', '6', '7', '8', '9'].map((key) => ({ key, mod: true })),
    shortcutRange: true,
  },
  toggleSidebar: {
    label: { en: 'Show or hide the sidebar', ja: 'サイドバーの表示を切り替える', ko: '사이드바 표시/숨기기' },
    shortcuts: [{ key: '.', mod: true }],
    palette: true,
    menu: 'view',
  },
  openSettings: {
    label: { en: 'Open Settings', ja: '設定を開く', ko: '설정 열기' },
    shortcuts: [{ key: ',', mod: true }],
    palette: true,
    menu: 'file',
  },
  showShortcuts: {
    label: { en: 'Keyboard shortcuts', ja: 'キーボードショートカット', ko: '키보드 단축키' },
    shortcuts: [{ key: '/', mod: true }],
    palette: true,
    menu: 'view',
  },
  copyLastReply: {
    label: { en: 'Copy the last reply', ja: '最後の返信をコピー', ko: '마지막 답변 복사' },
    shortcuts: [{ key: 'c', mod: true, shift: true }],
    palette: true,
  },
  toggleThinking: {
    label: { en: 'Turn thinking on or off', ja: '思考のオン／オフ', ko: '생각 켜기/끄기' },
    shortcuts: [{ key: 'e', mod: true, shift: true }],
    palette: true,
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
    shortcuts: [{ key: 'u', mod: true }],
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
  return [chord.ctrl ? 'Ctrl' : null, chord.mod ? (isMac ? '⌘' : 'Ctrl') : null, chord.shift ? 'Shift' : null, key]
    .filter(Boolean)
    .join('+');
}

/** A command's keys as the Settings list shows them: "Ctrl+N / Ctrl+Shift+O", or a range "Ctrl+1…9". */
export function shortcutsText(spec: AppCommandSpec, isMac: boolean): string | null {
  const chords = spec.shortcuts ?? [];
  if (chords.length === 0) return null;
  if (spec.shortcutRange) return `${chordText(chords[0], isMac)}…${chords[chords.length - 1].key}`;
  return chords.map((chord) => chordText(chord, isMac)).join(' / ');
}

/** As Electron's menu takes it: "CmdOrCtrl+Shift+P". */
export function chordAccelerator(chord: KeyChord): string {
  const key = chord.key.length === 1 ? chord.key.toUpperCase() : chord.key;
  return [chord.ctrl ? 'Ctrl' : null, chord.mod ? 'CmdOrCtrl' : null, chord.shift ? 'Shift' : null, key]
    .filter(Boolean)
    .join('+');
}

/** The parts of a KeyboardEvent a chord is matched against. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

// What a US layout's Shift makes of a key a chord names (KeyboardEvent.key is the shifted one).
const SHIFTED: Record<string, string> = { '}': ']', '{': '[', '?': '/', '<': ',', '>': '.' };

export function chordMatches(chord: KeyChord, press: KeyPress): boolean {
  const key = press.key.toLowerCase();
  const modifier = chord.ctrl
    ? press.ctrlKey && !press.metaKey
    : Boolean(chord.mod) === (press.ctrlKey || press.metaKey);
  return (
    !press.altKey &&
    modifier &&
    Boolean(chord.shift) === press.shiftKey &&
    (key === chord.key.toLowerCase() || (press.shiftKey && SHIFTED[key] === chord.key))
  );
}

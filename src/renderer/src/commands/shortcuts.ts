// The app's keyboard shortcuts, from the app commands' declarations (src/shared/app-commands.ts):
// main.tsx hands every key press to handleShortcut once; Settings → Keyboard shortcuts lists them,
// then the keys that belong to a place rather than a command (Esc, which the retry banner's handler
// stack owns — src/renderer/src/retry/esc-handler.ts —, and the chat list's arrows).
import type { TFunction } from 'i18next';
import { commandLabel } from '../i18n/command-label';
import { appCommands, chordMatches, shortcutsText, type AppCommandId } from '../../../shared/app-commands';

export interface ShortcutRow {
  keys: string;
  /** An app command's, or a place's key (the i18n key shortcuts.<place>). */
  what: { command: AppCommandId } | { place: 'cancel' | 'sessions' };
}

/** macOS says ⌘ where the others say Ctrl. */
function isMac(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
}

export function shortcutList(): ShortcutRow[] {
  const mac = isMac();
  return [
    ...appCommands().flatMap((command) => {
      const keys = shortcutsText(command, mac);
      return keys ? [{ keys, what: { command: command.id } }] : [];
    }),
    { keys: 'Esc', what: { place: 'cancel' } },
    { keys: '↑ ↓ → ←', what: { place: 'sessions' } },
  ];
}

/** A row's words: the command's label (the palette's says it also opens with "/"), or the place's. */
export function shortcutLabel({ what }: ShortcutRow, t: TFunction): string {
  if ('place' in what) return t(`shortcuts.${what.place}`);
  const label = commandLabel(t, what.command);
  return what.command === 'openPalette' ? t('shortcuts.alsoSlash', { command: label }) : label;
}

/**
 * Runs the command whose shortcut this is, with which of its shortcuts it was (Ctrl+3: 2); true when
 * there was one (the key is then used up).
 */
export function handleShortcut(event: KeyboardEvent, run: (id: AppCommandId, which: number) => void): boolean {
  if (event.isComposing) return false;
  for (const command of appCommands()) {
    const which = (command.shortcuts ?? []).findIndex((chord) => chordMatches(chord, event));
    if (which < 0) continue;
    event.preventDefault();
    run(command.id, which);
    return true;
  }
  return false;
}

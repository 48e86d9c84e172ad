// The app's keyboard shortcuts, installed once by main.tsx: Ctrl/Cmd+N a new chat, Ctrl/Cmd+K the
// history's search, Ctrl/Cmd+Shift+P the command palette, Shift+Esc the message box. Settings → Keyboard shortcuts lists them (with Esc,
// which the retry banner's handler stack owns: src/renderer/src/retry/esc-handler.ts).
import type { Actions } from '../store/actions';
import { openCommandPalette } from '../components/palette/CommandPalette';

export interface Shortcut {
  /** The i18n key of what it does (shortcuts.*). */
  what: 'newChat' | 'search' | 'composer' | 'cancel' | 'sessions' | 'palette';
  keys: string;
}

/** macOS says ⌘ where the others say Ctrl. */
function modName(): string {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl';
}

export function shortcutList(): Shortcut[] {
  const mod = modName();
  return [
    { what: 'newChat', keys: `${mod}+N` },
    { what: 'search', keys: `${mod}+K` },
    { what: 'palette', keys: `${mod}+Shift+P` },
    { what: 'composer', keys: 'Shift+Esc' },
    { what: 'cancel', keys: 'Esc' },
    { what: 'sessions', keys: '↑ ↓ → ←' },
  ];
}

export function handleShortcut(event: KeyboardEvent, actions: Actions): boolean {
  const mod = event.ctrlKey || event.metaKey;
  const key = event.key.toLowerCase();
  if (event.isComposing || event.altKey) return false;
  if (mod && !event.shiftKey && key === 'n') {
    void actions.newChat();
  } else if (mod && !event.shiftKey && key === 'k') {
    actions.showView('history');
    actions.requestFocus('history-search');
  } else if (mod && event.shiftKey && key === 'p') {
    openCommandPalette();
  } else if (!mod && event.shiftKey && event.key === 'Escape') {
    actions.showView('chat');
    actions.requestFocus('composer');
  } else {
    return false;
  }
  event.preventDefault();
  return true;
}

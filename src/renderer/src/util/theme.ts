// Applies settings.ui.theme to the document: "light"/"dark" set data-theme, "system" removes it so
// the CSS follows prefers-color-scheme. Called from main.tsx when settings change.
import type { Settings } from '../../../shared/settings';

export function applyTheme(theme: Settings['ui']['theme']): void {
  const root = document.documentElement;
  if (theme === 'system') delete root.dataset.theme;
  else root.dataset.theme = theme;
}

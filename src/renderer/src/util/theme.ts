// Applies settings.ui.theme to the document as data-theme="light"|"dark". "system" resolves
// through prefers-color-scheme here and follows its changes, so the CSS defines each palette once.
// Called from main.tsx when settings change.
import type { Settings } from '../../../shared/settings';

const darkQuery = typeof window !== 'undefined' ? window.matchMedia('(prefers-color-scheme: dark)') : null;
let followSystem = false;

function setResolved(theme: 'light' | 'dark'): void {
  document.documentElement.dataset.theme = theme;
}

darkQuery?.addEventListener('change', (event) => {
  if (followSystem) setResolved(event.matches ? 'dark' : 'light');
});

export function applyTheme(theme: Settings['ui']['theme']): void {
  followSystem = theme === 'system';
  setResolved(theme === 'system' ? (darkQuery?.matches ? 'dark' : 'light') : theme);
}

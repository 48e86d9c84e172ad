// One Resolute per person: a second launch hands over to the running one (which comes to the
// front, with the later launch's arguments: a resolute:// link among them, deep-links.ts) and
// quits. Two instances would race on the same history database and settings file.
// main.ts calls claimSingleInstance before the app is ready. It covers the desktop app only: the
// browser and RPC modes do not take Electron's lock.
import type { App, BrowserWindow } from 'electron';

type SecondInstanceListener = (event: unknown, argv: unknown) => void;

/**
 * Claims the lock; false means another instance runs and this one should quit at once.
 * `handOver` gets each later launch's arguments (its `argv`, as Electron passes them).
 */
export function claimSingleInstance(
  app: Pick<App, 'requestSingleInstanceLock'> & {
    on(event: 'second-instance', listener: SecondInstanceListener): unknown;
  },
  handOver: (argv: readonly string[]) => void,
): boolean {
  if (!app.requestSingleInstanceLock()) return false;
  app.on('second-instance', (_event, argv) =>
    handOver(Array.isArray(argv) ? argv.filter((arg) => typeof arg === 'string') : []),
  );
  return true;
}

export type FocusableWindow = Pick<
  BrowserWindow,
  'isDestroyed' | 'isMinimized' | 'restore' | 'isVisible' | 'show' | 'focus'
>;

/** Bring the window to the front, whatever state it is in; nothing when there is none yet. */
export function focusWindow(win: FocusableWindow | null): void {
  if (!win || win.isDestroyed()) return;
  if (win.isMinimized()) win.restore();
  if (!win.isVisible()) win.show();
  win.focus();
}

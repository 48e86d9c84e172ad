// A run left alone on the desktop (docs/hosts.md, "A run left alone"): the machine is kept awake
// only while a request or a tool runs — never through a countdown, an offline pause or a scheduled
// wait, which check the clock when the machine wakes —, and closing the window while a chat works
// or a retry waits hides it instead, with Resolute in the tray (Windows, Linux) or the dock menu
// (macOS) saying what runs and offering Quit. Decisions only: desktop-shell.ts hands in Electron's
// powerSaveBlocker, Tray and dock, so test/unit/electron/left-alone.test.ts drives them with fakes.
import type { MenuItemConstructorOptions } from 'electron';
import type { SessionActivity } from '../../shared/events';
import type { Translate } from './desktop-i18n';

/** Something a request or a tool is doing right now: the states that are not waits. */
export function runsNow(activities: readonly SessionActivity[]): boolean {
  return activities.some((a) => a.state === 'streaming' || a.state === 'compacting');
}

/** What the live chats are doing, for the tray: how many work (a wait counts) and when the next retry goes out. */
export interface PendingWork {
  working: number;
  nextRetryAt: number | null;
}

export function pendingWork(activities: readonly SessionActivity[]): PendingWork {
  const busy = activities.filter((a) => a.state !== 'idle');
  const retries = busy
    .filter((a) => (a.state === 'retrying' || a.state === 'scheduled') && a.until !== undefined)
    .map((a) => a.until as number);
  return { working: busy.length, nextRetryAt: retries.length > 0 ? Math.min(...retries) : null };
}

/** "2 chats working · next retry 14:05", or that nothing runs. */
export function workStatus(work: PendingWork, t: Translate, formatTime: (epochMs: number) => string): string {
  if (work.working === 0) return t('tray.idle');
  const working = t('tray.working', { count: work.working });
  if (work.nextRetryAt === null) return working;
  return `${working} · ${t('tray.nextRetry', { time: formatTime(work.nextRetryAt) })}`;
}

export interface TrayActions {
  showWindow(): void;
  quit(): void;
}

/** The tray's (or dock's) menu: the state as a line that cannot be clicked, then Show and Quit. */
export function trayMenu(status: string, t: Translate, actions: TrayActions): MenuItemConstructorOptions[] {
  return [
    { label: status, enabled: false },
    { type: 'separator' },
    { label: t('tray.show'), click: () => actions.showWindow() },
    { label: t('tray.quit'), click: () => actions.quit() },
  ];
}

/** Electron's powerSaveBlocker, the part used. */
export interface PowerSaveBlockerPort {
  start(type: 'prevent-app-suspension'): number;
  stop(id: number): void;
}

/** Takes the blocker when a request or a tool starts to run and lets it go when none does. */
export function createKeepAwake(blocker: PowerSaveBlockerPort) {
  let id: number | null = null;
  const release = () => {
    if (id === null) return;
    blocker.stop(id);
    id = null;
  };
  return {
    update(activities: readonly SessionActivity[]): void {
      if (!runsNow(activities)) return release();
      id ??= blocker.start('prevent-app-suspension');
    },
    get held(): boolean {
      return id !== null;
    },
    release,
  };
}

/** Where the state and Quit are shown while the window is hidden: a tray icon, or the dock's menu. */
export interface StatusPlace {
  show(tooltip: string, menu: MenuItemConstructorOptions[]): void;
  clear(): void;
}

export interface LeftAloneDeps {
  platform: NodeJS.Platform;
  /** What the chats that live now are doing (not the stored approvals of chats not loaded). */
  liveActivity(): SessionActivity[];
  tray: StatusPlace;
  dock: StatusPlace;
  actions: TrayActions;
  translate(): Translate;
  formatTime(epochMs: number): string;
}

/** The part of a window a close is decided on. */
export interface HideableWindow {
  hide(): void;
}

/**
 * The close of a window while work is pending: hidden, not closed, and the state shown in the
 * tray or the dock until the window is shown again or the app quits (a quit that goes ahead lets
 * the close through).
 */
export function createCloseToTray(deps: LeftAloneDeps) {
  let quitting = false;
  let hidden = false;
  const place = () => (deps.platform === 'darwin' ? deps.dock : deps.tray);
  const refresh = () => {
    if (!hidden) return;
    const t = deps.translate();
    const status = workStatus(pendingWork(deps.liveActivity()), t, deps.formatTime);
    place().show(status, trayMenu(status, t, deps.actions));
  };
  return {
    /** The window's 'close': true when it was kept (hidden) because work is pending. */
    closing(event: { preventDefault(): void }, win: HideableWindow): boolean {
      if (quitting || pendingWork(deps.liveActivity()).working === 0) return false;
      event.preventDefault();
      win.hide();
      hidden = true;
      refresh();
      return true;
    },
    /** The window is shown again: the tray's part is over. */
    shown(): void {
      if (!hidden) return;
      hidden = false;
      place().clear();
    },
    /** The chats' activity changed: the status line follows while the window is hidden. */
    activityChanged: refresh,
    /** A quit goes ahead: windows close for real. */
    quitting(): void {
      quitting = true;
    },
    get isHidden(): boolean {
      return hidden;
    },
  };
}

// The desktop around the window: the application menu and the About panel (the menu rebuilt when
// the language setting changes), OS notifications for session events that need the person while
// the window is in the background, the badge for chats that want the person, and the question a
// quit asks while retries wait (they are kept for the next start), and a run left alone: the machine
// kept awake while a request or a tool runs, the window hidden to the tray or the dock when closed
// while work is pending; and the updater, whose download is installed by a quit with nothing
// pending. The decisions live in app-menu.ts, attention.ts, left-alone.ts and updates.ts; this
// file only hands them Electron's APIs. main.ts installs it once at start.
import {
  app,
  dialog,
  Menu,
  nativeImage,
  Notification,
  powerSaveBlocker,
  shell,
  Tray,
  type BrowserWindow,
  type MenuItemConstructorOptions,
  type NativeImage,
} from 'electron';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UpdateStatus } from '../../shared/updates';
import { IPC_CHANNELS } from '../../shared/ipc';
import type { LanguageSetting } from '../../shared/settings-values';
import type { LaunchedApp } from '../modes/launch';
import { aboutPanelOptions, menuTemplate } from './app-menu';
import { attentionRouter, createApprovalBadge, createNotifier, quitQuestion } from './attention';
import { activityOf } from '../core/session/session-activity';
import { resolveLanguage } from '../../shared/ui-language';
import { desktopTranslator, type Translate } from './desktop-i18n';
import { createCloseToTray, createKeepAwake, type StatusPlace } from './left-alone';
import {
  createUpdates,
  updatesOff,
  type InstallKind,
  type UpdaterPort,
  type Updates,
  type UpdatesDeps,
} from './updates';

/** Named at run time, so it is read from the app's node_modules only where updates are on (never for a .deb/.rpm). */
const UPDATER_MODULE = 'electron-updater';
import { focusWindow } from './single-instance';

export interface DesktopShellInputs {
  launched: LaunchedApp;
  window(): BrowserWindow | null;
  /** PNG of the app icon (About panel, notifications on Linux). */
  iconPath: string;
  /** The Windows overlay for a waiting approval: 16 px and its 32 px @2x twin. */
  badgePaths: { normal: string; double: string };
  /** The updater (startUpdates), made before the app so Settings → About can reach it. */
  updates: Updates;
}

function openFolder(dir: string): void {
  // The logs folder appears with the first decision record; open it even before that.
  mkdirSync(dir, { recursive: true });
  void shell.openPath(dir).then((error) => {
    if (error) process.stderr.write(`resolute: could not open ${dir} (${error})\n`);
  });
}

function overlayImage(paths: DesktopShellInputs['badgePaths']): NativeImage {
  const image = nativeImage.createFromPath(paths.normal);
  image.addRepresentation({ scaleFactor: 2, buffer: readFileSync(paths.double) });
  return image;
}

function applyMenu(t: Translate, inputs: DesktopShellInputs): void {
  const { services } = inputs.launched;
  const template = menuTemplate({
    platform: process.platform,
    isDev: !app.isPackaged,
    t,
    actions: {
      openDataFolder: () => openFolder(services.dataDir),
      openLogsFolder: () => openFolder(services.logDir),
      runCommand: (id) => inputs.window()?.webContents.send(IPC_CHANNELS.appCommand, id),
    },
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

function electronNotifier(inputs: DesktopShellInputs, translate: () => Translate) {
  // A notification must stay referenced until it is gone, or its click handler may be collected.
  const shown = new Set<Notification>();
  return createNotifier({
    isWindowFocused: () => inputs.window()?.isFocused() ?? false,
    isSupported: () => Notification.isSupported(),
    show: (content, onClick) => {
      const notification = new Notification({ ...content, icon: inputs.iconPath });
      shown.add(notification);
      notification.on('click', onClick);
      notification.on('close', () => shown.delete(notification));
      notification.show();
    },
    focusWindow: () => focusWindow(inputs.window()),
    translate,
  });
}

function electronBadge(inputs: DesktopShellInputs, translate: () => Translate) {
  let overlay: NativeImage | null = null;
  return createApprovalBadge({
    platform: process.platform,
    setBadgeCount: (count) => app.setBadgeCount(count),
    setOverlayIcon: (show, description) => {
      overlay ??= overlayImage(inputs.badgePaths);
      inputs.window()?.setOverlayIcon(show ? overlay : null, description);
    },
    translate,
  });
}

/** A quit while retries wait says how many are kept for the next start, and can be cancelled. */
function confirmQuit(inputs: DesktopShellInputs, t: () => Translate, goesAhead: () => void): void {
  let confirmed = false;
  app.on('before-quit', (event) => {
    const waiting = inputs.launched.services.sessions.waitingChains();
    if (confirmed || waiting === 0) return goesAhead();
    event.preventDefault();
    const window = inputs.window();
    const options = quitQuestion(waiting, t());
    void (window ? dialog.showMessageBox(window, options) : dialog.showMessageBox(options)).then(({ response }) => {
      if (response !== options.defaultId) return;
      confirmed = true;
      app.quit();
    });
  });
}

/** The tray icon (Windows, Linux), made when first needed and removed when the window is back. */
function trayPlace(inputs: DesktopShellInputs): StatusPlace {
  let tray: Tray | null = null;
  return {
    show(tooltip, menu) {
      if (!tray) {
        tray = new Tray(nativeImage.createFromPath(inputs.iconPath).resize({ width: 16, height: 16 }));
        // Windows opens the window on a click; Linux shows the menu, which has Show.
        tray.on('click', () => focusWindow(inputs.window()));
      }
      tray.setToolTip(tooltip);
      tray.setContextMenu(Menu.buildFromTemplate(menu));
    },
    clear() {
      tray?.destroy();
      tray = null;
    },
  };
}

/** The dock's menu on macOS (it has Quit of its own; ours says what runs and shows the window). */
function dockPlace(): StatusPlace {
  const setMenu = (menu: MenuItemConstructorOptions[]) => app.dock?.setMenu(Menu.buildFromTemplate(menu));
  return { show: (_tooltip, menu) => setMenu(menu.slice(0, 3)), clear: () => setMenu([]) };
}

/** Hour and minute in the app's language, for "next retry 14:05". */
function timeFormatter(language: () => string): (epochMs: number) => string {
  return (epochMs) => new Intl.DateTimeFormat(language(), { hour: 'numeric', minute: '2-digit' }).format(epochMs);
}

/** electron-builder's mark of a .deb/.rpm install (resources/package-type); null when absent. */
function packageType(): string | null {
  try {
    return readFileSync(join(process.resourcesPath, 'package-type'), 'utf8');
  } catch {
    return null;
  }
}

/** electron-updater (CommonJS): its autoUpdater, as the part updates.ts uses. */
async function loadAutoUpdater(): Promise<UpdaterPort> {
  const loaded = (await import(UPDATER_MODULE)) as { default: { autoUpdater: UpdaterPort } };
  return loaded.default.autoUpdater;
}

/**
 * The updater, loaded only where updates are on (electron-updater is not even imported for a
 * .deb/.rpm install or a development run), checked once at start; the download runs in the background.
 */
export async function startUpdates(
  pending: UpdatesDeps['pending'],
  onChange: (status: UpdateStatus) => void,
): Promise<Updates> {
  const kind: InstallKind = {
    isPackaged: app.isPackaged,
    platform: process.platform,
    appImage: process.env.APPIMAGE,
    packageType: app.isPackaged ? packageType() : null,
  };
  const updater = updatesOff(kind) === null ? await loadAutoUpdater() : null;
  return createUpdates({
    updater,
    kind,
    version: app.getVersion(),
    pending,
    onChange,
    log: (line) => process.stderr.write(line),
  });
}

/** What a quit would cut or keep: the chats working and the retry chains waiting. */
export function pendingOf(launched: LaunchedApp | null): { working: number; waitingChains: number } {
  if (!launched) return { working: 0, waitingChains: 0 };
  const { sessions } = launched.services;
  return {
    working: sessions.sessions.filter((session) => session.isWorking).length,
    waitingChains: sessions.waitingChains(),
  };
}

export interface DesktopShell {
  /** A window was made: its close hides it while work is pending. */
  watchWindow(win: BrowserWindow): void;
}

export function installDesktopShell(inputs: DesktopShellInputs): DesktopShell {
  const { services, hub } = inputs.launched;
  const translatorFor = (language: LanguageSetting) => desktopTranslator(language, app.getPreferredSystemLanguages());
  let language = services.settings.get().ui.language;
  let t: Translate = translatorFor(language);
  applyMenu(t, inputs);
  app.setAboutPanelOptions(aboutPanelOptions({ version: app.getVersion(), iconPath: inputs.iconPath }));
  const badge = electronBadge(inputs, () => t);
  const attention = attentionRouter({ notify: electronNotifier(inputs, () => t), setBadge: (n) => badge.set(n) });
  const keepAwake = createKeepAwake(powerSaveBlocker);
  const closeToTray = createCloseToTray({
    platform: process.platform,
    liveActivity: () => services.sessions.sessions.map(activityOf),
    tray: trayPlace(inputs),
    dock: dockPlace(),
    actions: { showWindow: () => focusWindow(inputs.window()), quit: () => app.quit() },
    translate: () => t,
    formatTime: timeFormatter(() => resolveLanguage(language, app.getPreferredSystemLanguages())),
  });
  hub.subscribe((event) => {
    if (event.type === 'settings_changed' && event.settings.ui.language !== language) {
      language = event.settings.ui.language;
      t = translatorFor(language);
      applyMenu(t, inputs);
    }
    attention(event);
    if (event.type === 'sessions_activity') {
      keepAwake.update(event.sessions);
      closeToTray.activityChanged();
    }
  });
  // The first check, once the window is on its way; the download runs in the background.
  void inputs.updates.check();
  confirmQuit(
    inputs,
    () => t,
    () => {
      closeToTray.quitting();
      // Installed by this quit only with nothing pending; else kept for a later quit (updates.ts).
      inputs.updates.quitting();
    },
  );
  app.on('will-quit', () => keepAwake.release());
  return {
    watchWindow(win) {
      win.on('close', (event) => closeToTray.closing(event, win));
      win.on('show', () => closeToTray.shown());
    },
  };
}

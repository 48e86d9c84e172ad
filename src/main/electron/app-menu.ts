// The application menu and the About panel. Standard roles wherever Electron has one — they bring
// the platform's labels, accelerators and behaviour (the Edit menu is what makes copy, paste and
// undo work on macOS) — plus the app commands declared for File and View (src/shared/app-commands.ts;
// a click sends the command to the window, which runs it), View's zoom (reload and developer tools
// only in development) and Help (the data folder, the logs). Pure: main.ts builds the Menu from this.
import type { AboutPanelOptionsOptions, MenuItemConstructorOptions } from 'electron';
import { appCommands, chordAccelerator, type AppCommandId, type AppCommandSpec } from '../../shared/app-commands';
import type { Translate } from './desktop-i18n';

export interface MenuActions {
  openDataFolder(): void;
  openLogsFolder(): void;
  /** An app command chosen: the window runs it. */
  runCommand(id: AppCommandId): void;
}

export interface MenuInputs {
  platform: NodeJS.Platform;
  /** Development build (electron-vite dev or an unpackaged run): adds reload and the developer tools. */
  isDev: boolean;
  t: Translate;
  actions: MenuActions;
}

const separator: MenuItemConstructorOptions = { type: 'separator' };

/**
 * The app commands declared for one menu, in their declared order. The shortcut is shown but not
 * registered where Electron allows (Linux, Windows): the window's own key handler runs it, so one
 * press never runs it twice. macOS's menu takes its keys first, and its click sends the command.
 */
function commandItems(menu: AppCommandSpec['menu'], t: Translate, actions: MenuActions): MenuItemConstructorOptions[] {
  return appCommands()
    .filter((command) => command.menu === menu)
    .map(({ id, shortcuts }) => ({
      label: t(`commands.${id}`),
      ...(shortcuts?.[0] ? { accelerator: chordAccelerator(shortcuts[0]), registerAccelerator: false } : {}),
      click: () => actions.runCommand(id),
    }));
}

function fileMenu(isMac: boolean, t: Translate, actions: MenuActions): MenuItemConstructorOptions {
  return {
    label: t('menu.file'),
    submenu: [...commandItems('file', t, actions), separator, isMac ? { role: 'close' } : { role: 'quit' }],
  };
}

function viewMenu(isDev: boolean, t: Translate, actions: MenuActions): MenuItemConstructorOptions {
  const devItems: MenuItemConstructorOptions[] = isDev
    ? [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, separator]
    : [];
  return {
    label: t('menu.view'),
    submenu: [
      ...commandItems('view', t, actions),
      separator,
      ...devItems,
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' },
    ],
  };
}

function helpMenu(platform: NodeJS.Platform, t: Translate, actions: MenuActions): MenuItemConstructorOptions {
  const folders: MenuItemConstructorOptions[] = [
    { label: t('menu.openDataFolder'), click: () => actions.openDataFolder() },
    { label: t('menu.openLogsFolder'), click: () => actions.openLogsFolder() },
  ];
  // macOS puts About in the app menu; elsewhere it belongs at the foot of Help.
  const about: MenuItemConstructorOptions[] = platform === 'darwin' ? [] : [separator, { role: 'about' }];
  return { role: 'help', label: t('menu.help'), submenu: [...folders, ...about] };
}

export function menuTemplate({ platform, isDev, t, actions }: MenuInputs): MenuItemConstructorOptions[] {
  const isMac = platform === 'darwin';
  return [
    ...(isMac ? [{ role: 'appMenu' } as const] : []),
    fileMenu(isMac, t, actions),
    { role: 'editMenu' },
    viewMenu(isDev, t, actions),
    ...(isMac ? [{ role: 'windowMenu' } as const] : []),
    helpMenu(platform, t, actions),
  ];
}

export interface AboutInputs {
  version: string;
  /** A PNG of the icon, shown by the About panel on Linux and Windows. */
  iconPath: string;
}

export function aboutPanelOptions({ version, iconPath }: AboutInputs): AboutPanelOptionsOptions {
  return {
    applicationName: 'Resolute',
    applicationVersion: version,
    copyright: 'Copyright © the Resolute authors',
    iconPath,
  };
}

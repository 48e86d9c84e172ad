// The application menu and the About panel. Standard roles wherever Electron has one — they bring
// the platform's labels, accelerators and behaviour (the Edit menu is what makes copy, paste and
// undo work on macOS) — plus View (zoom; reload and developer tools only in development) and Help
// (the data folder, the logs). Pure: main.ts builds the Menu from this template.
import type { AboutPanelOptionsOptions, MenuItemConstructorOptions } from 'electron';
import type { Translate } from './desktop-i18n';

export interface MenuActions {
  openDataFolder(): void;
  openLogsFolder(): void;
}

export interface MenuInputs {
  platform: NodeJS.Platform;
  /** Development build (electron-vite dev or an unpackaged run): adds reload and the developer tools. */
  isDev: boolean;
  t: Translate;
  actions: MenuActions;
}

const separator: MenuItemConstructorOptions = { type: 'separator' };

function viewMenu(isDev: boolean, t: Translate): MenuItemConstructorOptions {
  const devItems: MenuItemConstructorOptions[] = isDev
    ? [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, separator]
    : [];
  return {
    label: t('menu.view'),
    submenu: [
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
    { role: 'fileMenu' },
    { role: 'editMenu' },
    viewMenu(isDev, t),
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

// The Electron host's lifecycle: one instance per data folder, one hardened window that reopens
// where it was, the contract over IPC (ipc-transport.ts) and the menu, notifications and badge
// (desktop-shell.ts). All app logic comes from the shared start-up (modes/launch.ts); this file
// only adapts Electron.
import { app, BrowserWindow, dialog, ipcMain, safeStorage, screen } from 'electron';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import badgePath from '../../../resources/badge.png?asset&asarUnpack';
import badge2xPath from '../../../resources/badge@2x.png?asset&asarUnpack';
import iconPath from '../../../resources/icons/256x256.png?asset&asarUnpack';
import { launchApp, ourFlags, parseCommonFlags, type CommonFlags, type LaunchedApp } from '../modes/launch';
import { defaultDataDir } from '../node/app-services';
import type { SecretCipher } from '../node/credential-store';
import { isHistoryDatabaseError } from '../node/history/history-errors';
import { IPC_CHANNELS } from '../../shared/ipc';
import { installDesktopShell } from './desktop-shell';
import { electronNetworkCheck } from './network';
import { wireIpc } from './ipc-transport';
import { hardenedWebPreferences, installGlobalGuards } from './security';
import { claimSingleInstance, focusWindow } from './single-instance';
import { mainWindowOptions } from './window-options';
import { placeWindow, rememberOnClose, WindowStateFile } from './window-state';

let mainWindow: BrowserWindow | null = null;
let launched: LaunchedApp | null = null;

function flagsFromArgv(): CommonFlags {
  const args = ourFlags(process.argv.slice(app.isPackaged ? 1 : 2));
  try {
    return parseCommonFlags(args);
  } catch (error) {
    process.stderr.write(`resolute: ignoring flags (${String(error)})\n`);
    return parseCommonFlags([]);
  }
}

/** API keys at rest are sealed with the OS keychain where Electron offers it. */
function safeStorageCipher(): SecretCipher | undefined {
  if (!safeStorage.isEncryptionAvailable()) return undefined;
  return {
    encrypt: (plain) => safeStorage.encryptString(plain).toString('base64'),
    decrypt: (sealed) => safeStorage.decryptString(Buffer.from(sealed, 'base64')),
  };
}

async function launch(flags: CommonFlags): Promise<LaunchedApp> {
  try {
    return await launchApp(flags, 'electron', safeStorageCipher(), electronNetworkCheck);
  } catch (error) {
    if (!isHistoryDatabaseError(error) || error.kind !== 'damaged') throw error;
    const choice = await dialog.showMessageBox({
      type: 'error',
      message: 'The history database is damaged',
      detail: `${error.message}\n\nStart a new history? The damaged file is kept beside it.`,
      buttons: ['Start a new history', 'Quit'],
      defaultId: 1,
      cancelId: 1,
    });
    if (choice.response !== 0) throw error;
    return launchApp({ ...flags, resetDamagedHistory: true }, 'electron', safeStorageCipher(), electronNetworkCheck);
  }
}

function rendererUrl(): string {
  return (
    process.env.ELECTRON_RENDERER_URL ??
    pathToFileURL(fileURLToPath(new URL('../renderer/index.html', import.meta.url))).href
  );
}

function createWindow(dataDir: string): BrowserWindow {
  const stateFile = new WindowStateFile({ path: join(dataDir, 'window-state.json') });
  // The primary display first: a window with no reachable saved position is centred on it.
  const workAreas = [screen.getPrimaryDisplay(), ...screen.getAllDisplays()].map((display) => display.workArea);
  const placement = placeWindow(stateFile.load(), workAreas);
  const win = new BrowserWindow(
    mainWindowOptions({
      placement,
      webPreferences: hardenedWebPreferences(fileURLToPath(new URL('../preload/index.cjs', import.meta.url))),
      iconPath,
      platform: process.platform,
    }),
  );
  rememberOnClose(win, stateFile);
  win.once('ready-to-show', () => {
    if (placement.isMaximized) win.maximize();
    win.show();
  });
  void win.loadURL(rendererUrl());
  return win;
}

async function start(flags: CommonFlags): Promise<void> {
  installGlobalGuards();
  try {
    launched = await launch(flags);
  } catch (error) {
    dialog.showErrorBox('Resolute could not start', error instanceof Error ? error.message : String(error));
    app.quit();
    return;
  }
  const { dataDir } = launched.services;
  wireIpc({
    ipcMain,
    callChannel: IPC_CHANNELS.call,
    eventChannel: IPC_CHANNELS.event,
    window: () => mainWindow,
    rendererBase: rendererUrl().replace(/index\.html$/, ''),
    router: launched.router,
    hub: launched.hub,
  });
  installDesktopShell({
    launched,
    window: () => mainWindow,
    iconPath,
    badgePaths: { normal: badgePath, double: badge2xPath },
  });
  mainWindow = createWindow(dataDir);
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow(dataDir);
  });
}

/** Electron's own profile and its single-instance lock live in our data folder, so each data
 * folder (e.g. a test's temporary one) is its own instance. */
function useDataFolderForElectron(flags: CommonFlags): void {
  const dir = resolve(flags.dataDir ?? defaultDataDir());
  try {
    mkdirSync(dir, { recursive: true });
    app.setPath('userData', dir);
  } catch {
    // An unusable folder is reported by launch() in a dialog, once the app is ready to show one.
  }
}

const startFlags = flagsFromArgv();
useDataFolderForElectron(startFlags);
app.enableSandbox();
if (claimSingleInstance(app, () => focusWindow(mainWindow))) void app.whenReady().then(() => start(startFlags));
else app.quit();

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

app.on('will-quit', (event) => {
  if (!launched) return;
  const closing = launched;
  launched = null;
  event.preventDefault();
  void closing.services.dispose().finally(() => app.quit());
});

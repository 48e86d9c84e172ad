// The Electron host's lifecycle: one instance per data folder, one hardened window that reopens
// where it was, the contract over IPC (ipc-transport.ts) and the menu, notifications and badge
// (desktop-shell.ts). All app logic comes from the shared start-up (modes/launch.ts); this file
// only adapts Electron. The page is served from resolute://app/ (renderer-protocol.ts); links to
// resolute://chat/…, new and mcp/add come from the OS (deep-links.ts) and go to the page.
import { app, BrowserWindow, dialog, ipcMain, protocol, safeStorage, screen } from 'electron';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import badgePath from '../../../resources/badge.png?asset&asarUnpack';
import badge2xPath from '../../../resources/badge@2x.png?asset&asarUnpack';
import iconPath from '../../../resources/icons/256x256.png?asset&asarUnpack';
import { launchApp, ourFlags, parseCommonFlags, type CommonFlags, type LaunchedApp } from '../modes/launch';
import { resolveDataDir, type SaveFileRequest } from '../node/app-options';
import { writeExport } from '../node/export-files';
import { fileKeyCipher, KEY_FILE_NAME, type SecretCipher } from '../node/credential-store';
import { DataFolderLockedError } from '../node/data-lock';
import { adoptLoginPath } from '../node/login-path';
import { isHistoryDatabaseError } from '../node/history/history-errors';
import { IPC_CHANNELS } from '../../shared/ipc';
import { installDesktopShell, pendingOf, startUpdates, type DesktopShell } from './desktop-shell';
import type { Updates } from './updates';
import { electronNetworkCheck } from './network';
import { wireIpc } from './ipc-transport';
import { chooseKeyStorage } from './key-storage';
import { rendererSchemePrivileges, rendererUrl, serveRenderer, usesDevServer } from './renderer-protocol';
import { hardenedWebPreferences, installGlobalGuards } from './security';
import { claimSingleInstance, focusWindow } from './single-instance';
import { createLinkInbox, followPage, wireDeepLinks } from './deep-links';
import { mainWindowOptions } from './window-options';
import { placeWindow, rememberOnClose, WindowStateFile } from './window-state';
import { errorText } from '../../shared/text';

let mainWindow: BrowserWindow | null = null;
let launched: LaunchedApp | null = null;
let desktopShell: DesktopShell | null = null;
/** The Vite dev server is honoured only by an unpackaged app (renderer-protocol.ts). */
const page = { isPackaged: app.isPackaged, devServerUrl: process.env.ELECTRON_RENDERER_URL };

function flagsFromArgv(): CommonFlags {
  const args = ourFlags(process.argv.slice(app.isPackaged ? 1 : 2));
  try {
    return parseCommonFlags(args);
  } catch (error) {
    process.stderr.write(`resolute: ignoring flags (${String(error)})\n`);
    return parseCommonFlags([]);
  }
}

/** API keys at rest are sealed with the OS keychain; without one, the person is asked first (key-storage.ts). */
function keyStorage(flags: CommonFlags): Promise<SecretCipher> {
  const dataDir = resolveDataDir(flags.dataDir);
  return chooseKeyStorage({
    safeStorage,
    keyFileExists: existsSync(join(dataDir, KEY_FILE_NAME)),
    keyFileCipher: () => fileKeyCipher(dataDir),
    askToUseKeyFile: async (question) => {
      const choice = await dialog.showMessageBox({
        type: 'warning',
        message: 'No system keychain',
        detail: question,
        buttons: ['Use a key file', "Don't store keys"],
        defaultId: 0,
        cancelId: 1,
      });
      return choice.response === 0;
    },
  });
}

/** The workspace picker's native folder dialog (docs/tools.md, "The workspace"); null when cancelled. */
async function pickFolder(): Promise<string | null> {
  const options: Electron.OpenDialogOptions = {
    title: 'Choose the workspace folder',
    properties: ['openDirectory', 'createDirectory'],
  };
  const result = mainWindow ? await dialog.showOpenDialog(mainWindow, options) : await dialog.showOpenDialog(options);
  return result.canceled ? null : (result.filePaths[0] ?? null);
}

/** History → Export: a save dialog says where the file goes (its images' folder beside it); null when cancelled. */
async function saveFile(file: SaveFileRequest): Promise<string | null> {
  const options = { defaultPath: file.filename };
  const choice = mainWindow ? await dialog.showSaveDialog(mainWindow, options) : await dialog.showSaveDialog(options);
  if (choice.canceled || !choice.filePath) return null;
  await writeExport(choice.filePath, file);
  return choice.filePath;
}

/** The app and its updater, made first so Settings → About reaches it through the app's commands. */
async function launch(flags: CommonFlags): Promise<{ app: LaunchedApp; updates: Updates }> {
  // Started from the Finder or a launcher, the app lacks the login shell's PATH: read it once, now (login-path.ts).
  const [cipher, loginPath, updater] = await Promise.all([
    keyStorage(flags),
    adoptLoginPath(),
    startUpdates(
      () => pendingOf(launched),
      (status) => launched?.hub.publish({ type: 'update_status', status }),
    ),
  ]);
  const parts = {
    cipher,
    pickFolder,
    saveFile,
    networkCheck: electronNetworkCheck,
    pathSource: loginPath.source,
    updates: updater,
  };
  try {
    return { app: await launchApp(flags, 'electron', parts), updates: updater };
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
    return { app: await launchApp({ ...flags, resetDamagedHistory: true }, 'electron', parts), updates: updater };
  }
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
  followPage(win.webContents, linkInbox);
  // Closed while a chat works or a retry waits, it is hidden and Resolute stays in the tray or the dock.
  desktopShell?.watchWindow(win);
  win.once('ready-to-show', () => {
    if (placement.isMaximized) win.maximize();
    win.show();
  });
  void win.loadURL(rendererUrl(page));
  return win;
}

async function start(flags: CommonFlags): Promise<void> {
  let updates: Updates;
  installGlobalGuards({ isDevServer: usesDevServer(page) });
  serveRenderer(protocol, fileURLToPath(new URL('../renderer', import.meta.url)));
  try {
    ({ app: launched, updates } = await launch(flags));
  } catch (error) {
    // Another Resolute (this app, or the browser or RPC mode) has the data folder: say so and quit cleanly.
    if (error instanceof DataFolderLockedError)
      await dialog.showMessageBox({ type: 'info', message: 'Resolute is already running', detail: error.message });
    else dialog.showErrorBox('Resolute could not start', errorText(error));
    app.quit();
    return;
  }
  const { dataDir } = launched.services;
  wireIpc({
    ipcMain,
    callChannel: IPC_CHANNELS.call,
    eventChannel: IPC_CHANNELS.event,
    window: () => mainWindow,
    rendererBase: rendererUrl(page).replace(/index\.html$/, ''),
    router: launched.router,
    hub: launched.hub,
  });
  desktopShell = installDesktopShell({
    launched,
    window: () => mainWindow,
    iconPath,
    badgePaths: { normal: badgePath, double: badge2xPath },
    updates,
  });
  mainWindow = createWindow(dataDir);
  app.on('activate', () => {
    // A window hidden while work went on comes back as it was; a closed one is made again.
    if (mainWindow && !mainWindow.isDestroyed()) focusWindow(mainWindow);
    else if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow(dataDir);
  });
}

/** Electron's own profile and its single-instance lock live in our data folder, so each data
 * folder (e.g. a test's temporary one) is its own instance. */
function useDataFolderForElectron(flags: CommonFlags): void {
  const dir = resolve(resolveDataDir(flags.dataDir));
  try {
    mkdirSync(dir, { recursive: true });
    app.setPath('userData', dir);
  } catch {
    // An unusable folder is reported by launch() in a dialog, once the app is ready to show one.
  }
}

/** A link brings the window forward; on macOS, where the app outlives its window, one is made again. */
function showForLink(): void {
  if (mainWindow && !mainWindow.isDestroyed()) focusWindow(mainWindow);
  else if (launched) mainWindow = createWindow(launched.services.dataDir);
}

const linkInbox = createLinkInbox((url) => mainWindow?.webContents.send(IPC_CHANNELS.link, url));
const startFlags = flagsFromArgv();
useDataFolderForElectron(startFlags);
app.enableSandbox();
// Before ready, as Electron requires: the page's own origin, resolute://app/ (renderer-protocol.ts).
protocol.registerSchemesAsPrivileged([rendererSchemePrivileges]);
// Before ready too: macOS's open-url for the link that started the app comes that early.
const deepLinks = wireDeepLinks({
  app,
  launch: { isDefaultApp: process.defaultApp === true, execPath: process.execPath, argv: process.argv },
  inbox: linkInbox,
  focus: showForLink,
});
const handOver = (argv: readonly string[]): void => {
  focusWindow(mainWindow);
  deepLinks.secondInstance(argv);
};
if (claimSingleInstance(app, handOver)) void app.whenReady().then(() => start(startFlags));
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

// The Electron host: one hardened window, the contract over ipcMain (sender-checked) and the
// session events pushed to the window. All app logic comes from the shared start-up
// (modes/launch.ts); this file only adapts Electron.
import { app, BrowserWindow, dialog, ipcMain, protocol, safeStorage } from 'electron';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchApp, ourFlags, parseCommonFlags, type CommonFlags, type LaunchedApp } from '../modes/launch';
import { resolveDataDir } from '../node/app-services';
import { fileKeyCipher, KEY_FILE_NAME, type SecretCipher } from '../node/credential-store';
import { DataFolderLockedError } from '../node/data-lock';
import { isHistoryDatabaseError } from '../node/history/history-errors';
import { IPC_CHANNELS } from '../../shared/ipc';
import type { ResponseFrame } from '../../shared/wire';
import { chooseKeyStorage } from './key-storage';
import { rendererSchemePrivileges, rendererUrl, serveRenderer, usesDevServer } from './renderer-protocol';
import { hardenedWebPreferences, installGlobalGuards, isTrustedSender } from './security';

let mainWindow: BrowserWindow | null = null;
let launched: LaunchedApp | null = null;
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

async function launch(flags: CommonFlags): Promise<LaunchedApp> {
  const cipher = await keyStorage(flags);
  try {
    return await launchApp(flags, 'electron', cipher);
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
    return launchApp({ ...flags, resetDamagedHistory: true }, 'electron', cipher);
  }
}

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1100,
    height: 760,
    minWidth: 800,
    minHeight: 600,
    show: false,
    title: 'Resolute',
    webPreferences: hardenedWebPreferences(fileURLToPath(new URL('../preload/index.cjs', import.meta.url))),
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(rendererUrl(page));
  return win;
}

function wireIpc(app: LaunchedApp): void {
  const base = rendererUrl(page).replace(/index\.html$/, '');
  ipcMain.handle(IPC_CHANNELS.call, async (event, frame: unknown): Promise<ResponseFrame> => {
    if (!isTrustedSender(mainWindow, event.sender, event.senderFrame, base)) {
      return {
        kind: 'response',
        id: null,
        ok: false,
        error: { code: 'unauthorized', message: 'IPC from an untrusted sender' },
      };
    }
    return app.router.dispatch(frame);
  });
  app.hub.subscribe((event) => {
    if (mainWindow && !mainWindow.isDestroyed()) mainWindow.webContents.send(IPC_CHANNELS.event, event);
  });
}

app.enableSandbox();
// Before ready, as Electron requires: the page's own origin, resolute://app/ (renderer-protocol.ts).
protocol.registerSchemesAsPrivileged([rendererSchemePrivileges]);
app.whenReady().then(async () => {
  installGlobalGuards({ isDevServer: usesDevServer(page) });
  serveRenderer(protocol, fileURLToPath(new URL('../renderer', import.meta.url)));
  try {
    launched = await launch(flagsFromArgv());
  } catch (error) {
    // Another Resolute (this app, or the browser or RPC mode) has the data folder: say so and quit cleanly.
    if (error instanceof DataFolderLockedError)
      await dialog.showMessageBox({ type: 'info', message: 'Resolute is already running', detail: error.message });
    else dialog.showErrorBox('Resolute could not start', error instanceof Error ? error.message : String(error));
    app.quit();
    return;
  }
  wireIpc(launched);
  mainWindow = createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow();
  });
});

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

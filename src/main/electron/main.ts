// The Electron host: one hardened window, the contract over ipcMain (sender-checked) and the
// session events pushed to the window. All app logic comes from the shared start-up
// (modes/launch.ts); this file only adapts Electron.
import { app, BrowserWindow, dialog, ipcMain, safeStorage } from 'electron';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchApp, ourFlags, parseCommonFlags, type CommonFlags, type LaunchedApp } from '../modes/launch';
import type { SecretCipher } from '../node/credential-store';
import { isHistoryDatabaseError } from '../node/history/history-errors';
import { IPC_CHANNELS } from '../../shared/ipc';
import type { ResponseFrame } from '../../shared/wire';
import { hardenedWebPreferences, installGlobalGuards, isTrustedSender } from './security';

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
    return await launchApp(flags, 'electron', safeStorageCipher());
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
    return launchApp({ ...flags, resetDamagedHistory: true }, 'electron', safeStorageCipher());
  }
}

function rendererUrl(): string {
  return (
    process.env.ELECTRON_RENDERER_URL ??
    pathToFileURL(fileURLToPath(new URL('../renderer/index.html', import.meta.url))).href
  );
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
  void win.loadURL(rendererUrl());
  return win;
}

function wireIpc(app: LaunchedApp): void {
  const base = rendererUrl().replace(/index\.html$/, '');
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
app.whenReady().then(async () => {
  installGlobalGuards();
  try {
    launched = await launch(flagsFromArgv());
  } catch (error) {
    dialog.showErrorBox('Resolute could not start', error instanceof Error ? error.message : String(error));
    app.quit();
    return;
  }
  wireIpc(launched);
  // History → Export: a save dialog says where the file goes.
  launched.services.setSaveFile(async ({ filename, content }) => {
    const options = { defaultPath: filename };
    const choice = mainWindow ? await dialog.showSaveDialog(mainWindow, options) : await dialog.showSaveDialog(options);
    if (choice.canceled || !choice.filePath) return null;
    await writeFile(choice.filePath, content);
    return choice.filePath;
  });
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

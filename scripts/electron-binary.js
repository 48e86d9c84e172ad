// Finds the Electron binary without triggering Electron 45's download-on-first-use (which
// cannot work on a machine without GitHub access): returns its path, or null when absent.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export function electronBinary() {
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    const name =
      process.platform === 'win32'
        ? 'electron.exe'
        : process.platform === 'darwin'
          ? 'Electron.app/Contents/MacOS/Electron'
          : 'electron';
    const path = join(process.env.ELECTRON_OVERRIDE_DIST_PATH, name);
    return existsSync(path) ? path : null;
  }
  const pathFile = join(root, 'node_modules', 'electron', 'path.txt');
  if (!existsSync(pathFile)) return null;
  const path = join(root, 'node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(path) ? path : null;
}

// Opens the browser mode for the person (cli.ts, unless --no-open): first an app-mode window of a
// Chromium-family browser found on the machine, else the system default browser (the `open`
// package: xdg-open, open, start), else nothing more — the URL stays printed either way. Linux
// without a display (DISPLAY / WAYLAND_DISPLAY) tries nothing. Each try gets a fresh one-time
// launch link, and never on a command line, which every local user can read: the app window gets
// it over its DevTools pipe, the default browser in a private file (launch-file.ts). A window an
// earlier run left on the app window's profile is closed first (earlier-window.ts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import open from 'open';
import { openAppWindow, type AppWindow, type AppWindowOptions } from './app-window';
import { canShowWindows, findBrowser, type Env } from './browser-finder';
import { closeEarlierWindow } from './earlier-window';
import { removeLaunchFile, writeLaunchFile } from './launch-file';
import type { Launch, LaunchOpener } from './launch-codes';
import { errorText } from '../../../shared/text';

/** The app window's browser profile, inside the data folder so the person's own browser is untouched. */
export const PROFILE_FOLDER = 'browser-profile';

/** What the opening needs from the machine; tests pass their own. */
export interface OpenDeps {
  platform: NodeJS.Platform;
  env: Env;
  exists: (path: string) => boolean;
  runsAsRoot: boolean;
  openAppWindow: (options: AppWindowOptions) => Promise<AppWindow>;
  /** Open a file (the launch page) in the system's default browser. */
  openDefaultBrowser: (path: string) => Promise<unknown>;
  /** Close a window an earlier run left on the profile; true when there was one. */
  closeEarlierWindow: (profileDir: string) => Promise<boolean>;
}

export function machineDeps(): OpenDeps {
  return {
    platform: process.platform,
    env: process.env,
    exists: existsSync,
    runsAsRoot: process.platform === 'linux' && process.getuid?.() === 0,
    openAppWindow,
    openDefaultBrowser: (path) => open(path),
    closeEarlierWindow: (profileDir) => closeEarlierWindow(profileDir),
  };
}

const WINDOW_REFUSED =
  'The app window did not get the app: its launch link was refused (another program may have used it ' +
  'first; what it got was withdrawn before it could do anything). Open the URL above, or restart Resolute.';

/** A new one-time launch link (browser-server.ts). */
export type LaunchLinks = (opener: LaunchOpener) => { url: string; launch: Launch };

/**
 * Open the app for the person, at a new launch link for each browser tried; `say` reports what
 * happened in one line. Returns the app window when one was opened — closing it is the person's
 * way to stop the browser mode.
 */
export async function openForPerson(
  launchLink: LaunchLinks,
  dataDir: string,
  say: (line: string) => void,
  deps: OpenDeps = machineDeps(),
): Promise<AppWindow | null> {
  if (!canShowWindows(deps.platform, deps.env)) {
    say('No display (neither DISPLAY nor WAYLAND_DISPLAY is set): open the URL above in a browser.');
    return null;
  }
  const browser = findBrowser(deps.platform, deps.env, deps.exists);
  if (browser) {
    const profileDir = join(dataDir, PROFILE_FOLDER);
    try {
      // Its page's token is dead: the new window replaces it (earlier-window.ts).
      if (await deps.closeEarlierWindow(profileDir)) say('Closed the window an earlier run of Resolute left open.');
      // The window's word decides whether this link's token may be used: its own load got the page.
      const link = launchLink('window');
      const window = await deps
        .openAppWindow({
          executable: browser.path,
          url: link.url,
          profileDir,
          runsAsRoot: deps.runsAsRoot,
          onLoaded: (loaded) => {
            if (loaded) return link.launch.confirm();
            link.launch.revoke();
            say(WINDOW_REFUSED);
          },
        })
        .catch((error: unknown) => {
          link.launch.revoke();
          throw error;
        });
      say(`Opened in a ${browser.name} app window; closing it stops Resolute (so does Ctrl+C).`);
      return window;
    } catch (error) {
      say(`${browser.name} (${browser.path}) did not open the app window: ${errorText(error)}.`);
    }
  }
  try {
    const link = launchLink('file');
    const file = writeLaunchFile(dataDir, link.url);
    void link.launch.used.then(() => removeLaunchFile(file));
    await deps.openDefaultBrowser(file);
    say('Opened in the default browser; Ctrl+C stops Resolute. If it cannot open the page, open the URL above.');
  } catch (error) {
    say(`No browser could be opened (${errorText(error)}): open the URL above yourself.`);
  }
  return null;
}

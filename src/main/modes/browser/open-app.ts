// Opens the browser mode for the person (cli.ts, unless --no-open): first an app-mode window of a
// Chromium-family browser found on the machine, else the system default browser (the `open`
// package: xdg-open, open, start), else nothing more — the URL stays printed either way. Linux
// without a display (DISPLAY / WAYLAND_DISPLAY) tries nothing. Each try gets a fresh one-time
// launch link, never the token: a command line is readable by every local user. A window an
// earlier run left on the app window's profile is closed first (earlier-window.ts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import open from 'open';
import { openAppWindow, type AppWindow, type AppWindowOptions } from './app-window';
import { canShowWindows, findBrowser, type Env } from './browser-finder';
import { closeEarlierWindow } from './earlier-window';
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
  openDefaultBrowser: (url: string) => Promise<unknown>;
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
    openDefaultBrowser: (url) => open(url),
    closeEarlierWindow: (profileDir) => closeEarlierWindow(profileDir),
  };
}

/**
 * Open the app for the person, at a new `launchUrl()` for each browser tried; `say` reports what
 * happened in one line. Returns the app window when one was opened — closing it is the person's
 * way to stop the browser mode.
 */
export async function openForPerson(
  launchUrl: () => string,
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
      const window = await deps.openAppWindow({
        executable: browser.path,
        url: launchUrl(),
        profileDir,
        runsAsRoot: deps.runsAsRoot,
      });
      say(`Opened in a ${browser.name} app window; closing it stops Resolute (so does Ctrl+C).`);
      return window;
    } catch (error) {
      say(`${browser.name} (${browser.path}) did not open the app window: ${errorText(error)}.`);
    }
  }
  try {
    await deps.openDefaultBrowser(launchUrl());
    say('Opened in the default browser; Ctrl+C stops Resolute.');
  } catch (error) {
    say(`No browser could be opened (${errorText(error)}): open the URL above yourself.`);
  }
  return null;
}

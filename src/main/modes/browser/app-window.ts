// The app-mode window of the browser mode: a Chromium-family browser started with --app=URL on a
// profile folder of its own, watched over the DevTools pipe so that closing the window is noticed
// on every OS (on macOS the browser would stay running with no window). Started by open-app.ts;
// cli.ts stops the browser mode when `closed` settles and closes the window on Ctrl+C.
import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { DevtoolsPipe, type TargetEvent } from './devtools-pipe';

export interface AppWindowOptions {
  executable: string;
  url: string;
  /** The browser's own profile folder (cookies, window state), apart from the person's browser. */
  profileDir: string;
  /** Root on Linux: Chromium then refuses to start unless its sandbox is switched off. */
  runsAsRoot: boolean;
}

export interface AppWindow {
  /** Settles when the person closes the window or the browser exits. */
  readonly closed: Promise<void>;
  /** Close the window and the browser (Ctrl+C, or the server stopping). */
  close(): Promise<void>;
}

/** Large enough for the sidebar, the chat and the retry banner; small enough for a 1366×768 laptop. */
export const WINDOW_SIZE = { width: 1200, height: 760 };
const EXIT_GRACE_MS = 5000;

export function appWindowArgs(options: Omit<AppWindowOptions, 'executable'>): string[] {
  return [
    `--app=${options.url}`,
    `--user-data-dir=${options.profileDir}`,
    `--window-size=${WINDOW_SIZE.width},${WINDOW_SIZE.height}`,
    '--remote-debugging-pipe',
    // A private profile that stays quiet: no first-run or default-browser prompts, no sign-in
    // sync, no background or component downloads — the window only ever shows 127.0.0.1.
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-sync',
    '--disable-background-networking',
    '--disable-component-update',
    // Chromium will not start as root with its sandbox on (root desktops are containers and CI
    // machines, where the sandbox's namespaces are usually unavailable anyway); it stays on otherwise.
    ...(options.runsAsRoot ? ['--no-sandbox'] : []),
  ];
}

/** Start the window; resolves once the browser shows the app, rejects if it fails or exits first. */
export function openAppWindow(options: AppWindowOptions): Promise<AppWindow> {
  const child = spawn(options.executable, appWindowArgs(options), {
    // Chromium's own logging (D-Bus, GPU…) would drown the terminal; fds 3 and 4 are the pipe.
    stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'],
  });
  // Why the browser went away: the reason a launch failed, or merely the end of a closed window.
  const exited = new Promise<string>((resolve) => {
    child.once('error', (error) => resolve(`could not be started (${error.message})`));
    child.once('exit', (code, signal) => resolve(`exited (${signal ?? `code ${code}`}) before showing the app`));
  });
  const isApp = appOrigin(options.url);
  const appPages = new Set<string>();
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  let markShown!: () => void;
  const shown = new Promise<void>((resolve) => (markShown = resolve));

  const onTarget = (event: TargetEvent) => {
    if (event.method === 'Target.targetDestroyed') {
      if (!appPages.delete(event.params.targetId) || appPages.size > 0) return;
      markClosed();
      pipe.send('Browser.close');
    } else if (event.params.targetInfo.type === 'page' && isApp(event.params.targetInfo.url)) {
      appPages.add(event.params.targetInfo.targetId);
      markShown();
    }
  };
  const pipe = new DevtoolsPipe(child.stdio[3] as Writable, child.stdio[4] as Readable, onTarget);
  pipe.send('Target.setDiscoverTargets', { discover: true });

  const window: AppWindow = {
    closed,
    async close() {
      pipe.send('Browser.close');
      const timer = new Promise((resolve) => setTimeout(resolve, EXIT_GRACE_MS).unref());
      await Promise.race([exited, timer]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
  return Promise.race([
    shown.then(() => {
      void exited.then(markClosed);
      return window;
    }),
    exited.then((reason) => Promise.reject(new Error(`the browser ${reason}`))),
  ]);
}

function appOrigin(url: string): (candidate: string) => boolean {
  const origin = new URL(url).origin;
  return (candidate) => candidate === origin || candidate.startsWith(`${origin}/`);
}

// The app-mode window of the browser mode: a Chromium-family browser started as an app window on a
// blank page and a profile folder of its own, then sent to the launch link over its DevTools pipe —
// a command line is readable by every local user, the pipe by nobody else — and watched over it
// so that closing the window is noticed on every OS (on macOS the browser would stay running with
// no window). Started by open-app.ts; cli.ts stops the browser mode when `closed` settles and
// closes the window on Ctrl+C.
import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { DevtoolsPipe, type PipeEvent } from './devtools-pipe';

export interface AppWindowOptions {
  executable: string;
  /** The launch link: it goes over the pipe only, never on the command line. */
  url: string;
  /** The browser's own profile folder (cookies, window state), apart from the person's browser. */
  profileDir: string;
  /** Root on Linux: Chromium then refuses to start unless its sandbox is switched off. */
  runsAsRoot: boolean;
  /** How the window's own load of `url` went: true when it got the page, false when refused or failed. */
  onLoaded?: (loaded: boolean) => void;
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
/** What the window opens on: --app needs a URL for an app window (about:blank gets a tabbed one). */
export const BLANK_APP_PAGE = 'data:text/html,';

export function appWindowArgs(options: Pick<AppWindowOptions, 'profileDir' | 'runsAsRoot'>): string[] {
  return [
    `--app=${BLANK_APP_PAGE}`,
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

  const launch = launchOver(options);
  const onEvent = (event: PipeEvent) => {
    if (event.method === 'Network.responseReceived') return launch.heard(event);
    if (event.method === 'Target.targetDestroyed') {
      if (!appPages.delete(event.params.targetId) || appPages.size > 0) return;
      markClosed();
      pipe.send('Browser.close');
    } else if (event.params.targetInfo.type === 'page' && isApp(event.params.targetInfo.url)) {
      appPages.add(event.params.targetInfo.targetId);
      markShown();
    } else if (event.params.targetInfo.type === 'page' && event.params.targetInfo.url === BLANK_APP_PAGE) {
      launch.start(pipe, event.params.targetInfo.targetId);
    }
  };
  const pipe = new DevtoolsPipe(child.stdio[3] as Writable, child.stdio[4] as Readable, onEvent);
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

/**
 * Sends the blank app window to the launch link through its page's session, and reports how the
 * load of that link went (its document's status) — once.
 */
function launchOver(options: AppWindowOptions) {
  let sessionId: string | null = null;
  let reported = false;
  const report = (loaded: boolean) => {
    if (reported) return;
    reported = true;
    options.onLoaded?.(loaded);
  };
  return {
    start(pipe: DevtoolsPipe, targetId: string): void {
      if (sessionId !== null) return;
      sessionId = '';
      void (async () => {
        const attached = await pipe.call('Target.attachToTarget', { targetId, flatten: true });
        sessionId = String(attached.sessionId);
        await pipe.call('Network.enable', {}, sessionId);
        const navigated = await pipe.call('Page.navigate', { url: options.url }, sessionId);
        if (navigated.errorText) report(false);
      })().catch(() => report(false));
    },
    heard(event: { sessionId: string; params: { type: string; response: { url: string; status: number } } }): void {
      if (event.sessionId !== sessionId || event.params.type !== 'Document') return;
      if (event.params.response.url === options.url) report(event.params.response.status === 200);
    },
  };
}

function appOrigin(url: string): (candidate: string) => boolean {
  const origin = new URL(url).origin;
  return (candidate) => candidate === origin || candidate.startsWith(`${origin}/`);
}

// Integration test of the browser mode opening itself, on a real X server (Xvfb) with the real
// Chromium (/usr/bin/chromium on Debian): `npm start` (or `npm run web` where an Electron binary
// exists) shows an app-mode window, sent over its DevTools pipe to a one-time launch link (nothing of
// which is on its command line), which is screenshotted (ImageMagick's
// `import`) to test/integration/artifacts/app-window.png; closing the window (Ctrl+W, sent with
// xdotool) ends the process with 0, and so does Ctrl+C; a window left on its profile by an earlier
// run is replaced by the new one, not joined by it. Without a display nothing is tried.
// Linux only: Xvfb and xdotool are X11 tools (.ci/run installs them).
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { electronBinary } from '../../scripts/electron-binary.js';
import { pollUntil } from './fixtures/poll';

const ARTIFACTS = resolve('test/integration/artifacts');
const TOOLS = ['Xvfb', 'xdotool', 'import'];

interface Started {
  child: ChildProcess;
  out: () => string;
}

let xvfb: ChildProcess | null = null;
let display = '';
let dataDir = '';
let started: Started | null = null;
/** Other process groups a test started (a browser of its own, an earlier run): ended after it. */
const groups: ChildProcess[] = [];

describe.skipIf(process.platform !== 'linux')('the browser mode opens an app window (Linux, under Xvfb)', () => {
  beforeAll(async () => {
    const missing = TOOLS.filter((tool) => spawnSync('which', [tool]).status !== 0);
    if (missing.length > 0 || !existsSync('/usr/bin/chromium')) {
      throw new Error(
        `missing ${[...missing, 'chromium'].join(', ')}: apt-get install xvfb xdotool imagemagick chromium`,
      );
    }
    // -displayfd: the server picks a free display number and writes it on fd 3.
    xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x900x24', '-nolisten', 'tcp'], {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    display = await new Promise<string>((resolveDisplay, reject) => {
      xvfb!.stdio[3]!.once('data', (chunk: Buffer) => resolveDisplay(`:${chunk.toString().trim()}`));
      xvfb!.once('exit', (code) => reject(new Error(`Xvfb exited with ${code}`)));
    });
  });

  afterAll(() => {
    xvfb?.kill();
  });

  afterEach(() => {
    // Whatever a failed test left running: npm and everything below it share one process group.
    if (started?.child.pid && started.child.exitCode === null) process.kill(-started.child.pid, 'SIGKILL');
    started = null;
    for (const child of groups.splice(0))
      if (child.pid && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGKILL');
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('npm start opens an app-mode window with nothing of the launch on its command line; closing it ends the process with 0', async () => {
    const app = start();
    const url = await waitFor(() => /running at (\S+)/.exec(app.out())?.[1], 'the printed URL');
    await waitFor(() => app.out().includes('app window; closing it stops Resolute'), 'the "Opened" line');
    const windowId = await waitFor(() => appWindowId(), 'a window titled Resolute');

    // The window belongs to the browser we started, in app mode on a blank page, on its own profile:
    // neither the token nor the launch link nor even the port, which any local user could read here.
    const browserArgs = commandLine(xdo('getwindowpid', windowId));
    const printed = new URL(url);
    expect(browserArgs.filter((arg) => arg.includes(printed.host) || arg.includes('launch='))).toEqual([]);
    expect(browserArgs).toContain('--app=data:text/html,');
    expect(browserArgs).toContain(`--user-data-dir=${join(dataDir, 'browser-profile')}`);

    // Rendered, not a blank page: the app's coloured buttons and badges (a blank page, or
    // Chromium's grey info bar alone, has no colourful pixel).
    const frame = await waitFor(() => {
      const capture = captureWindow(windowId);
      return colourfulPixels(capture) > 2000 && capture;
    }, 'the app rendered in the window');
    expect(frame.width).toBeGreaterThanOrEqual(1000);
    expect(frame.height).toBeGreaterThanOrEqual(600);
    mkdirSync(ARTIFACTS, { recursive: true });
    x11('import', ['-window', windowId, join(ARTIFACTS, 'app-window.png')]);

    xdo('windowfocus', '--sync', windowId);
    xdo('key', 'ctrl+w');
    expect(await exitOf(app)).toBe(0);
    expect(appWindowId()).toBeUndefined();
  }, 120_000);

  it('Ctrl+C in the terminal stops the app and closes its window', async () => {
    const app = start();
    await waitFor(() => app.out().includes('app window; closing it stops Resolute'), 'the "Opened" line');
    const windowId = await waitFor(() => appWindowId(), 'a window titled Resolute');
    const browserPid = Number(xdo('getwindowpid', windowId));
    // A terminal's Ctrl+C signals the whole foreground process group: npm, node and the browser.
    process.kill(-app.child.pid!, 'SIGINT');
    const code = await exitOf(app);
    // The app exits 0; npm then re-raises the SIGINT it got, as shells expect of a Ctrl+C'd command.
    expect(code === 0 || app.child.signalCode === 'SIGINT').toBe(true);
    await waitFor(() => !isRunning(browserPid), 'the browser to exit');
    expect(appWindowId()).toBeUndefined();
  }, 120_000);

  it('a restart replaces a window left open on its profile, whose page the new token would leave dead', async () => {
    // A window on Resolute's own profile that outlived the process that opened it. (A crash does not
    // leave one: Chromium exits when its DevTools pipe closes; any such window is Resolute's all the same.)
    const first = start({}, ['run', 'web'], undefined, ['--no-open']);
    const firstUrl = await waitFor(() => /running at (\S+)/.exec(first.out())?.[1], 'the first URL');
    const profile = join(dataDir, 'browser-profile');
    const leftOver = spawn(
      '/usr/bin/chromium',
      [`--app=${firstUrl}`, `--user-data-dir=${profile}`, '--no-first-run', '--no-sandbox'],
      { env: { ...process.env, DISPLAY: display }, stdio: 'ignore', detached: true },
    );
    groups.push(first.child, leftOver);
    await waitFor(() => appWindowId(), 'the left-over window');
    process.kill(-first.child.pid!, 'SIGTERM');
    await exitOf(first);
    const second = start({}, ['run', 'web'], dataDir);
    await waitFor(() => /running at (\S+)/.exec(second.out())?.[1], 'the second URL');
    await waitFor(() => /Opened in|did not open|No browser/.test(second.out()) && second.out(), 'the opening');
    expect(second.out()).toContain('app window; closing it stops Resolute');
    await waitFor(() => leftOver.exitCode !== null || leftOver.signalCode !== null, 'the left-over window to close');
    const windows = await waitFor(() => appWindowIds().length > 0 && appWindowIds(), 'the new window');
    expect(windows).toHaveLength(1);
    const browserArgs = commandLine(xdo('getwindowpid', windows[0]));
    expect(browserArgs).toContain('--app=data:text/html,');
    process.kill(-second.child.pid!, 'SIGINT');
    await exitOf(second);
    await waitFor(() => appWindowIds().length === 0, 'the window to close with the app');
  }, 120_000);

  it('tries nothing without a display, and says so', async () => {
    const app = start({ DISPLAY: undefined });
    await waitFor(() => app.out().includes('No display (neither DISPLAY nor WAYLAND_DISPLAY is set)'), 'the notice');
    process.kill(-app.child.pid!, 'SIGTERM');
    await exitOf(app);
    expect(app.out()).not.toContain('Opened');
  }, 60_000);
});

/** `npm start` (the Electron-less fallback) or `npm run web` where Electron exists, on a fresh data folder. */
function start(
  envOverrides: Record<string, string | undefined> = {},
  script = electronBinary() ? ['run', 'web'] : ['start'],
  reuse?: string,
  extra: string[] = [],
): Started {
  dataDir = reuse ?? mkdtempSync(join(tmpdir(), 'resolute-window-'));
  const env = { ...process.env, DISPLAY: display, WAYLAND_DISPLAY: undefined, ...envOverrides };
  const child = spawn('npm', [...script, '--', '--data-dir', dataDir, '--port', '0', ...extra], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, signalled as a terminal would
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  started = { child, out: () => out };
  return started;
}

/** The exit code (null when ended by a signal), failing the test if the process does not end. */
async function exitOf(app: Started): Promise<number | null> {
  await waitFor(() => app.child.exitCode !== null || app.child.signalCode !== null, 'the process to exit', 30_000);
  return app.child.exitCode;
}

function x11(command: string, args: string[]): string {
  return execFileSync(command, args, { env: { ...process.env, DISPLAY: display }, encoding: 'utf8' }).trim();
}

function xdo(...args: string[]): string {
  return x11('xdotool', args);
}

function appWindowId(): string | undefined {
  return appWindowIds()[0];
}

/** Every visible window titled Resolute (a dead page keeps that title too). */
function appWindowIds(): string[] {
  const found = spawnSync('xdotool', ['search', '--onlyvisible', '--name', '^Resolute$'], {
    env: { ...process.env, DISPLAY: display },
    encoding: 'utf8',
  });
  return found.status === 0 ? found.stdout.trim().split('\n').filter(Boolean) : [];
}

interface Frame {
  width: number;
  height: number;
  rgb: Buffer;
}

/** The window's pixels, through ImageMagick's `import` as a binary PPM (a header, then raw RGB). */
function captureWindow(windowId: string): Frame {
  const ppm = execFileSync('import', ['-window', windowId, '-depth', '8', 'ppm:-'], {
    env: { ...process.env, DISPLAY: display },
    maxBuffer: 64 * 1024 * 1024,
  });
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 64).toString('latin1'));
  if (!header) throw new Error('import did not write an 8-bit PPM');
  return { width: Number(header[1]), height: Number(header[2]), rgb: ppm.subarray(header[0].length) };
}

function colourfulPixels(frame: Frame): number {
  let count = 0;
  for (let i = 0; i + 2 < frame.rgb.length; i += 3) {
    const [r, g, b] = [frame.rgb[i], frame.rgb[i + 1], frame.rgb[i + 2]];
    if (Math.max(r, g, b) - Math.min(r, g, b) > 80) count += 1;
  }
  return count;
}

function commandLine(pid: string): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Poll `probe` until it gives a truthy value; a timeout shows the app's output so far. */
function waitFor<T>(probe: () => T | undefined | false, what: string, timeoutMs = 60_000): Promise<T> {
  return pollUntil(probe, what, { timeoutMs, intervalMs: 250, detail: () => `; output so far:\n${started?.out()}` });
}

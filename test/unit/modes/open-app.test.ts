// Unit tests of the order in which the browser mode opens itself: nothing on a Linux machine
// without a display; an app window of the first Chromium-family browser found; the default
// browser when none is found or the app window fails; only the printed URL when that fails too.
// The app window and the default browser are recorded fakes here (a real Chromium window is
// opened by test/integration/app-window.test.ts under Xvfb; a default browser cannot run here).
import { describe, expect, it } from 'vitest';
import type { AppWindow, AppWindowOptions } from '../../../src/main/modes/browser/app-window';
import { openForPerson, type OpenDeps } from '../../../src/main/modes/browser/open-app';

const URL = 'http://127.0.0.1:4321/?token=t';
const fakeWindow: AppWindow = { closed: new Promise(() => undefined), close: async () => undefined };

function machine(overrides: Partial<OpenDeps> & { installed?: string[]; appWindowFails?: boolean } = {}) {
  const calls: string[] = [];
  const lines: string[] = [];
  const deps: OpenDeps = {
    platform: 'linux',
    env: { DISPLAY: ':0', PATH: '/usr/bin' },
    exists: (path) => (overrides.installed ?? []).includes(path),
    runsAsRoot: false,
    openAppWindow: async (options: AppWindowOptions) => {
      calls.push(`app ${options.executable} ${options.profileDir} root=${options.runsAsRoot}`);
      if (overrides.appWindowFails) throw new Error('the browser exited (code 1) before showing the app');
      return fakeWindow;
    },
    openDefaultBrowser: async (url) => {
      calls.push(`default ${url}`);
    },
    // An earlier window is "installed" as its profile's lock.
    closeEarlierWindow: async (profileDir) => {
      const found = overrides.installed?.includes(`${profileDir}/SingletonLock`) ?? false;
      if (found) calls.push(`close earlier ${profileDir}`);
      return found;
    },
    ...overrides,
  };
  const open = () =>
    openForPerson(
      () => URL,
      '/data',
      (line) => lines.push(line),
      deps,
    );
  return { calls, lines, open };
}

describe('openForPerson', () => {
  it('tries nothing on Linux without DISPLAY or WAYLAND_DISPLAY, and says why', async () => {
    const m = machine({ env: { PATH: '/usr/bin' }, installed: ['/usr/bin/chromium'] });
    expect(await m.open()).toBeNull();
    expect(m.calls).toEqual([]);
    expect(m.lines).toEqual([expect.stringMatching(/^No display .*open the URL above/)]);
  });

  it('opens an app window of the browser found, on a profile inside the data folder', async () => {
    const m = machine({ installed: ['/usr/bin/chromium', '/usr/bin/google-chrome'], runsAsRoot: true });
    expect(await m.open()).toBe(fakeWindow);
    expect(m.calls).toEqual(['app /usr/bin/chromium /data/browser-profile root=true']);
    expect(m.lines).toEqual([expect.stringMatching(/^Opened in a Chromium app window; closing it stops Resolute/)]);
  });

  it('closes a window an earlier run left on the profile before opening its own, and says so', async () => {
    const m = machine({ installed: ['/usr/bin/chromium', '/data/browser-profile/SingletonLock'] });
    expect(await m.open()).toBe(fakeWindow);
    expect(m.calls).toEqual([
      'close earlier /data/browser-profile',
      'app /usr/bin/chromium /data/browser-profile root=false',
    ]);
    expect(m.lines[0]).toBe('Closed the window an earlier run of Resolute left open.');
  });

  it('opens on macOS and Windows without looking at DISPLAY', async () => {
    const edge = 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe';
    const m = machine({
      platform: 'win32',
      env: { 'ProgramFiles(x86)': 'C:\\Program Files (x86)' },
      installed: [edge],
    });
    expect(await m.open()).toBe(fakeWindow);
    expect(m.calls[0]).toContain(edge);
    const mac = machine({ platform: 'darwin', env: {} });
    expect(await mac.open()).toBeNull();
    expect(mac.calls).toEqual([`default ${URL}`]);
  });

  it('falls back to the default browser when no Chromium-family browser is installed', async () => {
    const m = machine();
    expect(await m.open()).toBeNull();
    expect(m.calls).toEqual([`default ${URL}`]);
    expect(m.lines).toEqual(['Opened in the default browser; Ctrl+C stops Resolute.']);
  });

  it('falls back to the default browser when the app window fails, saying which browser failed', async () => {
    const m = machine({ installed: ['/usr/bin/brave-browser'], appWindowFails: true });
    expect(await m.open()).toBeNull();
    expect(m.calls).toEqual(['app /usr/bin/brave-browser /data/browser-profile root=false', `default ${URL}`]);
    expect(m.lines[0]).toBe(
      'Brave (/usr/bin/brave-browser) did not open the app window: the browser exited (code 1) before showing the app.',
    );
  });

  it('leaves only the printed URL when the default browser cannot be opened either', async () => {
    const m = machine({
      openDefaultBrowser: () => Promise.reject(new Error('spawn xdg-open ENOENT')),
    });
    expect(await m.open()).toBeNull();
    expect(m.lines).toEqual(['No browser could be opened (spawn xdg-open ENOENT): open the URL above yourself.']);
  });
});

// Unit tests of the order in which the browser mode opens itself: nothing on a Linux machine
// without a display; an app window of the first Chromium-family browser found; the default
// browser when none is found or the app window fails; only the printed URL when that fails too.
// The launch link goes to the app window as its own option (over the pipe) and to the default
// browser inside a 0600 file, removed once the link is used; the window's word confirms or revokes
// the link. The app window and the default browser are recorded fakes here (a real Chromium window
// is opened by test/integration/app-window.test.ts under Xvfb; a default browser cannot run here).
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppWindow, AppWindowOptions } from '../../../src/main/modes/browser/app-window';
import { LaunchCodes, type Launch } from '../../../src/main/modes/browser/launch-codes';
import { openForPerson, type OpenDeps } from '../../../src/main/modes/browser/open-app';

let data = '';
beforeEach(() => {
  data = mkdtempSync(join(tmpdir(), 'resolute-open-'));
});
afterEach(() => rmSync(data, { recursive: true, force: true }));
const fakeWindow: AppWindow = { closed: new Promise(() => undefined), close: async () => undefined };

function machine(
  overrides: Partial<OpenDeps> & { installed?: string[]; appWindowFails?: boolean; windowLoads?: boolean } = {},
) {
  const calls: string[] = [];
  const lines: string[] = [];
  const codes = new LaunchCodes();
  const links: Launch[] = [];
  /** What the default browser was handed: a file's path. */
  const opened: string[] = [];
  const deps: OpenDeps = {
    platform: 'linux',
    env: { DISPLAY: ':0', PATH: '/usr/bin' },
    exists: (path) => (overrides.installed ?? []).includes(path),
    runsAsRoot: false,
    openAppWindow: async (options: AppWindowOptions) => {
      calls.push(`app ${options.executable} ${options.profileDir.replace(data, '/data')} root=${options.runsAsRoot}`);
      expect(options.url).toBe(`http://127.0.0.1:4321/?launch=${links.at(-1)?.code}`);
      if (overrides.appWindowFails) throw new Error('the browser exited (code 1) before showing the app');
      if (overrides.windowLoads !== undefined) {
        codes.present(links.at(-1)?.code ?? '');
        options.onLoaded?.(overrides.windowLoads);
      }
      return fakeWindow;
    },
    openDefaultBrowser: async (path) => {
      opened.push(path);
      calls.push('default');
    },
    // An earlier window is "installed" as its profile's lock.
    closeEarlierWindow: async (profileDir) => {
      const found = overrides.installed?.includes(`${profileDir.replace(data, '/data')}/SingletonLock`) ?? false;
      if (found) calls.push(`close earlier /data/browser-profile`);
      return found;
    },
    ...overrides,
  };
  const open = () =>
    openForPerson(
      (opener) => {
        const launch = codes.issue(opener);
        links.push(launch);
        return { url: `http://127.0.0.1:4321/?launch=${launch.code}`, launch };
      },
      data,
      (line) => lines.push(line),
      deps,
    );
  return { calls, lines, open, links, opened };
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
    expect(mac.calls).toEqual(['default']);
  });

  it('falls back to the default browser when no Chromium-family browser is installed', async () => {
    const m = machine();
    expect(await m.open()).toBeNull();
    expect(m.calls).toEqual(['default']);
    expect(m.lines).toEqual([
      'Opened in the default browser; Ctrl+C stops Resolute. If it cannot open the page, open the URL above.',
    ]);
  });

  it('hands the default browser a private file holding the launch link, removed once the link is used', async () => {
    const m = machine();
    await m.open();
    const [file] = m.opened;
    expect(file.startsWith(join(data, 'launch'))).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(data, 'launch')).mode & 0o777).toBe(0o700);
    const link = `http://127.0.0.1:4321/?launch=${m.links[0].code}`;
    expect(readFileSync(file, 'utf8')).toContain(`<meta http-equiv="refresh" content="0;url=${link}">`);
    m.links[0].revoke(); // spent or dead: the same for the file
    await m.links[0].used; // open-app.ts's removal was waiting on it first
    expect(existsSync(file)).toBe(false);
  });

  it("the window's word settles its link: loaded confirms it, refused revokes it and says so", async () => {
    const loaded = machine({ installed: ['/usr/bin/chromium'], windowLoads: true });
    await loaded.open();
    expect(loaded.links.map((link) => [link.opener, link.state])).toEqual([['window', 'confirmed']]);
    const refused = machine({ installed: ['/usr/bin/chromium'], windowLoads: false });
    await refused.open();
    expect(refused.links[0].state).toBe('revoked');
    expect(refused.lines[0]).toMatch(/^The app window did not get the app: its launch link was refused/);
  });

  it('falls back to the default browser when the app window fails, saying which browser failed', async () => {
    const m = machine({ installed: ['/usr/bin/brave-browser'], appWindowFails: true });
    expect(await m.open()).toBeNull();
    expect(m.calls).toEqual(['app /usr/bin/brave-browser /data/browser-profile root=false', 'default']);
    // The link the failed window was given is dead; the default browser got a new one.
    expect(m.links.map((link) => [link.opener, link.state])).toEqual([
      ['window', 'revoked'],
      ['file', 'issued'],
    ]);
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

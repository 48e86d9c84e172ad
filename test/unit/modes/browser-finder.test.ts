// Unit tests of where the browser mode looks for a Chromium-family browser (the order on Linux,
// macOS and Windows, from a made-up environment and file-exists check) and of the headless rule.
import { describe, expect, it } from 'vitest';
import { browserCandidates, canShowWindows, findBrowser } from '../../../src/main/modes/browser/browser-finder';

const only =
  (...present: string[]) =>
  (path: string) =>
    present.includes(path);

describe('browserCandidates on Linux', () => {
  const env = { PATH: '/home/p/bin:/usr/bin:/bin:/snap/bin' };

  it('tries Chromium, Chrome, Edge, Brave in that order, each by PATH then its install folder, snaps last', () => {
    const paths = browserCandidates('linux', env).map((c) => c.path);
    expect(paths.slice(0, 10)).toEqual([
      '/home/p/bin/chromium',
      '/usr/bin/chromium',
      '/bin/chromium',
      '/usr/local/bin/chromium',
      '/home/p/bin/chromium-browser',
      '/usr/bin/chromium-browser',
      '/bin/chromium-browser',
      '/usr/local/bin/chromium-browser',
      '/home/p/bin/google-chrome-stable',
      '/usr/bin/google-chrome-stable',
    ]);
    const at = (path: string) => paths.indexOf(path);
    expect(at('/usr/bin/chromium')).toBeLessThan(at('/usr/bin/google-chrome'));
    expect(at('/usr/bin/google-chrome')).toBeLessThan(at('/opt/google/chrome/chrome'));
    expect(at('/opt/google/chrome/chrome')).toBeLessThan(at('/usr/bin/microsoft-edge-stable'));
    expect(at('/opt/microsoft/msedge/msedge')).toBeLessThan(at('/usr/bin/brave-browser'));
    const snaps = paths.filter((p) => p.startsWith('/snap/'));
    expect(snaps).toEqual(paths.slice(-snaps.length));
    expect(snaps.slice(0, 3)).toEqual([
      '/snap/bin/chromium',
      '/snap/bin/chromium-browser',
      '/snap/bin/google-chrome-stable',
    ]);
    expect(snaps.at(-1)).toBe('/snap/bin/brave');
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('still looks in /usr/bin and /usr/local/bin when PATH is empty or has relative entries', () => {
    const paths = browserCandidates('linux', { PATH: 'bin:.' }).map((c) => c.path);
    expect(paths.slice(0, 2)).toEqual(['/usr/local/bin/chromium', '/usr/bin/chromium']);
    expect(browserCandidates('linux', {}).map((c) => c.path)).toContain('/opt/brave.com/brave/brave');
  });

  it('finds the first installed one and names it', () => {
    const exists = only('/usr/bin/brave-browser', '/opt/google/chrome/chrome', '/snap/bin/chromium');
    expect(findBrowser('linux', env, exists)).toEqual({ name: 'Google Chrome', path: '/opt/google/chrome/chrome' });
    expect(findBrowser('linux', env, only('/snap/bin/chromium', '/usr/bin/brave-browser'))).toEqual({
      name: 'Brave',
      path: '/usr/bin/brave-browser',
    });
    expect(findBrowser('linux', env, only('/snap/bin/chromium'))).toEqual({
      name: 'Chromium',
      path: '/snap/bin/chromium',
    });
    expect(findBrowser('freebsd', env, only('/usr/bin/chromium'))?.path).toBe('/usr/bin/chromium');
  });

  it('returns null when none is installed', () => {
    expect(findBrowser('linux', env, () => false)).toBeNull();
  });
});

describe('browserCandidates on macOS', () => {
  it('looks in /Applications, then ~/Applications, per browser', () => {
    expect(browserCandidates('darwin', { HOME: '/Users/p' }).map((c) => c.path)).toEqual([
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
      '/Users/p/Applications/Chromium.app/Contents/MacOS/Chromium',
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      '/Users/p/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
      '/Users/p/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
      '/Applications/Brave Browser.app/Contents/MacOS/Brave Browser',
      '/Users/p/Applications/Brave Browser.app/Contents/MacOS/Brave Browser',
    ]);
  });

  it('skips ~/Applications without HOME', () => {
    expect(browserCandidates('darwin', {})).toHaveLength(4);
  });
});

describe('browserCandidates on Windows', () => {
  const env = {
    LocalAppData: 'C:\\Users\\p\\AppData\\Local',
    ProgramFiles: 'C:\\Program Files',
    'ProgramFiles(x86)': 'C:\\Program Files (x86)',
  };

  it('looks in the per-user folder, then Program Files, then Program Files (x86), per browser', () => {
    const paths = browserCandidates('win32', env).map((c) => c.path);
    expect(paths).toHaveLength(12);
    expect(paths.slice(0, 6)).toEqual([
      'C:\\Users\\p\\AppData\\Local\\Chromium\\Application\\chrome.exe',
      'C:\\Program Files\\Chromium\\Application\\chrome.exe',
      'C:\\Program Files (x86)\\Chromium\\Application\\chrome.exe',
      'C:\\Users\\p\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe',
      'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
      'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
    ]);
    expect(paths[7]).toBe('C:\\Program Files\\Microsoft\\Edge\\Application\\msedge.exe');
    expect(paths[11]).toBe('C:\\Program Files (x86)\\BraveSoftware\\Brave-Browser\\Application\\brave.exe');
  });

  it('finds Edge, which Windows ships, when no other is installed', () => {
    const edge = 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe';
    expect(findBrowser('win32', env, only(edge))).toEqual({ name: 'Microsoft Edge', path: edge });
  });

  it('leaves out folders whose variable is unset', () => {
    expect(browserCandidates('win32', { PROGRAMFILES: 'D:\\Apps' }).map((c) => c.path)[0]).toBe(
      'D:\\Apps\\Chromium\\Application\\chrome.exe',
    );
    expect(browserCandidates('win32', {})).toEqual([]);
  });
});

describe('canShowWindows (the headless rule)', () => {
  it.each([
    ['linux', {}, false],
    ['linux', { DISPLAY: '' }, false],
    ['linux', { DISPLAY: ':0' }, true],
    ['linux', { WAYLAND_DISPLAY: 'wayland-0' }, true],
    ['freebsd', {}, false],
    ['freebsd', { DISPLAY: ':1' }, true],
    ['darwin', {}, true],
    ['win32', {}, true],
  ] as const)('%s with %j → %s', (platform, env, expected) => {
    expect(canShowWindows(platform, env)).toBe(expected);
  });
});

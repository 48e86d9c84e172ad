// Where Chromium-family browsers (Chromium, Google Chrome, Microsoft Edge, Brave) usually live on
// Linux, macOS and Windows, in the order the browser mode tries them for its app window, and
// whether this machine can show a window at all. Pure: the platform, the environment and a
// file-exists check are passed in, so every OS's order is unit-tested on any OS. Used by open-app.ts.
import { posix, win32 } from 'node:path';

export type Env = Readonly<Record<string, string | undefined>>;

export interface BrowserCandidate {
  name: string;
  path: string;
}

interface Family {
  name: string;
  /** Linux: command names looked up in PATH, then fixed install paths. */
  linuxCommands: string[];
  linuxPaths: string[];
  /** macOS: the bundle name under /Applications and ~/Applications, and its executable. */
  macApp: string;
  /** Windows: the executable below %LOCALAPPDATA%, %ProgramFiles% or %ProgramFiles(x86)%. */
  windowsExe: string;
}

const FAMILIES: Family[] = [
  {
    name: 'Chromium',
    linuxCommands: ['chromium', 'chromium-browser'],
    linuxPaths: ['/snap/bin/chromium'],
    macApp: 'Chromium',
    windowsExe: 'Chromium\\Application\\chrome.exe',
  },
  {
    name: 'Google Chrome',
    linuxCommands: ['google-chrome-stable', 'google-chrome'],
    linuxPaths: ['/opt/google/chrome/chrome'],
    macApp: 'Google Chrome',
    windowsExe: 'Google\\Chrome\\Application\\chrome.exe',
  },
  {
    name: 'Microsoft Edge',
    linuxCommands: ['microsoft-edge-stable', 'microsoft-edge'],
    linuxPaths: ['/opt/microsoft/msedge/msedge'],
    macApp: 'Microsoft Edge',
    windowsExe: 'Microsoft\\Edge\\Application\\msedge.exe',
  },
  {
    name: 'Brave',
    linuxCommands: ['brave-browser', 'brave'],
    linuxPaths: ['/opt/brave.com/brave/brave', '/snap/bin/brave'],
    macApp: 'Brave Browser',
    windowsExe: 'BraveSoftware\\Brave-Browser\\Application\\brave.exe',
  },
];

// Searched even when PATH lacks them (a desktop launcher may start us with a bare PATH).
const LINUX_BIN_DIRS = ['/usr/local/bin', '/usr/bin'];

/** Every place to look, in order: family by family (Chromium, Chrome, Edge, Brave), then per OS. */
export function browserCandidates(platform: NodeJS.Platform, env: Env): BrowserCandidate[] {
  const list =
    platform === 'darwin' ? macCandidates(env) : platform === 'win32' ? windowsCandidates(env) : linuxCandidates(env);
  const seen = new Set<string>();
  return list.filter((candidate) => !seen.has(candidate.path) && seen.add(candidate.path));
}

/** The first candidate that exists, or null when no Chromium-family browser is installed. */
export function findBrowser(
  platform: NodeJS.Platform,
  env: Env,
  exists: (path: string) => boolean,
): BrowserCandidate | null {
  return browserCandidates(platform, env).find((candidate) => exists(candidate.path)) ?? null;
}

/**
 * Whether a window can be shown: on Linux and the other X11/Wayland systems only with a display
 * server to talk to (a server or an SSH session has neither variable, and nothing is tried there).
 */
export function canShowWindows(platform: NodeJS.Platform, env: Env): boolean {
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

function linuxCandidates(env: Env): BrowserCandidate[] {
  const pathDirs = (env.PATH ?? '').split(':').filter((dir) => posix.isAbsolute(dir));
  const dirs = [...pathDirs, ...LINUX_BIN_DIRS.filter((dir) => !pathDirs.includes(dir))];
  const all = FAMILIES.flatMap((family) => [
    ...family.linuxCommands.flatMap((command) =>
      dirs.map((dir) => ({ name: family.name, path: posix.join(dir, command) })),
    ),
    ...family.linuxPaths.map((path) => ({ name: family.name, path })),
  ]);
  // Snap confinement hides dot-folders in the home folder, where the app window's profile lives
  // (~/.config/Resolute), so every snap build comes after every other build.
  const isSnap = (candidate: BrowserCandidate) => candidate.path.startsWith('/snap/');
  return [...all.filter((candidate) => !isSnap(candidate)), ...all.filter(isSnap)];
}

function macCandidates(env: Env): BrowserCandidate[] {
  const roots = ['/Applications', ...(env.HOME ? [posix.join(env.HOME, 'Applications')] : [])];
  return FAMILIES.flatMap((family) =>
    roots.map((root) => ({
      name: family.name,
      path: posix.join(root, `${family.macApp}.app`, 'Contents', 'MacOS', family.macApp),
    })),
  );
}

function windowsCandidates(env: Env): BrowserCandidate[] {
  // Per-user installs (%LOCALAPPDATA%) first: they are the ones the person chose for themselves.
  const roots = ['LOCALAPPDATA', 'PROGRAMFILES', 'PROGRAMFILES(X86)']
    .map((name) => windowsEnv(env, name))
    .filter((root): root is string => Boolean(root));
  return FAMILIES.flatMap((family) =>
    roots.map((root) => ({ name: family.name, path: win32.join(root, family.windowsExe) })),
  );
}

/** Windows environment names are case-insensitive (ProgramFiles, PROGRAMFILES…). */
function windowsEnv(env: Env, name: string): string | undefined {
  const key = Object.keys(env).find((k) => k.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}

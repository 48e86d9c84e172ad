// Before the browser mode opens its app window: a browser still running on Resolute's own profile
// (browser-profile/ in the data folder, which only Resolute's windows use) shows a page whose
// token died with the process that opened it — and while it runs, Chromium would hand the new
// window to it instead of starting (open-app.ts would then fall back to the default browser). So it
// is closed first and the new window replaces it. Found by Chromium's SingletonLock link
// ("host-pid"), and closed only once its command line shows it runs on this very profile.
import { execFileSync } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

const EXIT_WAIT_MS = 5000;
const POLL_MS = 50;

/** What closing an earlier window needs from the machine; tests pass their own. */
export interface EarlierWindowDeps {
  platform: NodeJS.Platform;
  hostname: () => string;
  /** The target of a symbolic link; throws when there is none. */
  readLink: (path: string) => string;
  /** A process's command line as one string, or null when it cannot be read. */
  commandLine: (pid: number) => string | null;
  isRunning: (pid: number) => boolean;
  kill: (pid: number, signal: NodeJS.Signals) => void;
}

export function machineWindowDeps(): EarlierWindowDeps {
  return {
    platform: process.platform,
    hostname,
    readLink: readlinkSync,
    commandLine,
    isRunning: (pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    },
    kill: (pid, signal) => process.kill(pid, signal),
  };
}

/** The pid of the browser holding `profileDir` on this machine, when it is one Resolute started there. */
export function earlierWindowPid(profileDir: string, deps: EarlierWindowDeps): number | null {
  // Windows keeps a lock file without the pid: nothing is closed there (the README says so).
  if (deps.platform === 'win32') return null;
  let target: string;
  try {
    target = deps.readLink(join(profileDir, 'SingletonLock'));
  } catch {
    return null;
  }
  const match = /^(.*)-(\d+)$/.exec(target);
  if (!match || match[1] !== deps.hostname()) return null;
  const pid = Number(match[2]);
  if (pid === process.pid || !deps.isRunning(pid)) return null;
  // A stale lock's pid may be any process now: only a browser on this profile is closed.
  // Spaces around the flag: a profile whose name merely starts the same is another one.
  const line = deps.commandLine(pid);
  return line !== null && ` ${line.trim()} `.includes(` --user-data-dir=${profileDir} `) ? pid : null;
}

/** Close the earlier window, if any: TERM, then KILL after EXIT_WAIT_MS. True when one was closed. */
export async function closeEarlierWindow(
  profileDir: string,
  deps: EarlierWindowDeps = machineWindowDeps(),
): Promise<boolean> {
  const pid = earlierWindowPid(profileDir, deps);
  if (pid === null) return false;
  deps.kill(pid, 'SIGTERM');
  const deadline = Date.now() + EXIT_WAIT_MS;
  while (deps.isRunning(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  if (deps.isRunning(pid)) deps.kill(pid, 'SIGKILL');
  return true;
}

function commandLine(pid: number): string | null {
  try {
    if (process.platform === 'linux') return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    return execFileSync('ps', ['-p', String(pid), '-o', 'command='], { encoding: 'utf8' });
  } catch {
    return null;
  }
}

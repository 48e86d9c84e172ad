// A process limit for one sandboxed command (docs/tools.md, "The bash sandbox"): a pids cgroup of
// its own with pids.max, which bwrap is moved into before it starts (a small /bin/sh wrapper
// writes its own pid to cgroup.procs, then execs bwrap), and whose pids.events is watched so a
// command that hits the limit — a fork bomb — is stopped at once instead of at the timeout.
// RLIMIT_NPROC could not do this for root: the kernel never applies it to uid 0. Where no pids
// cgroup can be created (not root, or cgroup v2 without a delegated pids controller), a user who
// is not root gets RLIMIT_NPROC in a user namespace of the command's own instead: bounded, though
// a command at the limit then runs on to its timeout. Called by bash-sandbox.ts.
import { mkdirSync, readFileSync, readdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { release } from 'node:os';
import { join } from 'node:path';

/** Processes and threads a command may have at once. */
export const MAX_PROCESSES = 1024;
/** How often pids.events is read, ms. */
const WATCH_MS = 200;

export interface ProcessLimit {
  /** The argv that starts `command args` inside the cgroup. */
  wrap(command: string, args: string[]): { command: string; args: string[] };
  /** Calls `onExceeded` once the command has hit the limit. */
  watch(onExceeded: () => void): void;
  release(): void;
}

/** The pids cgroup folder this process is in, where it can make children: v1, or v2 with pids delegated. */
function pidsParent(): string | null {
  let cgroups: string;
  let mounts: string;
  try {
    cgroups = readFileSync('/proc/self/cgroup', 'utf8');
    mounts = readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return null;
  }
  for (const line of mounts.split('\n')) {
    const [left, right] = line.split(' - ');
    if (!right) continue;
    const mountPoint = left.split(' ')[4];
    const [type, , options = ''] = right.split(' ');
    if (type === 'cgroup' && options.split(',').includes('pids')) {
      const own = /^\d+:(?:[^:]*,)?pids(?:,[^:]*)?:(.*)$/m.exec(cgroups)?.[1];
      if (own !== undefined) return join(mountPoint, own);
    }
    if (type === 'cgroup2') {
      const own = /^0::(.*)$/m.exec(cgroups)?.[1];
      if (own === undefined) continue;
      const dir = join(mountPoint, own);
      try {
        if (readFileSync(join(dir, 'cgroup.subtree_control'), 'utf8').split(/\s+/).includes('pids')) return dir;
      } catch {
        // Not ours to use.
      }
    }
  }
  return null;
}

/**
 * Without a cgroup: RLIMIT_NPROC inside the command's own user namespace, for a user that is not
 * root, on Linux 5.14 or later (from then on the kernel counts it per user namespace; before, it
 * would count every process of the person's, and could leave the command none).
 */
export function userNamespaceLimit(max: number = MAX_PROCESSES): number | undefined {
  if (process.getuid?.() === 0) return undefined;
  const [major, minor] = release().split('.').map(Number);
  return major > 5 || (major === 5 && minor >= 14) ? max : undefined;
}

let sequence = 0;

/** A fresh cgroup limited to MAX_PROCESSES, or null where none can be made. */
export function createProcessLimit(max: number = MAX_PROCESSES): ProcessLimit | null {
  const parent = pidsParent();
  if (parent === null) return null;
  removeStale(parent);
  const dir = join(parent, `resolute-bash-${process.pid}-${++sequence}`);
  try {
    mkdirSync(dir);
    writeFileSync(join(dir, 'pids.max'), String(max));
  } catch {
    try {
      rmdirSync(dir);
    } catch {
      // It was never made.
    }
    return null;
  }
  let timer: NodeJS.Timeout | undefined;
  return {
    wrap: (command, args) => ({
      command: '/bin/sh',
      // Should the move fail, the command still runs (without the limit): a resource limit, not confinement.
      args: ['-c', 'echo $$ > "$0/cgroup.procs" 2>/dev/null; exec "$@"', dir, command, ...args],
    }),
    watch: (onExceeded) => {
      timer = setInterval(() => {
        try {
          const hits = Number(/^max (\d+)/m.exec(readFileSync(join(dir, 'pids.events'), 'utf8'))?.[1] ?? 0);
          if (hits > 0) {
            clearInterval(timer);
            onExceeded();
          }
        } catch {
          clearInterval(timer);
        }
      }, WATCH_MS);
    },
    release: () => {
      clearInterval(timer);
      removeWhenEmpty(dir, 20);
    },
  };
}

/** Empty cgroups a Resolute that has ended left behind (it exited before their last removal try). */
function removeStale(parent: string): void {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^resolute-bash-(\d+)-\d+$/.exec(name)?.[1]);
    if (!pid || pid === process.pid || isAlive(pid)) continue;
    try {
      rmdirSync(join(parent, name));
    } catch {
      // Not empty yet, or not ours to remove.
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The cgroup can be removed once its last process has gone; the kernel takes a moment after a kill. */
function removeWhenEmpty(dir: string, triesLeft: number): void {
  try {
    rmdirSync(dir);
  } catch {
    if (triesLeft > 0) setTimeout(() => removeWhenEmpty(dir, triesLeft - 1), 100).unref();
  }
}

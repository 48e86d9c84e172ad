// Where ripgrep runs for `find` and `grep` (docs/tools.md, "find and grep" and "Threat model"): its
// walk follows paths, so a folder swapped for a link mid-walk (by any process that can write the
// workspace) would lead it out. On Linux it therefore runs inside bubblewrap, seeing only the
// workspace (read-only) and the system's program folders, the data folder hidden, no network, no
// capabilities; on macOS inside sandbox-exec with the data folder denied. Pure: ripgrep.ts spawns
// what this plans.
import { seatbeltProfile } from './sandbox-plan';

export interface SearchSandbox {
  platform: NodeJS.Platform;
  /** bubblewrap's absolute path; null when it is not installed. */
  bwrap: string | null;
  /** Folders ripgrep must never see (Resolute's data folder, with its keys). */
  hidden: readonly string[];
}

/** What ripgrep needs to start (the program folders and the dynamic loader's cache), bound when they exist. */
const SYSTEM_FOLDERS = ['/usr', '/lib', '/lib32', '/lib64', '/libx32', '/etc/ld.so.cache', '/nix/store'];

export interface SearchPlan {
  command: string;
  args: string[];
  /** The process's own working directory (bwrap changes into the search folder itself). */
  cwd: string | undefined;
}

/** A search the OS cannot confine (Windows; Linux without bubblewrap) says so, as the model's error. */
export const SEARCH_BWRAP_MISSING =
  'find and grep run ripgrep inside the bubblewrap sandbox, and bubblewrap (bwrap) is not installed. Install it — Debian/Ubuntu: sudo apt install bubblewrap; Fedora: sudo dnf install bubblewrap — then try again. read and ls still work.';

/**
 * How to run `rg args` in `cwd` (inside `workspace`): bubblewrap on Linux, sandbox-exec on macOS,
 * as it is on Windows (no sandbox there; docs/tools.md says what that leaves open).
 */
export function searchPlan(
  sandbox: SearchSandbox,
  run: { rg: string; args: string[]; workspace: string; cwd: string },
): SearchPlan {
  if (sandbox.platform === 'darwin') {
    const profile = seatbeltProfile({
      workspace: run.workspace,
      network: false,
      hidden: sandbox.hidden,
      tmpDir: run.workspace,
    });
    return { command: '/usr/bin/sandbox-exec', args: ['-p', profile, run.rg, ...run.args], cwd: run.cwd };
  }
  if (sandbox.platform === 'win32') return { command: run.rg, args: run.args, cwd: run.cwd };
  if (sandbox.bwrap === null) throw new Error(SEARCH_BWRAP_MISSING);
  return {
    command: sandbox.bwrap,
    args: [...bubblewrapSearchArgs(sandbox.hidden, run), run.rg, ...run.args],
    cwd: '/',
  };
}

/**
 * bubblewrap's arguments up to `--`: an empty root with the system's program folders and ripgrep's
 * own binary read-only, the workspace read-only at its own path, the hidden folders as empty tmpfs
 * pushed after every bind (so no bind uncovers them), no /proc, no /dev, new namespaces, no
 * capabilities, an empty environment.
 */
export function bubblewrapSearchArgs(
  hidden: readonly string[],
  run: { rg: string; workspace: string; cwd: string },
): string[] {
  const args: string[] = [];
  for (const folder of [...SYSTEM_FOLDERS, run.rg]) args.push('--ro-bind-try', folder, folder);
  args.push('--ro-bind', run.workspace, run.workspace);
  for (const folder of hidden) args.push('--tmpfs', folder);
  args.push('--chdir', run.cwd);
  args.push('--unshare-ipc', '--unshare-pid', '--unshare-uts', '--unshare-net', '--unshare-cgroup-try');
  args.push('--cap-drop', 'ALL', '--die-with-parent', '--new-session', '--clearenv', '--');
  return args;
}

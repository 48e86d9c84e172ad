// How `bash` is confined (docs/tools.md, "The sandbox"), as pure functions of the workspace and
// the settings: the bubblewrap arguments on Linux, the sandbox-exec (Seatbelt) profile on macOS,
// and the environment a command gets. src/main/node/tools/bash-sandbox.ts runs them; the unit
// tests read them. Nothing here starts a process.

export interface SandboxPlanInput {
  /** The workspace's real path: the one folder the command may write. */
  workspace: string;
  /** `tools.network`: let the command use the network. */
  network: boolean;
  /** Folders the command must not see at all (Resolute's data folder: it holds the keys). */
  hidden: readonly string[];
  /** Read-only-bound system folders that must be empty tmpfs inside (those that exist: /var/tmp…). */
  privateTmp: readonly string[];
  env: Record<string, string>;
  command: string;
  /** Paths bound onto themselves read-write first, so they cannot be renamed or removed (a `.git` folder). */
  pinned?: readonly string[];
  /** Paths inside the workspace bound read-only over themselves (`.git/config`, `.git/hooks`…). */
  readOnly?: readonly string[];
  /** The descriptor bwrap reads the seccomp program from (seccomp-filter.ts), when there is one. */
  seccompFd?: number;
  /**
   * RLIMIT_NPROC for the command, set inside its own user namespace (where the kernel counts only
   * its processes), when no cgroup limits it; never for root, to whom the kernel does not apply it.
   */
  userNamespaceProcessLimit?: number;
}

/** bash -c COMMAND; with a process limit, a first bash sets it and execs the command's bash (same $0). */
function commandLine(input: SandboxPlanInput): string[] {
  const limit = input.userNamespaceProcessLimit;
  if (limit === undefined) return ['/bin/bash', '-c', input.command];
  return ['/bin/bash', '-c', `ulimit -u ${Math.floor(limit)} 2>/dev/null; exec /bin/bash -c "$0"`, input.command];
}

/** The file descriptor bubblewrap writes its JSON status to: `{"child-pid"}` once the command runs. */
export const BWRAP_STATUS_FD = 3;
/** The file descriptor bubblewrap reads the seccomp program from. */
export const BWRAP_SECCOMP_FD = 4;

/** Environment variables a command keeps; everything else (API keys included) is dropped. */
const KEPT_ENV = ['PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ'] as const;
const DEFAULT_PATH = '/usr/local/bin:/usr/bin:/bin';

/** The environment of a sandboxed command: a short allow-list, so no secret of the app leaks in. */
export function sandboxEnv(parent: Record<string, string | undefined>, tmpDir: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of KEPT_ENV) {
    const value = parent[key];
    if (value !== undefined) env[key] = value;
  }
  env.PATH ??= DEFAULT_PATH;
  env.TERM = 'dumb';
  env.TMPDIR = tmpDir;
  // Caches go to the private /tmp: the home folder is read-only inside.
  env.XDG_CACHE_HOME = `${tmpDir}/.cache`;
  return env;
}

/**
 * bubblewrap: the whole system read-only, /dev and /proc of its own, a private /tmp, /run hidden
 * (its sockets — the session bus, docker — would be ways out), the workspace bound read-write at
 * its own path with its git metadata read-only, new PID/IPC/UTS (and, unless the network is
 * allowed, network) namespaces, no capabilities, the seccomp filter, a new terminal session, and
 * death with its parent, so killing bwrap ends every process inside.
 */
export function bubblewrapArgs(input: SandboxPlanInput): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--tmpfs', '/run'];
  for (const dir of input.privateTmp) args.push('--tmpfs', dir);
  // With the network on, name resolution may need systemd-resolved's stub under /run.
  if (input.network) args.push('--ro-bind-try', '/run/systemd/resolve', '/run/systemd/resolve');
  // A hidden folder is hidden after every bind, since a bind of a folder holding it (an MCP
  // server's cwd) would uncover it — unless it holds the workspace, whose bind must then show.
  const holdsWorkspace = (dir: string) => input.workspace === dir || input.workspace.startsWith(`${dir}/`);
  for (const dir of input.hidden.filter(holdsWorkspace)) args.push('--tmpfs', dir);
  args.push('--bind', input.workspace, input.workspace);
  // After the workspace's bind, so they lie over it (docs/tools.md, "The bash sandbox").
  for (const path of input.pinned ?? []) args.push('--bind', path, path);
  for (const path of input.readOnly ?? []) args.push('--ro-bind', path, path);
  for (const dir of input.hidden.filter((dir) => !holdsWorkspace(dir))) args.push('--tmpfs', dir);
  args.push('--chdir', input.workspace);
  args.push('--unshare-ipc', '--unshare-pid', '--unshare-uts', '--unshare-cgroup-try');
  if (!input.network) args.push('--unshare-net');
  if (input.userNamespaceProcessLimit !== undefined) args.push('--unshare-user');
  // Run as root, bwrap would keep every capability: umount the private /tmp, remount / read-write.
  args.push('--cap-drop', 'ALL');
  if (input.seccompFd !== undefined) args.push('--seccomp', String(input.seccompFd));
  args.push('--die-with-parent', '--new-session', '--clearenv');
  for (const [key, value] of Object.entries(input.env)) args.push('--setenv', key, value);
  args.push('--json-status-fd', String(BWRAP_STATUS_FD), '--', ...commandLine(input));
  return args;
}

/** A Seatbelt string literal: backslashes and quotes escaped. */
function sbString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * sandbox-exec's profile, the macOS equivalent: deny by default; read anywhere except the hidden
 * folders; write only the workspace, the command's own temporary folder and the terminal devices;
 * no network unless allowed. Run as `sandbox-exec -p PROFILE /bin/bash -c COMMAND`.
 */
export function seatbeltProfile(
  input: Pick<SandboxPlanInput, 'workspace' | 'network' | 'hidden'> & { tmpDir: string },
): string {
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-fork)',
    '(allow process-exec)',
    '(allow signal (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow mach-lookup)',
    '(allow ipc-posix-shm)',
    '(allow ipc-posix-sem)',
    '(allow pseudo-tty)',
    '(allow file-read*)',
    ...input.hidden.map((dir) => `(deny file-read* (subpath ${sbString(dir)}))`),
    `(allow file-write* (subpath ${sbString(input.workspace)}) (subpath ${sbString(input.tmpDir)}))`,
    '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper") (regex #"^/dev/tty"))',
    '(allow file-ioctl (literal "/dev/null") (literal "/dev/zero") (regex #"^/dev/tty"))',
  ];
  if (input.network) lines.push('(allow network*)');
  return `${lines.join('\n')}\n`;
}

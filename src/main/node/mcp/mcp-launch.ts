// How a stdio MCP server is started (docs/mcp.md, "Confinement"): an allow-listed environment —
// never the app's API keys or the person's provider variables — plus the `env` its entry names;
// the session's workspace as its working folder (or the entry's `cwd`); and with `sandbox: true`,
// inside bubblewrap like `bash` (sandbox-plan.ts: workspace writable, data folder hidden, network
// on unless `network: false`; a program under /tmp bound read-only into its private /tmp), with
// bash's hardening as mcp-sandbox.ts prepares it: the seccomp filter, the process limit and the
// git folders read-only. Pure but for the check of a sandboxed server's `cwd`; McpConnection
// spawns what this returns.
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { McpStdioServer } from '../../../shared/mcp';
import { bubblewrapArgs, BWRAP_SECCOMP_FD, sandboxEnv } from '../tools/sandbox-plan';
import { checkWorkspaceChoice } from '../tools/workspace-fs';

/** What a server keeps of the app's environment: what programs need to run, nothing that is a key. */
const KEPT_ENV = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
  // Windows needs these to start most programs.
  'SYSTEMROOT',
  'SYSTEMDRIVE',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'APPDATA',
  'LOCALAPPDATA',
  'USERPROFILE',
  'HOMEDRIVE',
  'HOMEPATH',
  'TEMP',
  'TMP',
  'PROGRAMFILES',
] as const;

export interface StdioLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

export interface LaunchContext {
  workspace: string;
  /** Hidden from a sandboxed server (Resolute's data folder). */
  hidden: readonly string[];
  /** bubblewrap's absolute path, or null when it is not installed. */
  bwrap: string | null;
  parentEnv: Record<string, string | undefined>;
  /** Where parentEnv's PATH came from (login-path.ts), for the server's log. */
  pathSource?: string;
}

/** The log's line saying which PATH a server was started with, so "spawn npx ENOENT" explains itself. */
export function pathLogLine(context: Pick<LaunchContext, 'parentEnv' | 'pathSource'>): string {
  return `PATH (${context.pathSource ?? 'inherited'}): ${context.parentEnv.PATH ?? ''}`;
}

/** The app's environment cut to the allow-list (a value that is a shell function is dropped). */
export function serverEnv(parent: Record<string, string | undefined>, own: Record<string, string> = {}) {
  const env: Record<string, string> = {};
  for (const key of KEPT_ENV) {
    const value = parent[key];
    if (value !== undefined && !value.startsWith('()')) env[key] = value;
  }
  return { ...env, ...own };
}

/** What a sandboxed server gets besides the plan (mcp-sandbox.ts makes it; none by default). */
export interface ServerHardening {
  /** Git folders and `.git` files bound read-only for the server's whole life. */
  gitReadOnly: readonly string[];
  /** A file holding the seccomp program, opened for bwrap on BWRAP_SECCOMP_FD. */
  seccompFile?: string;
  /** Starts bwrap inside the process limit's cgroup. */
  wrap?: (command: string, args: string[]) => { command: string; args: string[] };
  /** RLIMIT_NPROC in a user namespace of its own, where no cgroup limits it (process-limit.ts). */
  userNamespaceProcessLimit?: number;
}

const NO_HARDENING: ServerHardening = { gitReadOnly: [] };

/**
 * VS Code's `${workspaceFolder}` in an imported entry (docs/mcp.md, "Configuration") is the
 * session's workspace, in the command, its arguments, its `cwd` and its env values.
 */
export function withWorkspaceFolder(config: McpStdioServer, workspace: string): McpStdioServer {
  const fill = (text: string): string => text.replaceAll('${workspaceFolder}', workspace);
  const env = config.env && Object.fromEntries(Object.entries(config.env).map(([key, value]) => [key, fill(value)]));
  return {
    ...config,
    command: fill(config.command),
    ...(config.args ? { args: config.args.map(fill) } : {}),
    ...(config.cwd ? { cwd: fill(config.cwd) } : {}),
    ...(env ? { env } : {}),
  };
}

/** The folder a server runs in: the workspace, or its `cwd` (relative to the workspace). */
export function serverCwd(config: McpStdioServer, workspace: string): string {
  const cwd = config.cwd && withWorkspaceFolder(config, workspace).cwd;
  if (!cwd) return workspace;
  return isAbsolute(cwd) ? cwd : resolve(workspace, cwd);
}

/**
 * A sandboxed server's `cwd` is bound writable, so it is checked like a workspace choice: an
 * existing folder, not the root, neither holding nor inside a hidden folder (the data folder).
 */
function checkedCwd(cwd: string, hidden: readonly string[]): string {
  try {
    for (const dir of hidden) checkWorkspaceChoice(cwd, dir);
    return cwd;
  } catch (error) {
    // EACCES: the connect retries give up at once, as for a program that cannot run.
    throw Object.assign(new Error(`The server's cwd cannot be used: ${(error as Error).message}`), { code: 'EACCES' });
  }
}

/** How to spawn this server; throws when it asks for a sandbox that cannot be had. */
export function stdioLaunch(
  entry: McpStdioServer,
  context: LaunchContext,
  hardening: ServerHardening = NO_HARDENING,
): StdioLaunch {
  const config = withWorkspaceFolder(entry, context.workspace);
  const cwd = serverCwd(config, context.workspace);
  const env = serverEnv(context.parentEnv, config.env);
  if (!config.sandbox) return { command: config.command, args: config.args ?? [], env, cwd };
  if (process.platform !== 'linux' || !context.bwrap)
    throw new Error('sandbox: true needs bubblewrap (bwrap), which is not installed here');
  if (config.cwd) checkedCwd(cwd, context.hidden);
  const inside = { ...sandboxEnv(context.parentEnv, '/tmp'), ...config.env };
  const plan = bubblewrapArgs({
    workspace: cwd,
    network: config.network !== false,
    hidden: context.hidden,
    privateTmp: [],
    readOnly: [
      ...programBinds([config.command, ...(config.args ?? [])], [cwd, ...context.hidden]),
      ...hardening.gitReadOnly,
    ],
    seccompFd: hardening.seccompFile ? BWRAP_SECCOMP_FD : undefined,
    userNamespaceProcessLimit: hardening.userNamespaceProcessLimit,
    env: inside,
    // bash `exec`s the server, so it is bwrap's child itself and a closed stdin or a kill reaches it.
    command: `exec ${[config.command, ...(config.args ?? [])].map(shellQuote).join(' ')}`,
  });
  let start = { command: context.bwrap, args: withoutStatusFd(plan) };
  // The SDK spawns with three descriptors only: a shell opens the filter's file on bwrap's.
  if (hardening.seccompFile)
    start = {
      command: '/bin/sh',
      args: ['-c', `exec "$@" ${BWRAP_SECCOMP_FD}<"$0"`, hardening.seccompFile, start.command, ...start.args],
    };
  if (hardening.wrap) start = hardening.wrap(start.command, start.args);
  return { ...start, env: {}, cwd };
}

/**
 * The sandbox's /tmp is a private, empty one, so a server installed under /tmp (a checkout in a
 * temporary folder, an npx cache) would find nothing there. Each absolute word of its command line
 * that lies under /tmp is bound read-only — for a file inside `node_modules`, that whole
 * `node_modules` folder, where its dependencies resolve from; for another file, the file and the
 * nearest `node_modules` above it (a checkout's own script importing its packages) — unless the
 * bind would lie over the workspace or uncover a hidden folder (the data folder). `exists` is
 * the file system's answer (a parameter for the tests).
 */
export function programBinds(
  words: readonly string[],
  keep: readonly string[],
  exists: (path: string) => boolean = existsSync,
): string[] {
  const binds = new Set<string>();
  const add = (path: string): void => {
    const covers = (other: string) => other === path || other.startsWith(`${path}/`) || path.startsWith(`${other}/`);
    if (!keep.some(covers)) binds.add(path);
  };
  for (const word of words) {
    if (!word.startsWith('/tmp/')) continue;
    const at = word.indexOf('/node_modules/');
    if (at >= 0) {
      add(word.slice(0, at + '/node_modules'.length));
      continue;
    }
    add(word);
    const modules = nearestNodeModules(word, exists);
    if (modules) add(modules);
  }
  return [...binds];
}

/** The `node_modules` folder Node would resolve a script's packages from, below /tmp; null if none. */
function nearestNodeModules(file: string, exists: (path: string) => boolean): string | null {
  for (let dir = dirname(file); dir.startsWith('/tmp/'); dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules');
    if (exists(candidate)) return candidate;
  }
  return null;
}

/** One word for bash -c, quoted so nothing in it is read by the shell. */
function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The SDK spawns with stdin/stdout/stderr only: bwrap must not write a status to a descriptor 3. */
function withoutStatusFd(args: string[]): string[] {
  const at = args.indexOf('--json-status-fd');
  return at < 0 ? args : [...args.slice(0, at), ...args.slice(at + 2)];
}

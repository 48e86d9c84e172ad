// The login shell's PATH, read once at start by the desktop app (docs/hosts.md, "Programs and
// PATH"): an app started from the Finder, the Dock or a desktop launcher gets the session's bare
// PATH (/usr/bin:/bin…), not the one the person's shell profile builds, so `npx`/`uvx` MCP servers
// fail with "spawn npx ENOENT" and `bash` does not find Homebrew's or nvm's programs. The shell is
// asked once (interactive login, so .zprofile, .zshrc, .bash_profile and .profile all run), its
// answer is put first and the inherited entries kept after it. A shell that is slow, fails or
// prints nothing leaves the inherited PATH. The spawn is passed in: test/unit/node/login-path.test.ts
// drives this with fakes.
import { execFile } from 'node:child_process';

/** Long enough for a heavy profile (nvm, conda), short enough not to hold the window back much. */
export const LOGIN_SHELL_TIMEOUT_MS = 5_000;

/** Printed around PATH so what a profile prints (a banner, a fortune) is not taken for it. */
const MARK = '__RESOLUTE_PATH_7f3a__';

export interface LoginPathDeps {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** Runs `shell args` and resolves with its stdout; rejects on failure or after timeoutMs. */
  run(shell: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string>;
}

export interface LoginPath {
  /** The PATH to use: the login shell's entries first, then the inherited ones it lacks. */
  path: string;
  /** Where it came from, for the MCP servers' logs: "login shell /bin/zsh", or "inherited" and why. */
  source: string;
}

/** The shell to ask: $SHELL, else the platform's default login shell. */
export function loginShell(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string {
  const shell = env.SHELL?.trim();
  if (shell && shell.startsWith('/')) return shell;
  return platform === 'darwin' ? '/bin/zsh' : '/bin/sh';
}

/** The PATH between the marks in a shell's output, or null when it is not there. */
export function pathFromOutput(stdout: string): string | null {
  const start = stdout.indexOf(MARK);
  const end = stdout.indexOf(MARK, start + MARK.length);
  if (start < 0 || end < 0) return null;
  const path = stdout.slice(start + MARK.length, end).trim();
  return path === '' ? null : path;
}

/** The login shell's entries first, then those of the inherited PATH it does not have, no empty ones. */
export function mergePaths(login: string, inherited: string | undefined): string {
  const entries = [...login.split(':'), ...(inherited ?? '').split(':')].filter((entry) => entry !== '');
  return [...new Set(entries)].join(':');
}

export async function readLoginPath(deps: LoginPathDeps): Promise<LoginPath> {
  const inherited = deps.env.PATH ?? '';
  // Windows apps get the user's PATH from the registry whatever starts them.
  if (deps.platform === 'win32') return { path: inherited, source: 'inherited, Windows' };
  const shell = loginShell(deps.platform, deps.env);
  const command = `printf '%s' '${MARK}'; printf '%s' "$PATH"; printf '%s' '${MARK}'`;
  // oh-my-zsh's update prompt would wait for an answer nobody gives.
  const env = { ...deps.env, DISABLE_AUTO_UPDATE: 'true', ZSH_DISABLE_COMPFIX: 'true' };
  try {
    const found = pathFromOutput(await deps.run(shell, ['-ilc', command], env, LOGIN_SHELL_TIMEOUT_MS));
    if (found === null) return { path: inherited, source: `inherited, ${shell} printed no PATH` };
    return { path: mergePaths(found, inherited), source: `login shell ${shell}` };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { path: inherited, source: `inherited, ${shell} failed: ${reason}` };
  }
}

/** node:child_process's execFile as LoginPathDeps.run: no stdin, killed at the timeout. */
export function runShell(shell: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      shell,
      args,
      { env, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024, encoding: 'utf8' },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
    child.stdin?.end();
  });
}

/** Reads the login shell's PATH and makes it this process's, for every program started after. */
export async function adoptLoginPath(env: NodeJS.ProcessEnv = process.env): Promise<LoginPath> {
  const found = await readLoginPath({ platform: process.platform, env, run: runShell });
  if (found.path !== '') env.PATH = found.path;
  return found;
}

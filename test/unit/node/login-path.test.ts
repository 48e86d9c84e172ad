// The login shell's PATH read once at start (src/main/node/login-path.ts): which shell is asked and
// how (an interactive login shell, with a time limit), the PATH found between the marks whatever
// the profile prints, the login entries first with the inherited ones kept after, and the inherited
// PATH — with the reason — when the shell fails, is slow or prints nothing. One test runs a real /bin/sh.
import { describe, expect, it } from 'vitest';
import { pathLogLine } from '../../../src/main/node/mcp/mcp-launch';
import {
  LOGIN_SHELL_TIMEOUT_MS,
  loginShell,
  mergePaths,
  readLoginPath,
  runShell,
  type LoginPathDeps,
} from '../../../src/main/node/login-path';

/** A fake shell: runs the script's printf lines with the given PATH, after what a profile prints. */
function fakeShell(loginPath: string | null, banner = '') {
  const calls: { shell: string; args: string[]; env: NodeJS.ProcessEnv; timeoutMs: number }[] = [];
  const run: LoginPathDeps['run'] = (shell, args, env, timeoutMs) => {
    calls.push({ shell, args, env, timeoutMs });
    const mark = /'(__\w+__)'/.exec(args[1])?.[1] ?? '';
    return Promise.resolve(loginPath === null ? banner : `${banner}${mark}${loginPath}${mark}\n`);
  };
  return { run, calls };
}

const finderEnv = { SHELL: '/bin/zsh', PATH: '/usr/bin:/bin:/usr/sbin:/sbin', HOME: '/Users/me' };

describe('readLoginPath', () => {
  it("asks the person's shell as an interactive login shell, with a time limit", async () => {
    const shell = fakeShell('/opt/homebrew/bin:/usr/bin:/bin');
    await readLoginPath({ platform: 'darwin', env: finderEnv, run: shell.run });
    expect(shell.calls).toHaveLength(1);
    const [call] = shell.calls;
    expect(call.shell).toBe('/bin/zsh');
    expect(call.args[0]).toBe('-ilc');
    expect(call.timeoutMs).toBe(LOGIN_SHELL_TIMEOUT_MS);
    expect(call.env).toMatchObject({ HOME: '/Users/me', DISABLE_AUTO_UPDATE: 'true' });
  });

  it("puts the login shell's entries first and keeps the inherited ones, whatever the profile prints", async () => {
    const shell = fakeShell('/opt/homebrew/bin:/Users/me/.nvm/versions/node/v22/bin:/usr/bin:/bin', 'Welcome!\n');
    expect(await readLoginPath({ platform: 'darwin', env: finderEnv, run: shell.run })).toEqual({
      path: '/opt/homebrew/bin:/Users/me/.nvm/versions/node/v22/bin:/usr/bin:/bin:/usr/sbin:/sbin',
      source: 'login shell /bin/zsh',
    });
  });

  it('keeps the inherited PATH, and says why, when the shell fails or prints no PATH', async () => {
    const failing: LoginPathDeps['run'] = () => Promise.reject(new Error('Command failed: timed out\nmore'));
    expect(await readLoginPath({ platform: 'linux', env: finderEnv, run: failing })).toEqual({
      path: finderEnv.PATH,
      source: 'inherited, /bin/zsh failed: Command failed: timed out',
    });
    const silent = fakeShell(null, 'zsh: no such file');
    expect((await readLoginPath({ platform: 'linux', env: finderEnv, run: silent.run })).source).toBe(
      'inherited, /bin/zsh printed no PATH',
    );
  });

  it('does not ask on Windows, whose apps get the PATH from the registry', async () => {
    const shell = fakeShell('/x');
    const found = await readLoginPath({ platform: 'win32', env: { PATH: 'C:\\Windows' }, run: shell.run });
    expect(found).toEqual({ path: 'C:\\Windows', source: 'inherited, Windows' });
    expect(shell.calls).toEqual([]);
  });

  it("falls back to the platform's shell when $SHELL is missing or not a path", () => {
    expect(loginShell('darwin', {})).toBe('/bin/zsh');
    expect(loginShell('linux', { SHELL: 'zsh' })).toBe('/bin/sh');
    expect(loginShell('linux', { SHELL: '/usr/bin/fish' })).toBe('/usr/bin/fish');
  });

  it('merges without repeats or empty entries', () => {
    expect(mergePaths('/a::/b', '/b:/c:')).toBe('/a:/b:/c');
    expect(mergePaths('/a', undefined)).toBe('/a');
  });

  it('reads a real login shell (/bin/sh) through runShell', async () => {
    const env = { HOME: '/nonexistent-home', PATH: '/usr/bin:/bin', SHELL: '/bin/sh' };
    const found = await readLoginPath({ platform: 'linux', env, run: runShell });
    expect(found.source).toBe('login shell /bin/sh');
    expect(found.path.split(':')).toEqual(expect.arrayContaining(['/usr/bin', '/bin']));
  });
});

describe("the MCP server's log", () => {
  it('says which PATH the server got and where it came from', () => {
    expect(pathLogLine({ parentEnv: { PATH: '/opt/homebrew/bin:/usr/bin' }, pathSource: 'login shell /bin/zsh' })).toBe(
      'PATH (login shell /bin/zsh): /opt/homebrew/bin:/usr/bin',
    );
    expect(pathLogLine({ parentEnv: {} })).toBe('PATH (inherited): ');
  });
});

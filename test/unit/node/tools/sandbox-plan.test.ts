// The sandbox's plan (src/main/node/tools/sandbox-plan.ts): the bubblewrap arguments, the macOS
// sandbox-exec profile and the environment of a command. What runs is tested with the real
// bubblewrap in test/integration/tools-sandbox.test.ts; this checks the text of the plan.
import { describe, expect, it } from 'vitest';
import { bubblewrapArgs, sandboxEnv, seatbeltProfile } from '../../../../src/main/node/tools/sandbox-plan';

const input = {
  workspace: '/home/me/ws',
  network: false,
  hidden: ['/home/me/.config/Resolute'],
  privateTmp: ['/var/tmp'],
  env: { PATH: '/usr/bin', TERM: 'dumb' },
  command: 'echo "hi"',
};

/** The value after a flag, e.g. pairs(args, '--bind') → [[src, dest], …]. */
function after(args: string[], flag: string, count: number): string[][] {
  return args.flatMap((a, i) => (a === flag ? [args.slice(i + 1, i + 1 + count)] : []));
}

// Plans are built inside each test: a mutant that throws must fail the test, not stop the file loading.
describe('bubblewrapArgs', () => {
  it('binds the system read-only and only the workspace read-write, at its own path', () => {
    const args = bubblewrapArgs(input);
    expect(args.slice(0, 3)).toEqual(['--ro-bind', '/', '/']);
    expect(after(args, '--bind', 2)).toEqual([['/home/me/ws', '/home/me/ws']]);
    expect(after(args, '--chdir', 1)).toEqual([['/home/me/ws']]);
  });

  it('gives a private /tmp, hides /run and the data folder', () => {
    const args = bubblewrapArgs(input);
    expect(after(args, '--tmpfs', 1).flat()).toEqual(['/tmp', '/run', '/var/tmp', '/home/me/.config/Resolute']);
    // The hiding tmpfs comes after every bind, so a bind of a folder holding it cannot uncover it
    // (issue 40, item 6); one that holds the workspace comes before the workspace's bind, which shows.
    expect(args.lastIndexOf('--tmpfs')).toBeGreaterThan(args.lastIndexOf('--bind'));
    const holding = bubblewrapArgs({
      ...input,
      hidden: ['/home/me/.config/Resolute', '/ws-parent'],
      workspace: '/ws-parent/ws',
    });
    expect(holding.indexOf('/ws-parent')).toBeLessThan(holding.indexOf('--bind'));
    expect(holding.indexOf('/home/me/.config/Resolute')).toBeGreaterThan(holding.lastIndexOf('--bind'));
  });

  it('gives the command its own /dev and /proc, and IPC, UTS and cgroup namespaces of its own', () => {
    const args = bubblewrapArgs(input);
    expect(after(args, '--dev', 1)).toEqual([['/dev']]);
    expect(after(args, '--proc', 1)).toEqual([['/proc']]);
    for (const flag of ['--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try']) expect(args).toContain(flag);
    // Nothing but the system is read-only when there is no git metadata to guard.
    expect(after(args, '--ro-bind', 2)).toEqual([['/', '/']]);
  });

  it('has no network unless allowed', () => {
    const args = bubblewrapArgs(input);
    expect(args).toContain('--unshare-net');
    expect(args).not.toContain('--ro-bind-try');
    const open = bubblewrapArgs({ ...input, network: true });
    expect(open).not.toContain('--unshare-net');
    expect(after(open, '--ro-bind-try', 2)).toEqual([['/run/systemd/resolve', '/run/systemd/resolve']]);
  });

  it('dies with its parent in its own PID namespace and session, with a cleared environment', () => {
    const args = bubblewrapArgs(input);
    for (const flag of ['--unshare-pid', '--die-with-parent', '--new-session', '--clearenv'])
      expect(args).toContain(flag);
    expect(after(args, '--setenv', 2)).toEqual([
      ['PATH', '/usr/bin'],
      ['TERM', 'dumb'],
    ]);
    expect(after(args, '--json-status-fd', 1)).toEqual([['3']]);
  });

  it('drops every capability (run as root, bwrap keeps them all) and loads the seccomp filter when given', () => {
    const args = bubblewrapArgs(input);
    expect(after(args, '--cap-drop', 1)).toEqual([['ALL']]);
    expect(args).not.toContain('--seccomp');
    expect(after(bubblewrapArgs({ ...input, seccompFd: 4 }), '--seccomp', 1)).toEqual([['4']]);
  });

  it('pins git folders and binds their config and hooks read-only, over the workspace', () => {
    const guarded = bubblewrapArgs({
      ...input,
      pinned: ['/home/me/ws/.git'],
      readOnly: ['/home/me/ws/.git/config', '/home/me/ws/.git/hooks'],
    });
    expect(after(guarded, '--bind', 2)).toEqual([
      ['/home/me/ws', '/home/me/ws'],
      ['/home/me/ws/.git', '/home/me/ws/.git'],
    ]);
    expect(after(guarded, '--ro-bind', 2).slice(1)).toEqual([
      ['/home/me/ws/.git/config', '/home/me/ws/.git/config'],
      ['/home/me/ws/.git/hooks', '/home/me/ws/.git/hooks'],
    ]);
    expect(guarded.lastIndexOf('--ro-bind')).toBeGreaterThan(guarded.lastIndexOf('--bind'));
  });

  it('without a cgroup, limits processes inside a user namespace of its own, keeping $0 and the command as one argument', () => {
    const args = bubblewrapArgs(input);
    const limited = bubblewrapArgs({ ...input, userNamespaceProcessLimit: 1024 });
    expect(limited).toContain('--unshare-user');
    expect(args).not.toContain('--unshare-user');
    expect(limited.slice(-5)).toEqual([
      '--',
      '/bin/bash',
      '-c',
      'ulimit -u 1024 2>/dev/null; exec /bin/bash -c "$0"',
      'echo "hi"',
    ]);
  });

  it('runs the command with bash -c, unquoted (it is one argument)', () => {
    const args = bubblewrapArgs(input);
    expect(args.slice(-4)).toEqual(['--', '/bin/bash', '-c', 'echo "hi"']);
  });
});

describe('sandboxEnv', () => {
  it('keeps a short allow-list and drops everything else, API keys included', () => {
    const env = sandboxEnv(
      { PATH: '/bin', HOME: '/home/me', LANG: 'ja_JP.UTF-8', OPENAI_API_KEY: 'sk-x', RESOLUTE_DATA_DIR: '/d' },
      '/tmp',
    );
    // Strict: a variable the app does not have is left out, not set to undefined.
    expect(env).toStrictEqual({
      PATH: '/bin',
      HOME: '/home/me',
      LANG: 'ja_JP.UTF-8',
      TERM: 'dumb',
      TMPDIR: '/tmp',
      XDG_CACHE_HOME: '/tmp/.cache',
    });
  });

  it('gives a PATH when there is none', () => {
    expect(sandboxEnv({}, '/tmp').PATH).toBe('/usr/local/bin:/usr/bin:/bin');
  });
});

describe('seatbeltProfile', () => {
  it('denies by default, reads anywhere but the hidden folders, writes only the workspace and its tmp', () => {
    const profile = seatbeltProfile({ ...input, tmpDir: '/private/tmp/resolute-bash-1' });
    const lines = profile.trim().split('\n');
    expect(lines.slice(0, 2)).toEqual(['(version 1)', '(deny default)']);
    expect(lines).toContain('(allow file-read*)');
    expect(lines).toContain('(deny file-read* (subpath "/home/me/.config/Resolute"))');
    expect(lines).toContain('(allow file-write* (subpath "/home/me/ws") (subpath "/private/tmp/resolute-bash-1"))');
    expect(profile).not.toMatch(/network/);
  });

  it('allows exactly what a command needs besides files: processes, signals inside, IPC, terminals, /dev/null', () => {
    const lines = seatbeltProfile({ ...input, tmpDir: '/t' })
      .trim()
      .split('\n');
    expect(lines).toEqual([
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
      '(deny file-read* (subpath "/home/me/.config/Resolute"))',
      '(allow file-write* (subpath "/home/me/ws") (subpath "/t"))',
      '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper") (regex #"^/dev/tty"))',
      '(allow file-ioctl (literal "/dev/null") (literal "/dev/zero") (regex #"^/dev/tty"))',
    ]);
  });

  it('allows the network only when asked', () => {
    expect(seatbeltProfile({ ...input, network: true, tmpDir: '/t' })).toContain('(allow network*)');
  });

  it('escapes quotes and backslashes in paths', () => {
    expect(seatbeltProfile({ ...input, workspace: '/a "b"\\c', tmpDir: '/t' })).toContain(
      '(subpath "/a \\"b\\"\\\\c")',
    );
  });
});

// The pure parts of the MCP client (docs/mcp.md): the environment and command a stdio server is
// started with (mcp-launch.ts; `npm run mutate -- mcp-launch`), which connect failures are retried by which decision row and how
// the decision is logged (mcp-retry.ts), and a tools/call result as the model gets it (mcp-tools.ts).
import { describe, expect, it } from 'vitest';
import type { RetryDecisionRecord } from '../../../../src/shared/history';
import { DEFAULT_SETTINGS } from '../../../../src/shared/settings';
import { programBinds, serverEnv, stdioLaunch } from '../../../../src/main/node/mcp/mcp-launch';
import {
  ConnectFailed,
  connectFailureCategory,
  connectFailureText,
  withConnectRetry,
} from '../../../../src/main/node/mcp/mcp-retry';
import { outcomeOf } from '../../../../src/main/node/mcp/mcp-tools';

const PARENT = {
  PATH: '/usr/bin',
  HOME: '/home/me',
  ANTHROPIC_API_KEY: 'sk-ant-secret',
  OPENAI_API_KEY: 'sk-secret',
  GEMINI_API_KEY: 'g-secret',
  AWS_SECRET_ACCESS_KEY: 'aws',
  RESOLUTE_DATA_DIR: '/data',
  BASH_FUNC_x: '() { evil; }',
  LANG: 'C.UTF-8',
};
const context = { workspace: '/ws', hidden: ['/data'], bwrap: '/usr/bin/bwrap', parentEnv: PARENT };

/** The words after each `flag` in a command line, e.g. after(args, '--setenv', 2) → [[name, value], …]. */
function after(args: string[], flag: string, count: number): string[][] {
  return args.flatMap((a, i) => (a === flag ? [args.slice(i + 1, i + 1 + count)] : []));
}

describe('a stdio server’s environment and command', () => {
  it('keeps only the allow-list of the app’s environment, plus the entry’s own env', () => {
    expect(serverEnv(PARENT, { TOKEN: 'given' })).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/me',
      LANG: 'C.UTF-8',
      TOKEN: 'given',
    });
  });

  it('drops an allow-listed variable that holds a shell function (bash would run it on import)', () => {
    const parent = { PATH: '/usr/bin', SHELL: '() { :; }; touch /tmp/pwn', TERM: 'xterm()' };
    expect(serverEnv(parent)).toEqual({ PATH: '/usr/bin', TERM: 'xterm()' });
  });

  it('runs in the workspace, or in the entry’s cwd (relative to the workspace)', () => {
    expect(stdioLaunch({ command: 'srv' }, context)).toMatchObject({ command: 'srv', args: [], cwd: '/ws' });
    expect(stdioLaunch({ command: 'srv', cwd: 'sub' }, context).cwd).toBe('/ws/sub');
    expect(stdioLaunch({ command: 'srv', cwd: '/elsewhere' }, context).cwd).toBe('/elsewhere');
  });

  it('fills VS Code’s ${workspaceFolder} with the workspace in the arguments, cwd and env', () => {
    const launch = stdioLaunch(
      {
        command: 'srv',
        args: ['--root', '${workspaceFolder}/src'],
        cwd: '${workspaceFolder}/sub',
        env: { DIR: '${workspaceFolder}' },
      },
      context,
    );
    expect(launch).toMatchObject({ args: ['--root', '/ws/src'], cwd: '/ws/sub' });
    expect(launch.env.DIR).toBe('/ws');
  });

  it('sandbox: a cwd that holds or lies in the data folder is refused, as a program that cannot run', () => {
    for (const cwd of ['/data/inside', '/']) {
      let thrown: unknown;
      try {
        stdioLaunch({ command: 'srv', sandbox: true, cwd }, context);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(Error);
      expect((thrown as Error).message).toMatch(/^The server's cwd cannot be used: ./);
      expect((thrown as { code?: unknown }).code).toBe('EACCES');
    }
  });

  it('sandbox: the seccomp filter reaches bwrap on its descriptor through a shell, the process limit wraps it all', () => {
    const plain = stdioLaunch({ command: 'srv', sandbox: true }, context);
    const filtered = stdioLaunch({ command: 'srv', sandbox: true }, context, {
      gitReadOnly: [],
      seccompFile: '/run/filter.bpf',
    });
    expect(filtered.command).toBe('/bin/sh');
    expect(filtered.args.slice(0, 4)).toEqual(['-c', 'exec "$@" 4<"$0"', '/run/filter.bpf', '/usr/bin/bwrap']);
    expect(filtered.args.slice(4)).toContain('--seccomp');
    expect(plain.args).not.toContain('--seccomp');
    const wrapped = stdioLaunch({ command: 'srv', sandbox: true }, context, {
      gitReadOnly: ['/ws/.git'],
      wrap: (command, args) => ({ command: '/usr/bin/limit', args: [command, ...args] }),
    });
    expect(wrapped.command).toBe('/usr/bin/limit');
    expect(wrapped.args[0]).toBe('/usr/bin/bwrap');
    expect(wrapped.args.join(' ')).toContain('--ro-bind /ws/.git /ws/.git');
    expect(wrapped.env).toEqual({});
  });

  it('sandbox: bubblewrap with the workspace writable, the data folder hidden, no keys, network as asked', () => {
    const launch = stdioLaunch({ command: 'srv', args: ["it's"], sandbox: true, network: false }, context);
    expect(launch.command).toBe('/usr/bin/bwrap');
    const args = launch.args.join(' ');
    expect(args).toContain('--bind /ws /ws');
    expect(args).toContain('--tmpfs /data');
    expect(args).toContain('--unshare-net');
    expect(args).toContain('--clearenv');
    expect(args).not.toContain('--json-status-fd');
    expect(args).not.toMatch(/secret/);
    expect(launch.args.at(-1)).toBe(`exec 'srv' 'it'\\''s'`);
    const online = stdioLaunch({ command: 'srv', sandbox: true }, context).args;
    expect(online).not.toContain('--unshare-net');
  });

  it('sandbox: the server’s environment inside is the sandbox’s allow-list and its own env, no key', () => {
    const launch = stdioLaunch({ command: 'srv', sandbox: true, env: { TOKEN: 'given' } }, context);
    expect(Object.fromEntries(after(launch.args, '--setenv', 2))).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/me',
      LANG: 'C.UTF-8',
      TERM: 'dumb',
      TMPDIR: '/tmp',
      XDG_CACHE_HOME: '/tmp/.cache',
      TOKEN: 'given',
    });
    // Outside, bubblewrap itself gets nothing of the app's environment.
    expect(launch.env).toEqual({});
  });

  it('sandbox: the command line is the server’s words alone, each quoted', () => {
    expect(stdioLaunch({ command: 'srv', sandbox: true }, context).args.at(-1)).toBe(`exec 'srv'`);
  });

  it('sandbox: every path bubblewrap mounts is absolute', () => {
    const launch = stdioLaunch(
      { command: '/tmp/bin/srv', args: ['/tmp/clone/node_modules/a.js'], sandbox: true },
      context,
    );
    for (const flag of ['--tmpfs', '--bind', '--ro-bind', '--dev', '--proc', '--chdir'])
      for (const path of after(launch.args, flag, 1).flat()) expect(path).toMatch(/^\//);
  });

  it('sandbox without bubblewrap is refused, not run unconfined', () => {
    expect(() => stdioLaunch({ command: 'srv', sandbox: true }, { ...context, bwrap: null })).toThrow(/bubblewrap/);
  });

  it('sandbox off Linux is refused, even with a bwrap path given', () => {
    const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
    Object.defineProperty(process, 'platform', { value: 'darwin' });
    try {
      expect(() => stdioLaunch({ command: 'srv', sandbox: true }, context)).toThrow(/bubblewrap/);
    } finally {
      Object.defineProperty(process, 'platform', platform);
    }
  });
});

describe('a sandboxed server installed under /tmp', () => {
  it('gets its node_modules (or its file) bound read-only into the private /tmp', () => {
    const script = '/tmp/clone/node_modules/@scope/server/dist/index.js';
    expect(programBinds(['/usr/bin/node', script, '/tmp/clone/node_modules/x/y.js'], ['/tmp/ws'])).toEqual([
      '/tmp/clone/node_modules',
    ]);
    expect(programBinds(['/tmp/bin/server'], ['/tmp/ws'], () => false)).toEqual(['/tmp/bin/server']);
  });

  it("gets a checkout's own script bound with the node_modules its imports resolve from", () => {
    const exists = (path: string) => path === '/tmp/clone/node_modules';
    expect(programBinds(['/tmp/clone/test/fixtures/server.mjs'], ['/tmp/ws'], exists)).toEqual([
      '/tmp/clone/test/fixtures/server.mjs',
      '/tmp/clone/node_modules',
    ]);
    // The nearest one wins, and none is looked for at /tmp itself.
    const nested = (path: string) => ['/tmp/clone/node_modules', '/tmp/clone/pkg/node_modules'].includes(path);
    expect(programBinds(['/tmp/clone/pkg/bin/s.js'], [], nested)).toEqual([
      '/tmp/clone/pkg/bin/s.js',
      '/tmp/clone/pkg/node_modules',
    ]);
    expect(programBinds(['/tmp/s.js'], [], () => true)).toEqual(['/tmp/s.js']);
    // Never the hidden data folder's.
    expect(programBinds(['/tmp/data/x/s.js'], ['/tmp/data'], () => true)).toEqual([]);
  });

  it('never lies over the workspace, nor uncovers the hidden data folder', () => {
    expect(programBinds(['/tmp/ws/tool.js'], ['/tmp/ws'])).toEqual([]);
    expect(programBinds(['/tmp/data/node_modules/a.js'], ['/tmp/ws', '/tmp/data'])).toEqual([]);
    expect(programBinds(['/tmp/node_modules/a.js'], ['/tmp/node_modules/ws'])).toEqual([]);
  });

  it('a command line naming the data folder or the workspace binds neither over the sandbox', () => {
    const inTmp = { workspace: '/tmp/ws', hidden: ['/tmp/data'], bwrap: '/usr/bin/bwrap', parentEnv: {} };
    const launch = stdioLaunch(
      {
        command: '/usr/bin/node',
        args: ['/tmp/data/node_modules/s/i.js', '--data', '/tmp/data', '--root', '/tmp/ws', '/tmp/ws/tool.js'],
        sandbox: true,
      },
      inTmp,
    );
    // Bound read-only, the data folder would lie over the tmpfs that hides it; the workspace would turn read-only.
    expect(after(launch.args, '--ro-bind', 2).filter(([from]) => from !== '/')).toEqual([]);
    expect(after(launch.args, '--bind', 2)).toEqual([['/tmp/ws', '/tmp/ws']]);
  });

  it('goes into the bubblewrap command line before the hidden folders are hidden (issue 40, item 6)', () => {
    const launch = stdioLaunch(
      { command: '/usr/bin/node', args: ['/tmp/clone/node_modules/s/i.js'], sandbox: true },
      { workspace: '/tmp/ws', hidden: ['/home/me/.resolute'], bwrap: '/usr/bin/bwrap', parentEnv: {} },
    );
    const at = launch.args.indexOf('/tmp/clone/node_modules');
    expect(launch.args[at - 1]).toBe('--ro-bind');
    expect(at).toBeLessThan(launch.args.lastIndexOf('/home/me/.resolute'));
  });
});

describe('connect retries by the decision table', () => {
  it('sorts failures into timeout, connection, or not retried', () => {
    expect(connectFailureCategory(Object.assign(new Error('Request timed out'), { code: -32001 }))).toBe('timeout');
    expect(connectFailureCategory(new Error('fetch failed'))).toBe('connection');
    expect(connectFailureCategory(Object.assign(new Error('spawn x ENOENT'), { code: 'ENOENT' }))).toBeNull();
  });

  const retryContext = (log: RetryDecisionRecord[]) => ({
    settings: () => ({ ...DEFAULT_SETTINGS.retry, baseDelayMs: 1, jitterMaxMs: 0 }),
    log: { write: (record: RetryDecisionRecord) => log.push(record) },
    newId: () => 'id',
    sleep: () => Promise.resolve(),
  });

  it('a URL fetch refuses before any request (credentials in it, not a URL) is not retried, and says how to mend it', () => {
    const credentials = new TypeError(
      'Request cannot be constructed from a URL that includes credentials: http://u:p@h/',
    );
    expect(connectFailureCategory(credentials)).toBeNull();
    expect(
      connectFailureCategory(
        new Error('SSE error: Request cannot be constructed from a URL that includes credentials: x'),
      ),
    ).toBeNull();
    expect(connectFailureCategory(new TypeError('Invalid URL'))).toBeNull();
    expect(connectFailureCategory(new TypeError('fetch failed'))).toBe('connection');
    expect(connectFailureText(credentials)).toMatch(/user name or password.*headers/);
    expect(connectFailureText(credentials)).not.toContain('u:p@');
  });

  it('says a request that timed out in words, not as the SDK’s error code', () => {
    const timedOut = Object.assign(new Error('MCP error -32001: Request timed out'), { code: -32001 });
    expect(connectFailureText(timedOut)).toBe('The server did not answer in time (its request timed out).');
    // An `initialize` that timed out keeps its own words, which say what to check.
    const silent = Object.assign(new Error('the server did not answer `initialize` within 10 s'), { code: -32001 });
    expect(connectFailureText(silent)).toBe('the server did not answer `initialize` within 10 s');
  });

  it('stops between attempts once stopped (a server switched off while it waits): no further attempt', async () => {
    const log: RetryDecisionRecord[] = [];
    let tries = 0;
    let stopped = false;
    const context = { ...retryContext(log), sleep: () => Promise.resolve().then(() => void (stopped = true)) };
    const failing = () => {
      tries++;
      return Promise.reject(new Error('ECONNREFUSED'));
    };
    const ended = await withConnectRetry('web', { ...context, isStopped: () => stopped }, failing).catch((e) => e);
    expect(ended).toBeInstanceOf(ConnectFailed);
    expect(ended).toMatchObject({ retryInMs: null });
    expect(tries).toBe(1);
  });

  it('retries a connection failure up to the row’s attempts, logging each decision', async () => {
    const log: RetryDecisionRecord[] = [];
    let tries = 0;
    const failing = () => {
      tries++;
      return Promise.reject(new Error('ECONNREFUSED'));
    };
    await expect(withConnectRetry('web', retryContext(log), failing)).rejects.toThrow('ECONNREFUSED');
    expect(tries).toBe(3);
    expect(log.map((d) => [d.category, d.action, d.attempt])).toEqual([
      ['connection', 'retry', 1],
      ['connection', 'retry', 2],
      ['connection', 'abort', 3],
    ]);
    expect(log[2]).toMatchObject({ finalDecision: 'abort', context: { taskType: 'mcp_connect', modelId: 'web' } });
  });

  it('does not retry a program that is not there', async () => {
    const log: RetryDecisionRecord[] = [];
    let tries = 0;
    const missing = () => {
      tries++;
      return Promise.reject(Object.assign(new Error('spawn nope ENOENT'), { code: 'ENOENT' }));
    };
    await expect(withConnectRetry('x', retryContext(log), missing)).rejects.toThrow();
    expect(tries).toBe(1);
    expect(log).toHaveLength(1);
  });

  it('with background on, a used-up round says when to try again; a missing program is never tried again', async () => {
    const log: RetryDecisionRecord[] = [];
    const refused = () => Promise.reject(new Error('ECONNREFUSED'));
    const later = await withConnectRetry('web', retryContext(log), refused, { background: true }).catch((e) => e);
    expect(later).toBeInstanceOf(ConnectFailed);
    expect(later).toMatchObject({ attempts: 3, retryInMs: 4, message: 'ECONNREFUSED' });
    expect(log.map((d) => d.action)).toEqual(['retry', 'retry', 'retry']);
    expect(log[2].reason).toMatch(/attempt 3, next attempt in the background after 4 ms/);
    // A background attempt continues the count: one try, then the next wait.
    const next = await withConnectRetry('web', retryContext(log), refused, { background: true, firstAttempt: 4 }).catch(
      (e) => e,
    );
    expect(next).toMatchObject({ attempts: 4, retryInMs: 8 });
    const missing = () => Promise.reject(Object.assign(new Error('spawn nope ENOENT'), { code: 'ENOENT' }));
    const never = await withConnectRetry('x', retryContext(log), missing, { background: true }).catch((e) => e);
    expect(never).toMatchObject({ attempts: 1, retryInMs: null });
  });

  it('stops at the first success', async () => {
    let tries = 0;
    const flaky = () => (++tries < 2 ? Promise.reject(new Error('socket hang up')) : Promise.resolve('ok'));
    expect(await withConnectRetry('x', retryContext([]), flaky)).toBe('ok');
    expect(tries).toBe(2);
  });
});

describe('a tools/call result as the model gets it', () => {
  it('text, images apart, isError kept', () => {
    const outcome = outcomeOf({
      content: [
        { type: 'text', text: 'one' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'resource_link', uri: 'file:///a', name: 'a' },
      ],
      isError: true,
    });
    expect(outcome).toEqual({
      text: 'one\n[resource file:///a (a)]',
      details: {},
      isError: true,
      images: [{ data: 'AAAA', mimeType: 'image/png' }],
    });
  });

  it('structured content when there is no text; "(no output)" when there is nothing', () => {
    expect(outcomeOf({ content: [], structuredContent: { a: 1 } }).text).toBe('{\n  "a": 1\n}');
    expect(outcomeOf({ content: [] }).text).toBe('(no output)');
  });

  it('a huge text is cut to the caps and says so', () => {
    const outcome = outcomeOf({ content: [{ type: 'text', text: 'x\n'.repeat(5000) }] });
    expect(outcome.details.truncated).toBe(true);
    expect(outcome.text).toMatch(/\[Output cut to 2000 of 5001 lines\.\]$/);
  });
});

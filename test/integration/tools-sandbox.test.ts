// Tools over real HTTP, through the real composition root, with the real bubblewrap: a scripted
// model (the simulator's tool:NAME:ARGS steps) makes every call. Each case checks the requests the
// simulator saw, the files on disk, the decision log and the sandbox audit log — the policy's tool
// rows (sandbox, sandbox_security, patch_apply, invalid_output) from real tool calls, and the
// ordinary results (exit codes, timeouts) that go back to the model. Approvals are `auto` here;
// they have their own tests (test/unit/core/tools/session-tools.test.ts, RPC and Playwright).
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppServices } from '../../src/main/node/app-services';
import type { SessionEvent } from '../../src/shared/events';
import type { RetryDecisionRecord } from '../../src/shared/history';
import { tool } from '../fixtures/sim-steps';

let root: string;
let workspace: string;
let outside: string;
let services: AppServices;
const events: SessionEvent[] = [];

async function start(extra: Partial<Parameters<typeof AppServices.create>[0]> = {}): Promise<AppServices> {
  const dataDir = mkdtempSync(join(root, 'data-'));
  return AppServices.create({
    host: 'rpc',
    version: 'test',
    dataDir,
    workspace,
    overlay: {
      tools: { approval: 'auto', timeoutMs: 10_000 },
      retry: { baseDelayMs: 1, jitterMaxMs: 0, policy: { invalid_output: { delayMs: 1 } } },
    },
    publish: (event) => events.push(event),
    ...extra,
  });
}

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-tools-it-')));
  workspace = join(root, 'ws');
  outside = join(root, 'outside');
  mkdirSync(workspace);
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'top secret');
  symlinkSync(outside, join(workspace, 'escape'));
  services = await start();
});

afterAll(async () => {
  await services.dispose();
  rmSync(root, { recursive: true, force: true });
});

beforeEach(() => services.domains.session.newSession());

function jsonl<T>(path: string): T[] {
  return existsSync(path)
    ? readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as T)
    : [];
}

/** Run one prompt against `script`; what the server saw and what was logged during it. */
async function run(script: string, app = services) {
  app.simulator!.setScript(script);
  app.simulator!.clearRequests();
  const decisionsBefore = jsonl(join(app.logDir, 'retry-decisions.jsonl')).length;
  const auditsBefore = jsonl(join(app.logDir, 'sandbox-audit.jsonl')).length;
  await app.session.prompt(`run ${script}`);
  const detail = app.history.getSession(app.session.sessionId)!;
  return {
    requests: app.simulator!.requests,
    turns: detail.turns.map((t) => [t.role, t.stopReason, t.errorCategory]),
    detail,
    decisions: jsonl<RetryDecisionRecord>(join(app.logDir, 'retry-decisions.jsonl')).slice(decisionsBefore),
    audits: jsonl<Record<string, unknown>>(join(app.logDir, 'sandbox-audit.jsonl')).slice(auditsBefore),
  };
}

describe('a round trip', () => {
  it('writes a file and the model sees the result in its next request', async () => {
    const r = await run(`${tool('write', { path: 'notes/hello.txt', content: 'hello from the model\n' })}, ok`);
    expect(readFileSync(join(workspace, 'notes', 'hello.txt'), 'utf8')).toBe('hello from the model\n');
    expect(r.requests).toHaveLength(2);
    expect(r.requests[1].lastToolResult).toBe('Wrote 21 bytes to notes/hello.txt.');
    expect(r.turns).toEqual([
      ['user', null, null],
      ['assistant', 'toolUse', null],
      ['toolResult', null, null],
      ['assistant', 'stop', null],
    ]);
    expect(r.decisions).toEqual([]);
    expect(r.audits).toEqual([]);
  });

  it('bash runs in the workspace and its output comes back, streamed as it runs', async () => {
    const from = events.length;
    const r = await run(`${tool('bash', { command: 'pwd; echo made > made.txt; ls' })}, ok`);
    expect(r.requests[1].lastToolResult).toBe(`${workspace}\nescape\nmade.txt\nnotes`);
    expect(readFileSync(join(workspace, 'made.txt'), 'utf8')).toBe('made\n');
    const types = events.slice(from).map((e) => e.type);
    expect(types).toContain('tool_execution_start');
    expect(types).toContain('tool_execution_end');
    const result = r.detail.turns.find((t) => t.role === 'toolResult')!.message;
    expect(result).toMatchObject({ isError: false, details: { exitCode: 0, durationMs: expect.any(Number) } });
  });

  it('a non-zero exit goes back to the model as an ordinary result', async () => {
    const r = await run(`${tool('bash', { command: 'echo oops >&2; exit 3' })}, ok`);
    expect(r.requests).toHaveLength(2);
    expect(r.requests[1].lastToolResult).toBe('oops\n\nCommand exited with code 3');
    expect(r.turns.at(-1)).toEqual(['assistant', 'stop', null]);
    expect(r.decisions).toEqual([]);
  });

  it('a timeout is a result too', async () => {
    const r = await run(`${tool('bash', { command: 'echo started; sleep 30', timeout: 0.5 })}, ok`);
    expect(r.requests).toHaveLength(2);
    expect(r.requests[1].lastToolResult).toBe('started\n\nCommand timed out after 0.5 seconds');
    expect(r.decisions).toEqual([]);
  });
});

describe('sandbox_security: a call that reaches outside', () => {
  it.each([
    ['read outside', tool('read', { path: '../outside/secret.txt' }), null],
    ['an absolute path outside', tool('read', { path: '<outside>/secret.txt' }), null],
    ['write outside', tool('write', { path: '../outside/planted.txt', content: 'x' }), 'planted.txt'],
    ['a symlink escape', tool('write', { path: 'escape/planted.txt', content: 'x' }), 'planted.txt'],
    [
      'edit through a symlink',
      tool('edit', { path: 'escape/secret.txt', edits: [{ oldText: 'top', newText: 'no' }] }),
      null,
    ],
  ])('%s: errored turn, audit record, WARNING abort, nothing written outside', async (_name, step, planted) => {
    const before = readdirSync(outside).sort();
    const r = await run(`${step.replace('<outside>', outside)}, ok`);
    expect(r.requests).toHaveLength(1);
    expect(r.turns).toEqual([
      ['user', null, null],
      ['assistant', 'toolUse', null],
      ['toolResult', null, 'sandbox_security'],
      ['assistant', 'error', 'sandbox_security'],
    ]);
    expect(r.audits).toHaveLength(1);
    expect(r.audits[0]).toMatchObject({ sessionId: services.session.sessionId, workspace });
    expect(r.decisions).toEqual([
      expect.objectContaining({
        category: 'sandbox_security',
        errorType: 'SandboxSecurityError',
        action: 'abort',
        level: 'WARNING',
        finalDecision: 'abort',
      }),
    ]);
    expect(readdirSync(outside).sort()).toEqual(before);
    if (planted) expect(existsSync(join(outside, planted))).toBe(false);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
    expect(services.history.erroredTurns(5)[0].turn.errorCategory).toBe('sandbox_security');
    // Search finds the refusal through the tool result's text.
    expect(services.history.search('Tools work only inside the workspace', 50).map((h) => h.sessionId)).toContain(
      services.session.sessionId,
    );
  });

  it('a link whose target cannot be read (a dead process’s /proc root) is a refusal with its audit record', async () => {
    // readlink of /proc/PID/root fails for a zombie (and, for another user's process, for anyone
    // but root): the walk is outside by then, so the failure is a refusal, not an ordinary error.
    const zombie = await makeZombie();
    symlinkSync(`/proc/${zombie.pid}/root`, join(workspace, 'procroot'));
    try {
      const r = await run(`${tool('read', { path: 'procroot/etc/hostname' })}, ok`);
      expect(r.turns.at(-1)).toEqual(['assistant', 'error', 'sandbox_security']);
      expect(r.audits).toEqual([expect.objectContaining({ toolName: 'read', target: 'procroot/etc/hostname' })]);
    } finally {
      zombie.release();
      rmSync(join(workspace, 'procroot'));
    }
  });

  it('the audit record is in the history too, for the session', async () => {
    await run(tool('read', { path: '../outside/secret.txt' }));
    const db = new Database(join(services.dataDir, 'history.db'), { readonly: true });
    try {
      const row = db
        .prepare('SELECT session_id, tool_name, target, args_json FROM sandbox_audit ORDER BY n DESC')
        .get();
      expect(row).toEqual({
        session_id: services.session.sessionId,
        tool_name: 'read',
        target: '../outside/secret.txt',
        args_json: '{"path":"../outside/secret.txt"}',
      });
    } finally {
      db.close();
    }
  });
});

describe('bash cannot leave the sandbox', () => {
  let server: Server;
  let hits = 0;
  let port = 0;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      hits += 1;
      res.end('reached');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const connect = () => `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`;

  it('cannot write outside the workspace: the file system is read-only there', async () => {
    const r = await run(
      `${tool('bash', { command: `echo x > ${outside}/planted.txt; touch /etc/resolute-planted` })}, ok`,
    );
    expect(existsSync(join(outside, 'planted.txt'))).toBe(false);
    expect(existsSync('/etc/resolute-planted')).toBe(false);
    expect(r.requests[1].lastToolResult).toMatch(/Read-only file system/);
  });

  it('cannot open a TCP connection to a server on 127.0.0.1: the server sees nothing', async () => {
    hits = 0;
    const r = await run(`${tool('bash', { command: connect() })}, ok`);
    expect(r.requests[1].lastToolResult).toMatch(/Command exited with code 1/);
    expect(hits).toBe(0);
  });

  it('with tools.network on, the same command reaches it (the check above can fail)', async () => {
    hits = 0;
    services.settings.update({ tools: { network: true } });
    try {
      const r = await run(`${tool('bash', { command: connect() })}, ok`);
      expect(r.requests[1].lastToolResult).toMatch(/reached/);
      expect(hits).toBe(1);
    } finally {
      services.settings.update({ tools: { network: false } });
    }
  });

  it('does not see the data folder, the app environment or the API keys in it', async () => {
    process.env.RESOLUTE_TEST_SECRET = 'sk-should-not-leak';
    const r = await run(`${tool('bash', { command: `ls ${services.dataDir}; env` })}, ok`);
    delete process.env.RESOLUTE_TEST_SECRET;
    expect(r.requests[1].lastToolResult).not.toMatch(/history\.db|credentials|sk-should-not-leak/);
  });
});

describe('patch_apply', () => {
  it('an edit that does not apply aborts the turn and leaves the file byte-identical', async () => {
    const file = join(workspace, 'code.ts');
    writeFileSync(file, 'const a = 1;\r\nconst b = 2;\r\n');
    const before = readFileSync(file);
    const r = await run(`${tool('edit', { path: 'code.ts', edits: [{ oldText: 'const', newText: 'let' }] })}, ok`);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(r.requests).toHaveLength(1);
    expect(r.turns.at(-1)).toEqual(['assistant', 'error', 'patch_apply']);
    expect(r.decisions).toEqual([
      expect.objectContaining({ category: 'patch_apply', action: 'abort', level: 'WARNING' }),
    ]);
    expect(r.audits).toEqual([]);
  });
});

describe('invalid_output', () => {
  it('an unknown tool is retried (the invalid_output row), and the model then answers', async () => {
    const r = await run('tool:launch_missiles:{}, ok');
    expect(r.requests).toHaveLength(2);
    expect(r.requests[1].lastToolResult).toBe('Tool launch_missiles not found');
    expect(r.decisions.map((d) => [d.category, d.action, d.finalDecision])).toEqual([
      ['invalid_output', 'retry', null],
      ['invalid_output', 'retry', 'success'],
    ]);
  });

  it('arguments that are not JSON fail the schema, three times, then the chain gives up', async () => {
    const r = await run('tool:read:{"path":}, tool:read:{"path":}, tool:read:{"path":}, ok');
    expect(r.requests).toHaveLength(3);
    expect(r.decisions.at(-1)).toMatchObject({ category: 'invalid_output', action: 'abort', finalDecision: 'abort' });
  });
});

describe('sandbox: the sandbox cannot run', () => {
  it('bubblewrap missing: abort with the fix-it message, no command run', async () => {
    const app = await start({ sandbox: { bwrap: join(root, 'no-such-bwrap') } });
    try {
      const r = await run(`${tool('bash', { command: 'echo ran > ran.txt' })}, ok`, app);
      expect(r.requests).toHaveLength(1);
      expect(r.turns.at(-1)).toEqual(['assistant', 'error', 'sandbox']);
      expect(r.detail.turns.at(-1)?.errorMessage).toMatch(
        /bubblewrap \(bwrap\) is not installed.*apt install bubblewrap/,
      );
      expect(r.decisions).toEqual([
        expect.objectContaining({
          category: 'sandbox',
          errorType: 'SandboxExecutionError',
          action: 'abort',
          level: 'WARNING',
        }),
      ]);
      expect(existsSync(join(workspace, 'ran.txt'))).toBe(false);
    } finally {
      await app.dispose();
    }
  });
});

describe('Stop during a long command', () => {
  /** Parent pid and command line of every process, from /proc (one that exits meanwhile is left out). */
  const processes = (): Map<number, { ppid: number; cmd: string }> => {
    const out = new Map<number, { ppid: number; cmd: string }>();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        // The fields after the command name (which may hold spaces and parentheses); ppid is the second.
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
        out.set(Number(entry), { ppid, cmd });
      } catch {
        // Gone between the listing and the read.
      }
    }
    return out;
  };
  /**
   * The test's `sleep 424x` processes: only among this process's descendants, so that another run
   * on the same machine is never counted. The setsid grandchild stays in the tree: bubblewrap's PID
   * namespace makes its init, a descendant of ours, the orphan's new parent.
   */
  const alive = (): string[] => {
    const all = processes();
    const tree = new Set([process.pid]);
    for (let grew = true; grew;) {
      grew = false;
      for (const [pid, { ppid }] of all)
        if (!tree.has(pid) && tree.has(ppid)) {
          tree.add(pid);
          grew = true;
        }
    }
    return [...all]
      .filter(([pid, { cmd }]) => pid !== process.pid && tree.has(pid) && /sleep 424[23]/.test(cmd))
      .map(([, { cmd }]) => cmd);
  };

  it('kills the whole process tree, a setsid grandchild included', async () => {
    services.simulator!.setScript(`${tool('bash', { command: '(setsid sleep 4242 &); sleep 4243' })}, ok`);
    const running = services.session.prompt('long');
    while (alive().length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    await services.session.abort();
    await running;
    // The setsid grandchild left the shell's process group: only a kill of the whole tree reaches it.
    await expect.poll(alive, { timeout: 10_000 }).toEqual([]);
    const turns = services.history.getSession(services.session.sessionId)!.turns;
    expect(turns.find((t) => t.role === 'toolResult')?.text).toMatch(/Command aborted/);
    expect(turns.at(-1)).toMatchObject({ role: 'assistant', stopReason: 'aborted' });
  });
});

/** A zombie process (exited, never reaped: its parent `sleep` does not wait), and how to end it. */
async function makeZombie(): Promise<{ pid: number; release: () => void }> {
  const parent = spawn('/bin/sh', ['-c', 'sleep 0 & echo $!; exec sleep 600'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const pid = await new Promise<number>((resolve) =>
    parent.stdout.once('data', (chunk) => resolve(Number(String(chunk)))),
  );
  while (!/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8')))
    await new Promise((resolve) => setImmediate(resolve));
  return { pid, release: () => parent.kill('SIGKILL') };
}

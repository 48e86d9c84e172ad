// A `sandbox: true` MCP server gets bash's hardening (issue 40, items 4 and 6), tried with the real
// bubblewrap from inside a hostile server of the tests' own (fixtures/mcp-shell-server.mjs, whose
// tool runs any shell command) through Resolute's McpConnection: no Unix socket to a listener on
// the host, the workspace's git metadata read-only for the server's life, a process limit, and a
// `cwd` checked like a workspace choice, with the data folder hidden even under a bind that holds it.
import { execFileSync, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { McpStdioServer } from '../../src/shared/mcp';
import { DEFAULT_SETTINGS } from '../../src/shared/settings';
import { McpConnection } from '../../src/main/node/mcp/mcp-connection';
import { defaultSandboxHost } from '../../src/main/node/tools/executables';
import { FIXTURES } from './fixtures/mcp-servers';

const SHELL_SERVER = join(FIXTURES, 'mcp-shell-server.mjs');
const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
let root: string;
let workspace: string;
let dataDir: string;
const open: McpConnection[] = [];

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-mcp-hard-')));
  workspace = join(root, 'ws');
  dataDir = join(root, 'data');
  mkdirSync(workspace);
  mkdirSync(dataDir);
  writeFileSync(join(dataDir, '.credentials.key'), 'the key\n');
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function connect(entry: Partial<McpStdioServer> = {}, where = workspace): McpConnection {
  const connection = new McpConnection({
    name: 'shell',
    config: { command: process.execPath, args: [SHELL_SERVER], sandbox: true, network: false, ...entry },
    version: '0.1.0',
    logDir: join(root, 'logs'),
    launch: { workspace: where, hidden: [dataDir], bwrap: defaultSandboxHost().bwrap, parentEnv: process.env },
    retry: {
      settings: () => ({ ...DEFAULT_SETTINGS.retry, maxRetries: 0 }),
      log: { write: () => undefined },
      newId: () => 'id',
      sleep: () => Promise.resolve(),
    },
    onTools: () => undefined,
    onState: () => undefined,
  });
  open.push(connection);
  return connection;
}

async function sh(connection: McpConnection, command: string): Promise<string> {
  const result = await connection.callTool('sh', { command }, { timeoutMs: 60_000, maxTotalTimeoutMs: 60_000 });
  return (result.content as { text: string }[]).map((block) => block.text).join('');
}

describe('Unix sockets', () => {
  let server: Server;
  let socketDir: string;
  let accepted = 0;

  beforeAll(async () => {
    // Outside the workspace, under the home folder like ~/.docker/desktop/docker.sock.
    socketDir = mkdtempSync(join(homedir(), '.resolute-mcp-sock-'));
    server = createServer((socket) => {
      accepted += 1;
      socket.end('answered\n');
    });
    await new Promise<void>((resolve) => server.listen(join(socketDir, 'docker.sock'), resolve));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(socketDir, { recursive: true, force: true });
  });

  it('a sandboxed server cannot connect to a listener on the host, network off', async () => {
    const path = JSON.stringify(join(socketDir, 'docker.sock'));
    const out = await sh(
      connect(),
      `node -e 'const s=require("net").connect(${path});s.on("data",d=>{process.stdout.write("got "+d);process.exit(0)});s.on("error",e=>{console.log("refused "+e.code);process.exit(7)})'`,
    );
    expect(out).not.toMatch(/got answered/);
    expect(out).toMatch(/refused E(PERM|ACCES)/);
    expect(accepted).toBe(0);
  });
});

describe('git metadata', () => {
  let repo: string;
  beforeAll(() => {
    repo = join(workspace, 'repo');
    mkdirSync(repo);
    execFileSync('git', ['init', '-q', '.'], { cwd: repo, env: gitEnv });
  });

  it('a sandboxed server cannot write .git/config or a hook; the person’s git runs nothing', async () => {
    const config = readFileSync(join(repo, '.git', 'config'), 'utf8');
    const marker = join(root, 'fsmonitor-ran');
    const out = await sh(
      connect({}, repo),
      `git config core.fsmonitor "touch ${marker}"; echo "config=$?"; printf "#!/bin/sh\\n" > .git/hooks/post-checkout; echo "hook=$?"`,
    );
    expect(out).toMatch(/config=[1-9]/);
    expect(out).toMatch(/hook=[1-9]/);
    expect(readFileSync(join(repo, '.git', 'config'), 'utf8')).toBe(config);
    expect(existsSync(join(repo, '.git', 'hooks', 'post-checkout'))).toBe(false);
    spawnSync('git', ['status'], { cwd: repo, env: gitEnv });
    expect(existsSync(marker)).toBe(false);
  });

  it('a repository the server makes with a command in its config is disarmed after the call', async () => {
    const fresh = join(workspace, 'fresh');
    mkdirSync(fresh);
    const call = sh(connect({}, fresh), 'git init -q . && git config core.fsmonitor "touch /tmp/pwn" && echo done');
    await expect(call).rejects.toMatchObject({ category: 'sandbox_security', message: /core\.fsmonitor/ });
    const lookup = spawnSync('git', ['config', '--get-regexp', 'fsmonitor'], { cwd: fresh, encoding: 'utf8' });
    expect(lookup.stdout).toBe('');
  });
});

describe('process limit', () => {
  it('a sandboxed server cannot start more processes than the limit', async () => {
    // 1200 children, more than the limit of 1024 (the server's own threads count too). The count
    // goes to a file: a server that starves itself this way may die before it answers.
    const count = join(workspace, 'started.txt');
    writeFileSync(
      join(workspace, 'spawn.js'),
      `const { spawn } = require('child_process');
const kids = [];
for (let i = 0; i < 1200; i++) {
  const kid = spawn('sleep', ['30'], { stdio: 'ignore' });
  kid.on('error', () => undefined);
  if (kid.pid) kids.push(kid);
}
require('fs').writeFileSync(${JSON.stringify(count)}, String(kids.length));
for (const kid of kids) kid.kill('SIGKILL');
`,
    );
    await sh(connect(), 'node spawn.js').catch(() => undefined);
    const started = Number(readFileSync(count, 'utf8'));
    expect(started).toBeGreaterThan(0);
    expect(started).toBeLessThan(1024);
  }, 60_000);
});

describe('the server’s cwd (issue 40, item 6)', () => {
  it('a cwd inside the data folder, or holding it, is refused: the server does not start', async () => {
    for (const cwd of [dataDir, join(dataDir, '.'), dirname(dataDir)]) {
      await expect(connect({ cwd }).start()).rejects.toThrow(/cwd cannot be used: .*data folder/);
    }
  });

  it('a bind that holds the data folder does not uncover it', async () => {
    // The session's workspace is not checked here (it was when chosen): the plan alone must hide.
    const out = await sh(
      connect({}, root),
      `echo "entries=$(ls -A ${dataDir} | wc -l)"; cat ${dataDir}/.credentials.key`,
    );
    expect(out).toMatch(/entries=0/);
    expect(out).not.toMatch(/the key/);
  });
});

// One instance per data folder, with the BUILT CLI (out/main/cli.js) as real processes: a second
// instance on the same folder refuses with a message naming the first and exits 0, in the browser
// and the RPC mode; after the first is killed with SIGKILL (no chance to clean up), the lock it
// left is found stale and the next instance takes it over; a clean stop removes the lock.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_TIMEOUT_MS, CLI, ensureBuiltCli } from './fixtures/built-cli';
import { pollUntil as until } from './fixtures/poll';

const LOCK_FILE = 'resolute.lock';

interface Running {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started: Running[] = [];
let dataDir = '';

beforeAll(ensureBuiltCli, BUILD_TIMEOUT_MS);

afterEach(() => {
  for (const { child } of started.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function run(mode: 'web' | 'rpc'): Running {
  const args = [CLI, '--mode', mode, '--data-dir', dataDir, ...(mode === 'web' ? ['--no-open', '--port', '0'] : [])];
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  const running = { child, out: () => out, err: () => err, exited };
  started.push(running);
  return running;
}

const lockHolder = (): number => (JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')) as { pid: number }).pid;

describe('one instance per data folder', () => {
  it('a second instance refuses and exits 0; after kill -9 of the first, the stale lock is taken over', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'resolute-lock-'));
    const first = run('web');
    await until(() => first.out().includes('running at'), 'the first instance');
    expect(lockHolder()).toBe(first.child.pid);

    for (const mode of ['web', 'rpc'] as const) {
      const second = run(mode);
      expect(await second.exited, second.err()).toEqual({ code: 0, signal: null });
      expect(second.err()).toMatch(new RegExp(`already running on this data folder.*process ${first.child.pid}`, 's'));
      expect(second.out()).toBe('');
    }
    expect(lockHolder()).toBe(first.child.pid);

    first.child.kill('SIGKILL');
    await first.exited;
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(true);

    const third = run('web');
    await until(() => third.out().includes('running at'), `the third instance (stderr: ${third.err()})`);
    expect(lockHolder()).toBe(third.child.pid);
    third.child.kill('SIGTERM');
    expect(await third.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  });
});

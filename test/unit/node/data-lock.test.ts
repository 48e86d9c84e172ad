// The data-folder lock on a real file system, held by a real second process
// (fixtures/lock-holder.ts): a live holder is refused with its pid in the message; a lock whose
// pid is alive but belongs to another process now (pid reuse, told by the start time in /proc) is
// stale and taken over, and so is one whose pid is gone; a released lock is gone; a half-written
// lock is refused while fresh and taken over once old.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireDataLock, DataFolderLockedError } from '../../../src/main/node/data-lock';

const HOLDER = resolve('test/integration/fixtures/lock-holder.ts');
const hasProc = existsSync('/proc/self/stat');
let dir = '';
let child: ChildProcess | null = null;

afterEach(() => {
  child?.kill('SIGKILL');
  child = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function holdInChild(dataDir: string): Promise<ChildProcess> {
  const holder = spawn(process.execPath, ['--import', 'tsx', HOLDER, dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((done, reject) => {
    holder.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('held') && done(holder));
    holder.once('exit', (code) => reject(new Error(`the holder exited with ${code}`)));
  });
}

const lockPath = () => join(dir, 'resolute.lock');

describe('the data-folder lock', () => {
  it('refuses while another live process holds it, naming that process', async () => {
    dir = mkdtempSync(join(tmpdir(), 'resolute-lock-'));
    const holder = await holdInChild(dir);
    child = holder;
    const error = (() => {
      try {
        acquireDataLock(dir);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(DataFolderLockedError);
    expect((error as DataFolderLockedError).holder?.pid).toBe(holder.pid);
    expect(String((error as Error).message)).toContain(`process ${holder.pid}`);
    expect(statSync(lockPath()).mode & 0o777).toBe(0o600);
  });

  it.skipIf(!hasProc)('takes over a lock whose pid now belongs to another process (pid reuse)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'resolute-lock-'));
    const holder = await holdInChild(dir);
    child = holder;
    // The same live pid, but the lock says it started at another time: not the process that wrote it.
    const held = JSON.parse(readFileSync(lockPath(), 'utf8')) as Record<string, unknown>;
    writeFileSync(lockPath(), JSON.stringify({ ...held, processStart: 'another-boot:12345' }));
    const lock = acquireDataLock(dir);
    expect(lock.tookOverFrom?.pid).toBe(holder.pid);
    expect((JSON.parse(readFileSync(lockPath(), 'utf8')) as { pid: number }).pid).toBe(process.pid);
    lock.release();
    expect(existsSync(lockPath())).toBe(false);
  });

  it('takes over a lock that names no running process', () => {
    dir = mkdtempSync(join(tmpdir(), 'resolute-lock-'));
    writeFileSync(lockPath(), JSON.stringify({ pid: 2 ** 22 + 7, nonce: 'x', host: hostname(), processStart: null }));
    const lock = acquireDataLock(dir);
    expect(lock.tookOverFrom?.pid).toBe(2 ** 22 + 7);
    lock.release();
  });

  it('refuses a half-written lock while it is fresh (another copy is starting), takes it over once old', () => {
    dir = mkdtempSync(join(tmpdir(), 'resolute-lock-'));
    writeFileSync(lockPath(), '{ half a lo');
    expect(() => acquireDataLock(dir)).toThrow(DataFolderLockedError);
    expect(readFileSync(lockPath(), 'utf8')).toBe('{ half a lo');
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(lockPath(), minuteAgo, minuteAgo);
    const lock = acquireDataLock(dir);
    expect(lock.tookOverFrom).toBeNull();
    lock.release();
  });

  it('refuses a second lock in the same process', () => {
    dir = mkdtempSync(join(tmpdir(), 'resolute-lock-'));
    const lock = acquireDataLock(dir);
    expect(() => acquireDataLock(dir)).toThrow(new RegExp(`process ${process.pid}`));
    lock.release();
    acquireDataLock(dir).release();
  });
});

// The data-folder lock on a real file system, held by a real second process
// (fixtures/lock-holder.ts): a live holder is refused with its pid in the message; a lock whose
// pid is alive but belongs to another process now (pid reuse, told by the start time in /proc) is
// stale and taken over, and so is one whose pid is gone; a released lock is gone; a half-written
// lock is refused while fresh and taken over once old (`{}` and other holderless JSON too); another
// host's lock and another user's live process are refused; the old holder's release after a
// takeover keeps the new lock; a file-system error is reported as itself.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireDataLock, DataFolderLockedError } from '../../../src/main/node/data-lock';

const HOLDER = resolve('test/integration/fixtures/lock-holder.ts');
const TAKER = resolve('test/integration/fixtures/lock-taker.ts');
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
    if (hasProc) {
      // The holder's start, as /proc tells it: boot id and field 22 (after a command name that may hold ") ").
      const stat = readFileSync(`/proc/${holder.pid}/stat`, 'utf8');
      const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
      const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
      expect(JSON.parse(readFileSync(lockPath(), 'utf8'))).toMatchObject({ processStart: `${bootId}:${start}` });
    }
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

  it.each(['{}', '{"pid": 4194311}', '{"pid": 4194311, "nonce": "n"}', '{"nonce": "n", "host": "h"}', '[]'])(
    'a lock file of JSON that names no holder (%s) is refused while fresh and taken over once old',
    (text) => {
      dir = mkdtempSync(join(tmpdir(), 'resolute-lock-'));
      writeFileSync(lockPath(), text);
      expect(() => acquireDataLock(dir)).toThrow(/Another Resolute is starting on this data folder/);
      const minuteAgo = new Date(Date.now() - 60_000);
      utimesSync(lockPath(), minuteAgo, minuteAgo);
      const lock = acquireDataLock(dir);
      expect(lock.tookOverFrom).toBeNull();
      lock.release();
    },
  );

  it("refuses another host's lock (a shared folder: its process cannot be checked), naming the host", () => {
    dir = mkdtempSync(join(tmpdir(), 'resolute-lock-'));
    const since = '2026-01-01T00:00:00.000Z';
    writeFileSync(lockPath(), JSON.stringify({ pid: 2 ** 22 + 7, nonce: 'x', host: `not-${hostname()}`, since }));
    expect(() => acquireDataLock(dir)).toThrow(
      `as process ${2 ** 22 + 7} on not-${hostname()} since ${since}. Use that one or stop it first`,
    );
    expect(readFileSync(lockPath(), 'utf8')).toContain(`not-${hostname()}`);
  });

  it('takes over a lock naming this process but a nonce it does not hold (no /proc start to tell)', () => {
    dir = mkdtempSync(join(tmpdir(), 'resolute-lock-'));
    writeFileSync(
      lockPath(),
      JSON.stringify({ pid: process.pid, nonce: 'earlier', host: hostname(), processStart: null }),
    );
    const lock = acquireDataLock(dir);
    expect(lock.tookOverFrom?.nonce).toBe('earlier');
    lock.release();
  });

  it('the old holder releasing after a takeover leaves the new lock in place', () => {
    dir = mkdtempSync(join(tmpdir(), 'resolute-lock-'));
    const old = acquireDataLock(dir);
    const theirs = JSON.stringify({ pid: 2 ** 22 + 9, nonce: 'theirs', host: hostname(), processStart: null });
    writeFileSync(lockPath(), theirs);
    old.release();
    expect(readFileSync(lockPath(), 'utf8')).toBe(theirs);
  });

  it('a file-system error is reported as itself, not as another copy starting', () => {
    dir = mkdtempSync(join(tmpdir(), 'resolute-lock-'));
    expect(() => acquireDataLock(join(dir, 'missing'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    mkdirSync(lockPath());
    expect(() => acquireDataLock(dir)).toThrow(expect.objectContaining({ code: 'EISDIR' }));
  });

  const root = process.getuid?.() === 0;
  /** Whether another user can read the fixture (not so in a private temp copy, e.g. a mutation-testing sandbox). */
  const othersCanRead = (path: string): boolean => {
    for (let at = dirname(path); at !== dirname(at); at = dirname(at))
      if ((statSync(at).mode & 0o001) === 0) return false;
    return (statSync(path).mode & 0o004) !== 0;
  };
  // As root, the taker must run as another user, who must be able to read this tree.
  it.skipIf(!hasProc || process.platform === 'win32' || (root && !othersCanRead(TAKER)))(
    "refuses a lock of another user's live process (signalling it gives EPERM)",
    () => {
      dir = mkdtempSync(join(tmpdir(), 'resolute-lock-'));
      // As root every process can be signalled: the taker runs as nobody, the holder is this (root) process.
      // As another user, pid 1 belongs to someone else.
      const holderPid = root ? process.pid : 1;
      if (!root && statSync('/proc/1').uid === process.getuid?.()) return;
      writeFileSync(lockPath(), JSON.stringify({ pid: holderPid, nonce: 'x', host: hostname(), processStart: null }));
      if (root) {
        chownSync(dir, 65534, 65534);
        chmodSync(dir, 0o700);
      }
      const taker = spawnSync(process.execPath, ['--import', 'tsx', TAKER, dir], {
        encoding: 'utf8',
        ...(root ? { uid: 65534, gid: 65534 } : {}),
      });
      expect(taker.status, taker.stderr).toBe(0);
      expect(JSON.parse(taker.stdout)).toEqual({ refused: holderPid });
    },
  );

  it('says who holds the lock: here with the time it was taken, elsewhere with the host', () => {
    dir = mkdtempSync(join(tmpdir(), 'resolute-lock-'));
    const lock = acquireDataLock(dir);
    const mine = (() => {
      try {
        acquireDataLock(dir);
      } catch (e) {
        return e as DataFolderLockedError;
      }
    })()!;
    expect(mine.name).toBe('DataFolderLockedError');
    expect(mine.message).toMatch(
      new RegExp(`\\(${dir}\\), as process ${process.pid} since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\. Use that one`),
    );
    lock.release();
    writeFileSync(lockPath(), JSON.stringify({ pid: 77, nonce: 'x', host: 'far-away' }));
    expect(() => acquireDataLock(dir)).toThrow(
      `Resolute is already running on this data folder (${dir}), as process 77 on far-away. ` +
        'Use that one or stop it first; a second copy needs another --data-dir.',
    );
    writeFileSync(lockPath(), '{');
    expect(() => acquireDataLock(dir)).toThrow(
      `Another Resolute is starting on this data folder (${dir}): ${lockPath()} is being written. ` +
        'If none is running, delete that file and start again.',
    );
  });

  it('a lock without a nonce names no holder', () => {
    dir = mkdtempSync(join(tmpdir(), 'resolute-lock-'));
    writeFileSync(lockPath(), JSON.stringify({ pid: 77, host: hostname() }));
    expect(() => acquireDataLock(dir)).toThrow(/Another Resolute is starting/);
  });

  it('a live holder that recorded no process start is taken to be the one that wrote the lock', async () => {
    dir = mkdtempSync(join(tmpdir(), 'resolute-lock-'));
    const holder = await holdInChild(dir);
    child = holder;
    const held = JSON.parse(readFileSync(lockPath(), 'utf8')) as Record<string, unknown>;
    writeFileSync(lockPath(), JSON.stringify({ ...held, processStart: null }));
    expect(() => acquireDataLock(dir)).toThrow(`as process ${holder.pid}`);
  });

  it('taking and releasing leaves no file descriptor open and no exit listener behind', () => {
    dir = mkdtempSync(join(tmpdir(), 'resolute-lock-'));
    const fds = () => (hasProc ? readdirSync('/proc/self/fd').length : 0);
    const [fdsBefore, listenersBefore] = [fds(), process.listenerCount('exit')];
    const lock = acquireDataLock(dir);
    expect(process.listenerCount('exit')).toBe(listenersBefore + 1);
    lock.release();
    expect([fds(), process.listenerCount('exit')]).toEqual([fdsBefore, listenersBefore]);
  });

  it('a process that exits without releasing removes its lock on the way out', () => {
    dir = mkdtempSync(join(tmpdir(), 'resolute-lock-'));
    const taker = spawnSync(process.execPath, ['--import', 'tsx', TAKER, dir, '--keep'], { encoding: 'utf8' });
    expect(JSON.parse(taker.stdout)).toEqual({ took: true, from: null });
    expect(existsSync(lockPath())).toBe(false);
  });

  it('releasing after the lock file was removed, or replaced by one naming nobody, is quiet', () => {
    dir = mkdtempSync(join(tmpdir(), 'resolute-lock-'));
    const first = acquireDataLock(dir);
    rmSync(lockPath());
    expect(() => first.release()).not.toThrow();
    const second = acquireDataLock(dir);
    writeFileSync(lockPath(), '{}');
    second.release();
    expect(readFileSync(lockPath(), 'utf8')).toBe('{}');
  });
});

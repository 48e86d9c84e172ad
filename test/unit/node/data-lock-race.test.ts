// The data-folder lock's takeover race guard (data-lock.ts, removeIfUnchanged), on a real file
// system: a stale lock is moved aside before it is removed, and if what moved is not what was
// judged stale — another copy took over in between — that lock is put back and wins. The moment
// between judging and moving cannot be hit by timing, so node:fs's renameSync (and the exclusive
// openSync) is wrapped: the test's "other copy" acts on the real files right before or after the
// real call. Also the attempts' bound, and a lock that vanishes between the create and the read.
import * as fs from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const beforeRename = vi.hoisted(() => ({
  hook: null as null | ((from: string) => void),
  after: null as null | (() => void),
  /** Kept for every rename, not reset after one call. */
  always: null as null | (() => void),
  /** Runs after the next exclusive create of a file, whether it failed or not. */
  afterCreate: null as null | (() => void),
}));

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return {
    ...real,
    openSync: (...args: Parameters<typeof real.openSync>) => {
      const afterCreate = args[1] === 'wx' ? beforeRename.afterCreate : null;
      if (afterCreate) beforeRename.afterCreate = null;
      try {
        return real.openSync(...args);
      } finally {
        afterCreate?.();
      }
    },
    renameSync: (from: string, to: string) => {
      beforeRename.always?.();
      const hook = beforeRename.hook;
      beforeRename.hook = null;
      hook?.(from);
      real.renameSync(from, to);
      const after = beforeRename.after;
      beforeRename.after = null;
      after?.();
    },
  };
});

const { acquireDataLock, DataFolderLockedError } = await import('../../../src/main/node/data-lock');

let dir = '';
afterEach(() => {
  beforeRename.hook = null;
  beforeRename.after = null;
  beforeRename.always = null;
  beforeRename.afterCreate = null;
  fs.rmSync(dir, { recursive: true, force: true });
});

const lockPath = () => join(dir, 'resolute.lock');
const lockOf = (nonce: string, host = `elsewhere-${hostname()}`) =>
  JSON.stringify({ pid: 2 ** 22 + 11, nonce, host, processStart: null });
const leftovers = () => fs.readdirSync(dir).filter((name) => name !== 'resolute.lock');

function staleLock(): void {
  dir = fs.mkdtempSync(join(tmpdir(), 'resolute-lock-race-'));
  // A lock whose process is gone (this host, a pid that does not exist): stale.
  fs.writeFileSync(lockPath(), lockOf('stale', hostname()));
}

function refusal(): InstanceType<typeof DataFolderLockedError> {
  try {
    acquireDataLock(dir).release();
  } catch (error) {
    if (error instanceof DataFolderLockedError) return error;
    throw error;
  }
  throw new Error('the lock was taken');
}

describe('the takeover race guard', () => {
  it('puts back a lock another copy wrote between the judging and the move, and that copy wins', () => {
    staleLock();
    const theirs = lockOf('theirs');
    beforeRename.hook = () => fs.writeFileSync(lockPath(), theirs);
    expect(refusal().holder?.nonce).toBe('theirs');
    expect(fs.readFileSync(lockPath(), 'utf8')).toBe(theirs);
    expect(leftovers()).toEqual([]);
  });

  it('when yet another lock appears before the put-back, that one wins and the moved one is dropped', () => {
    staleLock();
    beforeRename.hook = () => fs.writeFileSync(lockPath(), lockOf('second'));
    beforeRename.after = () => fs.writeFileSync(lockPath(), lockOf('third'));
    expect(refusal().holder?.nonce).toBe('third');
    expect(fs.readFileSync(lockPath(), 'utf8')).toBe(lockOf('third'));
    expect(leftovers()).toEqual([]);
  });

  it('a stale lock another copy already removed is not an error: the lock is then simply created', () => {
    staleLock();
    beforeRename.hook = (from) => fs.unlinkSync(from);
    const lock = acquireDataLock(dir);
    // Nobody's lock was taken over by this copy: the other one removed it.
    expect(lock.tookOverFrom).toBeNull();
    expect(JSON.parse(fs.readFileSync(lockPath(), 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
    expect(leftovers()).toEqual([]);
  });

  it('an unchanged stale lock is removed and taken over, leaving no file aside', () => {
    staleLock();
    const lock = acquireDataLock(dir);
    expect(lock.tookOverFrom?.nonce).toBe('stale');
    expect(leftovers()).toEqual([]);
    lock.release();
  });

  it('a move that fails for another reason than a vanished file is reported as itself', () => {
    staleLock();
    beforeRename.hook = () => {
      throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    };
    expect(() => acquireDataLock(dir)).toThrow(/EACCES/);
  });

  it('a lock that vanishes between the failed create and the read is no error: the next attempt creates it', () => {
    dir = fs.mkdtempSync(join(tmpdir(), 'resolute-lock-race-'));
    fs.writeFileSync(lockPath(), lockOf('leaving'));
    // Its holder releases right after our create failed on it.
    beforeRename.afterCreate = () => fs.unlinkSync(lockPath());
    const lock = acquireDataLock(dir);
    expect(lock.tookOverFrom).toBeNull();
    lock.release();
  });

  it('gives up after five takeovers that each lost the race, naming the holder it last saw', () => {
    staleLock();
    let renames = 0;
    // Every time this copy moves a stale lock aside, another stale one has just replaced it.
    beforeRename.always = () => {
      renames += 1;
      fs.writeFileSync(lockPath(), lockOf(`stale-${renames}`, hostname()));
    };
    const error = refusal();
    expect(renames).toBe(5);
    expect(error.holder?.nonce).toBe('stale-5');
    expect(leftovers()).toEqual([]);
  });

  it('after five lost races with the last stale lock gone too, it still refuses, naming no holder', () => {
    staleLock();
    let renames = 0;
    // Four times a new stale lock replaces the one judged; the fifth is removed, then nothing is there.
    beforeRename.always = () => {
      renames += 1;
      if (renames < 5) fs.writeFileSync(lockPath(), lockOf(`stale-${renames}`, hostname()));
    };
    beforeRename.after = null;
    const error = refusal();
    expect(error.holder).toBeNull();
    expect(renames).toBe(5);
  });
});

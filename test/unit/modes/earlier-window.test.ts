// Unit tests of finding and closing a browser an earlier run left on the app window's profile
// (earlier-window.ts): only a live process on this host whose command line names this profile is
// closed — a stale lock, another host's lock, a reused pid and Windows are left alone — and one
// that ignores TERM is killed. The machine is a recorded fake; the real window is closed by
// test/integration/app-window.test.ts under Xvfb.
import { describe, expect, it } from 'vitest';
import {
  closeEarlierWindow,
  earlierWindowPid,
  type EarlierWindowDeps,
} from '../../../src/main/modes/browser/earlier-window';

const PROFILE = '/data/browser-profile';

function machine(over: Partial<EarlierWindowDeps> & { lock?: string; line?: string; stubborn?: boolean } = {}) {
  const alive = new Set([4242]);
  const signals: string[] = [];
  const deps: EarlierWindowDeps = {
    platform: 'linux',
    hostname: () => 'box',
    readLink: (path) => {
      if (path !== `${PROFILE}/SingletonLock` || over.lock === undefined) throw new Error('ENOENT');
      return over.lock;
    },
    commandLine: (pid) =>
      alive.has(pid) ? (over.line ?? `/usr/lib/chromium/chromium --user-data-dir=${PROFILE}`) : null,
    isRunning: (pid) => alive.has(pid),
    kill: (pid, signal) => {
      signals.push(`${signal} ${pid}`);
      if (signal === 'SIGKILL' || !over.stubborn) alive.delete(pid);
    },
    ...over,
  };
  return { deps, signals, alive };
}

describe('earlierWindowPid', () => {
  it('finds the browser holding the profile on this host', () => {
    expect(earlierWindowPid(PROFILE, machine({ lock: 'box-4242' }).deps)).toBe(4242);
  });

  it('leaves alone no lock, another host, a dead pid, a pid now running something else, and Windows', () => {
    expect(earlierWindowPid(PROFILE, machine().deps)).toBeNull();
    expect(earlierWindowPid(PROFILE, machine({ lock: 'other-4242' }).deps)).toBeNull();
    expect(earlierWindowPid(PROFILE, machine({ lock: 'box-999' }).deps)).toBeNull();
    expect(earlierWindowPid(PROFILE, machine({ lock: 'box-4242', line: '/usr/bin/vim notes.txt' }).deps)).toBeNull();
    // Another profile whose path starts the same is not this one.
    const near = `/usr/bin/chromium --user-data-dir=/data/browser-profile-2`;
    expect(earlierWindowPid(PROFILE, machine({ lock: 'box-4242', line: near }).deps)).toBeNull();
    expect(earlierWindowPid(PROFILE, machine({ lock: 'box-4242', platform: 'win32' }).deps)).toBeNull();
  });
});

describe('closeEarlierWindow', () => {
  it('ends it with TERM and says it did', async () => {
    const m = machine({ lock: 'box-4242' });
    expect(await closeEarlierWindow(PROFILE, m.deps)).toBe(true);
    expect(m.signals).toEqual(['SIGTERM 4242']);
  });

  it('kills one that ignores TERM', async () => {
    const m = machine({ lock: 'box-4242', stubborn: true });
    expect(await closeEarlierWindow(PROFILE, m.deps)).toBe(true);
    expect(m.signals).toEqual(['SIGTERM 4242', 'SIGKILL 4242']);
    expect(m.alive.size).toBe(0);
  }, 10_000);

  it('does nothing when there is none', async () => {
    const m = machine();
    expect(await closeEarlierWindow(PROFILE, m.deps)).toBe(false);
    expect(m.signals).toEqual([]);
  });
});

// Updates that never interrupt a run (src/main/electron/updates.ts): which installs update
// themselves (a .deb/.rpm never: its package manager does), the background download's states, and
// the install at quit — only with the update downloaded and no chat working, no retry waiting or
// scheduled. electron-updater's autoUpdater is a fake that records what it is told and emits its events.
import { describe, expect, it } from 'vitest';
import { createUpdates, updatesOff, type InstallKind, type UpdaterPort } from '../../../src/main/electron/updates';
import { channelOf, type UpdateStatus } from '../../../src/shared/updates';
import { FakeEmitter } from './electron-fakes';

class FakeUpdater extends FakeEmitter implements UpdaterPort {
  autoDownload = false;
  autoInstallOnAppQuit = true;
  checks = 0;
  failWith: Error | null = null;

  override on(event: string, listener: (...args: never[]) => void): this {
    return super.on(event, listener as (...args: unknown[]) => unknown);
  }

  checkForUpdates(): Promise<unknown> {
    this.checks += 1;
    if (this.failWith) return Promise.reject(this.failWith);
    this.emit('checking-for-update');
    return Promise.resolve(null);
  }
}

const appImage: InstallKind = {
  isPackaged: true,
  platform: 'linux',
  appImage: '/home/me/Resolute.AppImage',
  packageType: null,
};

function setup(options: { kind?: InstallKind; working?: number; waitingChains?: number; version?: string } = {}) {
  const updater = new FakeUpdater();
  const seen: UpdateStatus[] = [];
  const pending = { working: options.working ?? 0, waitingChains: options.waitingChains ?? 0 };
  const updates = createUpdates({
    updater,
    kind: options.kind ?? appImage,
    version: options.version ?? '0.1.0',
    pending: () => pending,
    onChange: (status) => void seen.push(status),
    log: () => undefined,
  });
  return { updater, updates, seen, pending };
}

describe('which installs update themselves', () => {
  it('a packaged macOS or Windows app and a Linux AppImage do', () => {
    for (const platform of ['darwin', 'win32'] as const)
      expect(updatesOff({ isPackaged: true, platform, appImage: undefined, packageType: null })).toBeNull();
    expect(updatesOff(appImage)).toBeNull();
  });

  it('a .deb or .rpm install does not (its package manager does), nor an unpackaged run', () => {
    for (const packageType of ['deb', 'rpm'])
      expect(updatesOff({ ...appImage, appImage: undefined, packageType })).toBe('package_manager');
    expect(updatesOff({ ...appImage, isPackaged: false })).toBe('unpackaged');
    expect(updatesOff({ ...appImage, appImage: undefined })).toBe('unsupported');
  });

  it('leaves the updater untouched and never checks where updates are off', async () => {
    const { updater, updates } = setup({ kind: { ...appImage, appImage: undefined, packageType: 'deb' } });
    expect(updates.status().update).toEqual({ state: 'off', reason: 'package_manager' });
    expect(await updates.check()).toMatchObject({ update: { state: 'off' } });
    expect(updater.checks).toBe(0);
    expect(updater.count('update-downloaded')).toBe(0);
    expect(updates.quitting()).toBe(false);
  });
});

describe('the download and the install at quit', () => {
  it('downloads in the background and says how far, then is ready', async () => {
    const { updater, updates, seen } = setup();
    expect(updater.autoDownload).toBe(true);
    expect(updater.autoInstallOnAppQuit).toBe(false);
    await updates.check();
    updater.emit('update-available', { version: '0.2.0' });
    updater.emit('download-progress', { percent: 41.6 });
    updater.emit('update-downloaded', { version: '0.2.0' });
    expect(seen.map((s) => s.update)).toEqual([
      { state: 'checking' },
      { state: 'downloading', version: '0.2.0', percent: 0 },
      { state: 'downloading', version: '0.2.0', percent: 42 },
      { state: 'ready', version: '0.2.0' },
    ]);
  });

  it('installs at a quit with nothing running or waiting', () => {
    const { updater, updates } = setup();
    updater.emit('update-downloaded', { version: '0.2.0' });
    expect(updates.quitting()).toBe(true);
    expect(updater.autoInstallOnAppQuit).toBe(true);
  });

  it('never installs while a chat works or a retry waits or is scheduled, and does at a later quit', () => {
    for (const busy of [{ working: 1 }, { waitingChains: 1 }]) {
      const { updater, updates, pending } = setup(busy);
      updater.emit('update-downloaded', { version: '0.2.0' });
      expect(updates.quitting()).toBe(false);
      expect(updater.autoInstallOnAppQuit).toBe(false);
      pending.working = 0;
      pending.waitingChains = 0;
      expect(updates.quitting()).toBe(true);
    }
  });

  it('does not install what is not downloaded yet', () => {
    const { updater, updates } = setup();
    updater.emit('update-available', { version: '0.2.0' });
    expect(updates.quitting()).toBe(false);
    expect(updater.autoInstallOnAppQuit).toBe(false);
  });

  it('reports a failed check, and a ready update stays ready after a later check', async () => {
    const { updater, updates } = setup();
    updater.failWith = new Error('net::ERR_NAME_NOT_RESOLVED');
    expect((await updates.check()).update).toEqual({ state: 'error', message: 'net::ERR_NAME_NOT_RESOLVED' });
    updater.failWith = null;
    updater.emit('update-downloaded', { version: '0.2.0' });
    updater.emit('update-not-available');
    expect((await updates.check()).update).toEqual({ state: 'ready', version: '0.2.0' });
  });
});

describe('the channel', () => {
  it('is "latest" for a release and the pre-release tag otherwise', () => {
    expect(channelOf('0.1.0')).toBe('latest');
    expect(channelOf('0.3.0-beta.2')).toBe('beta');
    expect(channelOf('1.0.0-alpha')).toBe('alpha');
    expect(channelOf('1.0.0-1')).toBe('latest');
    expect(setup({ version: '0.3.0-beta.2' }).updates.status().channel).toBe('beta');
  });
});

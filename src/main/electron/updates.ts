// Updates that never interrupt a run (docs/hosts.md, "Updates"): electron-updater checks the feed
// set in electron-builder.yml and downloads in the background; the update is installed when
// Resolute quits — and only when no chat works and no retry waits or is scheduled then (the quit
// prompt's count), else it waits for a later quit. Off for a .deb/.rpm install (the package
// manager owns updates) and for an unpackaged run. Decisions only: desktop-shell.ts passes in
// electron-updater's autoUpdater, so test/unit/electron/updates.test.ts drives this with a fake.
import { channelOf, type UpdateOffReason, type UpdateState, type UpdateStatus } from '../../shared/updates';

/** The part of electron-updater's AppUpdater used. */
export interface UpdaterPort {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  on(event: string, listener: (...args: never[]) => void): unknown;
  checkForUpdates(): Promise<unknown>;
}

export interface InstallKind {
  isPackaged: boolean;
  platform: NodeJS.Platform;
  /** Set by the AppImage runtime to the image's path. */
  appImage: string | undefined;
  /** electron-builder's `resources/package-type` ("deb", "rpm", "pacman"…), null when there is none. */
  packageType: string | null;
}

/** Whether this install updates itself, or why not. */
export function updatesOff(kind: InstallKind): UpdateOffReason | null {
  if (!kind.isPackaged) return 'unpackaged';
  if (kind.platform !== 'linux') return null;
  if (kind.packageType !== null && kind.packageType.trim() !== '') return 'package_manager';
  return kind.appImage ? null : 'unsupported';
}

/** The update may be installed at this quit: it is downloaded, and nothing runs or waits. */
export function mayInstallAtQuit(update: UpdateState, pending: { working: number; waitingChains: number }): boolean {
  return update.state === 'ready' && pending.working === 0 && pending.waitingChains === 0;
}

export interface UpdatesDeps {
  updater: UpdaterPort | null;
  kind: InstallKind;
  version: string;
  /** Chats working now and retry chains waiting (a countdown, an offline pause, a schedule). */
  pending(): { working: number; waitingChains: number };
  /** The state changed (Settings → About follows it). */
  onChange(status: UpdateStatus): void;
  /** Where a failure is written (the app's stderr, which the logs keep). */
  log(line: string): void;
}

export interface Updates {
  status(): UpdateStatus;
  /** Settings → About's "Check for updates", and the check at start. */
  check(): Promise<UpdateStatus>;
  /** A quit goes ahead: true when the downloaded update is installed by it. */
  quitting(): boolean;
}

export function createUpdates(deps: UpdatesDeps): Updates {
  const off = updatesOff(deps.kind);
  const { updater } = deps;
  let update: UpdateState = off || !updater ? { state: 'off', reason: off ?? 'unpackaged' } : { state: 'idle' };
  const status = (): UpdateStatus => ({ version: deps.version, channel: channelOf(deps.version), update });
  const set = (next: UpdateState) => {
    // A downloaded update stays ready whatever a later check says.
    if (update.state === 'ready' && next.state !== 'ready') return;
    update = next;
    deps.onChange(status());
  };
  if (updater && update.state !== 'off') {
    updater.autoDownload = true;
    // Installed by our quit only (quitting), never by electron-updater's own quit handler on its own.
    updater.autoInstallOnAppQuit = false;
    updater.on('checking-for-update', () => set({ state: 'checking' }));
    updater.on('update-not-available', () => set({ state: 'none' }));
    updater.on('update-available', (info: { version: string }) =>
      set({ state: 'downloading', version: info.version, percent: 0 }),
    );
    updater.on('download-progress', (progress: { percent: number }) => {
      if (update.state === 'downloading') set({ ...update, percent: Math.round(progress.percent) });
    });
    updater.on('update-downloaded', (info: { version: string }) => set({ state: 'ready', version: info.version }));
    updater.on('error', (error: Error) => {
      deps.log(`resolute: update check failed (${error.message})\n`);
      set({ state: 'error', message: error.message });
    });
  }
  return {
    status,
    async check() {
      if (!updater || update.state === 'off' || update.state === 'ready') return status();
      try {
        await updater.checkForUpdates();
      } catch (error) {
        set({ state: 'error', message: error instanceof Error ? error.message : String(error) });
      }
      return status();
    },
    quitting() {
      const install = updater !== null && mayInstallAtQuit(update, deps.pending());
      if (updater) updater.autoInstallOnAppQuit = install;
      return install;
    },
  };
}

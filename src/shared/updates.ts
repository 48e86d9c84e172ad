// What the desktop app's updater is doing (docs/hosts.md, "Updates"), as Settings → About shows it.
// The browser and RPC modes have no updater: their state is 'off' with the reason 'not_desktop'.

export type UpdateOffReason =
  /** A .deb or .rpm install: the package manager owns updates. */
  | 'package_manager'
  /** A development run, or a build not made by the packager. */
  | 'unpackaged'
  /** A Linux build other than the AppImage (a folder or a tarball): nothing to update it with. */
  | 'unsupported'
  | 'not_desktop';

export type UpdateState =
  | { state: 'off'; reason: UpdateOffReason }
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'none' }
  | { state: 'downloading'; version: string; percent: number }
  /** Downloaded; installed when Resolute quits with no chat working and no retry waiting. */
  | { state: 'ready'; version: string }
  | { state: 'error'; message: string };

export interface UpdateStatus {
  /** The running version. */
  version: string;
  /** The feed's channel: 'latest' for releases, or a pre-release's tag ('beta'). */
  channel: string;
  update: UpdateState;
}

/** The channel a version follows: its pre-release tag ("0.3.0-beta.2" → "beta"), else "latest". */
export function channelOf(version: string): string {
  const tag = /^\d+\.\d+\.\d+-([0-9A-Za-z]+)/.exec(version)?.[1];
  return tag && !/^\d+$/.test(tag) ? tag.toLowerCase() : 'latest';
}

/** The status where there is no updater (the browser and RPC modes). */
export function noUpdater(version: string): UpdateStatus {
  return { version, channel: channelOf(version), update: { state: 'off', reason: 'not_desktop' } };
}

/** The desktop host's updater, as the app domain answers Settings → About through it. */
export interface UpdatesPort {
  status(): UpdateStatus;
  check(): Promise<UpdateStatus>;
}

// What AppServices is started with (every host fills these from its flags), the data folder they
// resolve to, the provider flags turned into run-only settings, the model a change of provider
// starts on, and whether the settings name a provider whose models come from pi-ai's catalogue.
// launch.ts builds the options; the Electron host resolves the data folder before it starts, to
// take its single-instance lock.
import type { UpdatesPort } from '../../shared/updates';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Clock, NetworkCheck } from '../core/ports';
import type { AppInfo } from '../../shared/contract';
import type { SessionEvent } from '../../shared/events';
import { type Settings } from '../../shared/settings';
import { PROVIDER_IDS, type ProviderId } from '../../shared/settings-values';
import type { SecretCipher } from './credential-store';
import { defaultModelFor, needsCatalogue } from './providers';
import type { SandboxHost } from './tools/bash-sandbox';
import type { SessionExport } from './history/history-export';

/** Saves an export where the person chooses; the desktop host provides it (a save dialog). */
/** An export to save: its file, and for a Markdown export with images the folder of them beside it. */
export type SaveFileRequest = Pick<SessionExport, 'filename' | 'content' | 'folder' | 'files'>;
export type SaveFile = (file: SaveFileRequest) => Promise<string | null>;

export interface AppServicesOptions {
  host: AppInfo['host'];
  version: string;
  /** Where settings, credentials and history live. Default: the OS user-data folder. */
  dataDir?: string;
  /** Run-only settings (`--set`), validated. */
  overlay?: Record<string, unknown>;
  /** `--provider`, `--model`, `--base-url`, `--api-key`: run-only provider choice. */
  provider?: ProviderId;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  /** The person agreed to move a damaged history database aside and start a new one. */
  startFreshHistory?: boolean;
  /** Electron passes a safeStorage cipher; elsewhere a key file beside the data is used. */
  cipher?: SecretCipher;
  /** `--workspace`: the folder this run's sessions work in (created if missing). Default `<Documents or home>/Resolute`. */
  workspace?: string;
  /** Where the sandbox binaries are (tests point bwrap at a missing file). */
  sandbox?: Partial<SandboxHost>;
  /** The desktop app's native folder dialog; absent elsewhere (the browser mode offers a path field). */
  pickFolder?: () => Promise<string | null>;
  /** The desktop app's save dialog for History → Export; null when cancelled. Absent elsewhere (a download). */
  saveFile?: SaveFile;
  /** Receives every session event and settings change. */
  publish: (event: SessionEvent) => void;
  /** The desktop app's updater (Settings → About); absent elsewhere. */
  updates?: UpdatesPort;
  /** Where this process's PATH came from (login-path.ts), said in each MCP server's log; absent: inherited. */
  pathSource?: string;
  /** Offline-aware backoff: Electron passes net.isOnline(); the Node modes a HEAD to the provider's host. */
  networkCheck?: NetworkCheck;
  /** How often a chain paused offline checks again, ms (tests make it short). */
  offlinePollMs?: number;
  /** How often a local server working on a prompt is probed, ms (docs/retry-policy.md, "Two clocks"; tests make it short). */
  livenessProbeMs?: number;
  /** The session's clock (retry times, schedules); default the system's. Tests move it. */
  clock?: Clock;
}

/**
 * RESOLUTE_CLOCK_OFFSET_MS, for tests only: the session's clock runs that far ahead of the system's,
 * so that a spawned process plays a start hours after a retry was scheduled. Unset: the system's.
 */
export function clockFromEnv(env: NodeJS.ProcessEnv = process.env): Clock | undefined {
  const offset = Number(env.RESOLUTE_CLOCK_OFFSET_MS);
  if (!env.RESOLUTE_CLOCK_OFFSET_MS || !Number.isFinite(offset)) return undefined;
  return { now: () => Date.now() + offset };
}

/**
 * `--data-dir` if given, else the OS user-data folder, as Electron's app.getPath('userData') would
 * give for "Resolute". Always absolute: a relative one reached bubblewrap as a relative path to hide,
 * and every bash call failed.
 */
export function resolveDataDir(dataDir?: string): string {
  if (dataDir) return resolve(dataDir);
  if (process.env.RESOLUTE_DATA_DIR) return resolve(process.env.RESOLUTE_DATA_DIR);
  const home = homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Application Support', 'Resolute');
  if (process.platform === 'win32') return join(process.env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Resolute');
  return join(process.env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Resolute');
}

/**
 * Turn the provider flags into run-only settings. `--base-url` alone selects an OpenAI-compatible
 * server; with `--provider` it replaces that provider's base URL (validated in parseCommonFlags).
 */
export function providerOverlay(
  options: Pick<AppServicesOptions, 'provider' | 'model' | 'baseUrl'>,
): Record<string, unknown> {
  const provider: Record<string, unknown> = {};
  const id = options.provider ?? (options.baseUrl ? 'openai-compatible' : undefined);
  if (id) provider.id = id;
  if (options.model) provider.model = options.model;
  else if (id && id !== 'simulator') provider.model = defaultModelFor(id);
  if (options.baseUrl && id === 'openai-compatible') provider.baseUrl = options.baseUrl;
  else if (options.baseUrl && id && id !== 'simulator') provider.baseUrls = { [id]: options.baseUrl };
  return Object.keys(provider).length ? { provider } : {};
}

/**
 * A settings patch that moves to another provider keeps the model of the one left (in
 * settings.provider.chosenModels) and, naming no model, returns to the one last chosen there, so
 * switching away and back loses nothing. Anything else is left as it is (withDefaultModel follows).
 */
export function withRememberedModel(patch: unknown, current: Settings['provider']): unknown {
  const provider = (patch as { provider?: unknown } | null)?.provider;
  if (typeof provider !== 'object' || provider === null) return patch;
  const id = (provider as { id?: unknown }).id;
  if (id === current.id || !PROVIDER_IDS.some((known) => known === id)) return patch;
  const remembered = 'model' in provider ? undefined : current.chosenModels[id as ProviderId];
  const chosenModels = { ...(provider as { chosenModels?: object }).chosenModels, [current.id]: current.model };
  return {
    ...(patch as object),
    provider: { ...provider, chosenModels, ...(remembered ? { model: remembered } : {}) },
  };
}

/**
 * A settings patch that moves to another provider without naming a model starts on that
 * provider's default model, whoever sends it (the settings pane sends the model when its provider
 * list has arrived, which waits for pi-ai's catalogue). The old provider's model means nothing
 * there. Anything else, a bad id included, is left for the settings' own checks.
 */
export function withDefaultModel(patch: unknown, currentProvider: ProviderId): unknown {
  const provider = (patch as { provider?: unknown } | null)?.provider;
  if (typeof provider !== 'object' || provider === null || 'model' in provider) return patch;
  const id = (provider as { id?: unknown }).id;
  if (id === currentProvider || !PROVIDER_IDS.some((known) => known === id)) return patch;
  return { ...(patch as object), provider: { ...provider, model: defaultModelFor(id as ProviderId) } };
}

/**
 * Do these settings — a settings file (its path; null for none) and run-only or patched values —
 * name a real provider as the first choice or in the fallback list? Then pi-ai's catalogue must be
 * loaded before they are checked (checkFallbackModels) and the agent is pointed at the model. A file
 * that cannot be read names none: the settings store reports it.
 */
export function settingsNeedCatalogue(settingsPath: string | null, values: unknown): boolean {
  return [settingsPath === null ? null : readJson(settingsPath), values].some((raw) =>
    namedProviders(raw).some((id) => needsCatalogue(id as ProviderId)),
  );
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch {
    return null;
  }
}

/** The provider ids a raw settings object names: provider.id and providers.fallback[].provider. */
function namedProviders(raw: unknown): unknown[] {
  const settings = raw as { provider?: { id?: unknown }; providers?: { fallback?: unknown } } | null | undefined;
  const fallback = settings?.providers?.fallback;
  const refs = Array.isArray(fallback) ? (fallback as ({ provider?: unknown } | null)[]) : [];
  return [settings?.provider?.id, ...refs.map((ref) => ref?.provider)].filter((id) => typeof id === 'string');
}

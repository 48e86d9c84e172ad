// Shared start-up for every host: parse the common flags, build the app services, the event hub
// and the command router. The browser mode, the RPC mode and the Electron main all start here
// so that a flag means the same thing in each.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { version } from '../../../package.json';
import { parseSetFlag } from '../../shared/settings';
import { mergeSettings, PROVIDER_IDS, type ProviderId } from '../../shared/settings-values';
import type { AppInfo } from '../../shared/contract';
import { CommandRouter } from '../router/command-router';
import { EventHub } from '../router/event-hub';
import { AppServices } from '../node/app-services';
import { loadPiRuntime } from '../core/llm/pi-runtime';
import { clockFromEnv, type AppServicesOptions } from '../node/app-options';

export interface CommonFlags {
  mode: 'web' | 'rpc' | 'simulator';
  port?: number;
  dataDir?: string;
  /** `--workspace`: the folder the run's sessions work in. */
  workspace?: string;
  baseUrl?: string;
  apiKey?: string;
  provider?: ProviderId;
  model?: string;
  overlay: Record<string, unknown>;
  extensions: string[];
  script?: string;
  resetDamagedHistory: boolean;
  /** Web mode: do not open a window or browser (tests, servers). */
  noOpen: boolean;
  help: boolean;
}

const STRING_FLAGS = [
  'mode',
  'port',
  'data-dir',
  'workspace',
  'base-url',
  'api-key',
  'api-key-file',
  'provider',
  'model',
  'set',
  'extension',
  'script',
];
const BOOLEAN_FLAGS = ['reset-damaged-history', 'no-open', 'help'];

/**
 * Keep only our flags (with their values) from an argv that also carries someone else's — the
 * Electron binary's, Chromium's, or Playwright's `--remote-debugging-port=0`.
 */
export function ourFlags(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const match = /^--([^=]+)(=.*)?$/.exec(argv[i]);
    if (!match) continue;
    if (BOOLEAN_FLAGS.includes(match[1])) out.push(argv[i]);
    else if (STRING_FLAGS.includes(match[1])) {
      out.push(argv[i]);
      if (match[2] === undefined && i + 1 < argv.length) out.push(argv[++i]);
    }
  }
  return out;
}

/**
 * This run's key: `--api-key`, `--api-key-file`, else RESOLUTE_API_KEY. The flag puts the key in
 * the process list for every local user to read (/proc/<pid>/cmdline); the file and the variable
 * keep it out of there.
 */
function runApiKey(flag: string | undefined, file: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (flag !== undefined && file !== undefined) throw new Error('give --api-key or --api-key-file, not both');
  if (file === undefined) return flag ?? (env.RESOLUTE_API_KEY || undefined);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`--api-key-file: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const key = text.trim();
  if (key === '' || /\s/.test(key)) throw new Error(`--api-key-file: ${file} must hold one key on one line`);
  return key;
}

/** Parse argv (and RESOLUTE_API_KEY from `env`); throws Error with a clear message on a bad flag or value. */
export function parseCommonFlags(argv: string[], env: NodeJS.ProcessEnv = process.env): CommonFlags {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      mode: { type: 'string', default: 'web' },
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      workspace: { type: 'string' },
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      'api-key-file': { type: 'string' },
      provider: { type: 'string' },
      model: { type: 'string' },
      set: { type: 'string', multiple: true, default: [] },
      extension: { type: 'string', multiple: true, default: [] },
      script: { type: 'string' },
      'reset-damaged-history': { type: 'boolean', default: false },
      'no-open': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const mode = values.mode;
  if (mode !== 'web' && mode !== 'rpc' && mode !== 'simulator')
    throw new Error(`--mode must be web, rpc or simulator (got "${mode}")`);
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535))
    throw new Error(`--port must be 0–65535 (got "${values.port}")`);
  const provider = values.provider;
  if (provider !== undefined && !(PROVIDER_IDS as readonly string[]).includes(provider)) {
    throw new Error(`--provider must be one of ${PROVIDER_IDS.join(', ')} (got "${provider}")`);
  }
  const baseUrl = checkBaseUrl(values['base-url'], provider);
  let overlay: Record<string, unknown> = {};
  for (const flag of values.set ?? []) {
    const parsed = parseSetFlag(flag);
    if (!parsed.ok) throw new Error(parsed.error);
    overlay = mergeSettings(overlay, parsed.value) as Record<string, unknown>;
  }
  return {
    mode,
    port,
    // Absolute from here on: the sandbox hides it by path (issue 24).
    dataDir: values['data-dir'] === undefined ? undefined : resolve(values['data-dir']),
    workspace: values.workspace,
    baseUrl,
    apiKey: runApiKey(values['api-key'], values['api-key-file'], env),
    provider: provider as ProviderId | undefined,
    model: values.model,
    overlay,
    extensions: values.extension ?? [],
    script: values.script,
    resetDamagedHistory: values['reset-damaged-history'] ?? false,
    noOpen: values['no-open'] ?? false,
    help: values.help ?? false,
  };
}

/** `--base-url`: http(s) only, and not for the simulator, whose address is its own. */
function checkBaseUrl(value: string | undefined, provider: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new Error(`--base-url must be an http:// or https:// URL (got "${value}")`);
  if (provider === 'simulator')
    throw new Error('--base-url does not apply to the simulator, which runs its own server');
  return value;
}

export interface LaunchedApp {
  services: AppServices;
  hub: EventHub;
  router: CommandRouter;
}

/** What only the desktop app provides: the keychain's cipher, the folder and save dialogs, net.isOnline(). */
export type HostParts = Pick<
  AppServicesOptions,
  'cipher' | 'pickFolder' | 'saveFile' | 'networkCheck' | 'pathSource' | 'updates'
>;

export async function launchApp(
  flags: CommonFlags,
  host: AppInfo['host'],
  parts: HostParts = {},
): Promise<LaunchedApp> {
  // Read by parseCommonFlags; the browsers and tools this process starts need not inherit it.
  delete process.env.RESOLUTE_API_KEY;
  const isCold = process.env.RESOLUTE_BENCH_COLD_PROMPT === '1';
  // Without a window, pi-ai starts loading now, beside the start-up (see warmUpWhenQuiet).
  if (host === 'rpc' && !isCold) void loadPiRuntime().catch(() => undefined);
  const hub = new EventHub();
  const services = await AppServices.create({
    host,
    version,
    dataDir: flags.dataDir,
    workspace: flags.workspace,
    overlay: flags.overlay,
    provider: flags.provider,
    model: flags.model,
    baseUrl: flags.baseUrl,
    apiKey: flags.apiKey,
    startFreshHistory: flags.resetDamagedHistory,
    clock: clockFromEnv(),
    ...parts,
    publish: hub.publish,
  });
  const router = new CommandRouter(
    services.commands,
    isCold ? () => undefined : warmUpWhenQuiet(services, host !== 'rpc'),
  );
  return { services, hub, router };
}

/**
 * pi-ai and the provider's SDK take a few hundred ms to load, which the first prompt would wait
 * for: they load in the background — with a window, once the window's first requests have passed
 * (QUIET_MS without one, at most WINDOW_WAIT_MS after the first), so that its load is not slowed;
 * without one (the RPC mode), from the process's start: a client such as an editor prompts as soon
 * as get_state answers, and should wait only for what is left of the load (launchApp starts
 * pi-ai before the services, the provider's module follows once the settings name it).
 * A failure is left to the first prompt to report; the timers do not keep the process alive.
 * RESOLUTE_BENCH_COLD_PROMPT=1 turns it off, for the benchmarks' same-run baseline only.
 * Returns what the command router calls at each request.
 */
const QUIET_MS = 300;
const WINDOW_WAIT_MS = 3000;

function warmUpWhenQuiet(services: AppServices, hasWindow: boolean): () => void {
  let timer: NodeJS.Timeout | undefined;
  let deadline = Infinity;
  let isDone = false;
  const arm = (ms: number): void => {
    if (isDone) return;
    clearTimeout(timer);
    timer = setTimeout(
      () => {
        isDone = true;
        void services.warmUp().catch(() => undefined);
      },
      Math.max(0, Math.min(ms, deadline - Date.now())),
    );
    timer.unref();
  };
  if (!hasWindow) {
    // The window's requests re-arm the timer; the RPC mode's must not delay it.
    arm(0);
    return () => undefined;
  }
  return () => {
    if (deadline === Infinity) deadline = Date.now() + WINDOW_WAIT_MS;
    arm(QUIET_MS);
  };
}

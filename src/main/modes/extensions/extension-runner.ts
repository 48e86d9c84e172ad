// The extension runner: loads user modules from <dataDir>/extensions/*.js|*.mjs and from
// `--extension PATH`, and hands each of them every session event (auto_retry_start/end included,
// same fields as on RPC stdout). A module that throws — at load, in a handler, sync or async — is
// reported on stderr and disabled; the session carries on. Started by the RPC and web modes.
import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SessionEvent, SessionEventType } from '../../../shared/events';
import type { LaunchedApp } from '../launch';

/*
 * The extension API (version 1). An extension is an ES module with either or both of:
 *
 *   export default function (api) { api.on('auto_retry_start', (e) => …); }   // may be async
 *   export function onEvent(event, api) { … }                               // every event
 *
 * - `api.onEvent(handler)` / `api.on(type, handler)` subscribe; each returns an unsubscribe.
 * - Handlers receive their own copy of the event (mutating it changes nothing elsewhere); they
 *   are called in event order and not awaited, but a returned promise that rejects counts as a throw.
 * - `api.log(text)` writes "[extension <name>] text" to stderr (stdout belongs to the RPC protocol).
 * - `api.host`, `api.dataDir`, `api.extensionPath` say where the extension runs.
 * Extensions are trusted code running in the app's process: they are isolated from failures, not sandboxed.
 */
export type ExtensionEventHandler<E extends SessionEvent = SessionEvent> = (event: E) => unknown;

export interface ExtensionApi {
  readonly apiVersion: 1;
  readonly host: 'electron' | 'browser' | 'rpc';
  readonly dataDir: string;
  readonly extensionPath: string;
  onEvent(handler: ExtensionEventHandler): () => void;
  on<T extends SessionEventType>(
    type: T,
    handler: ExtensionEventHandler<Extract<SessionEvent, { type: T }>>,
  ): () => void;
  log(text: string): void;
}

export interface ExtensionFailure {
  extensionPath: string;
  /** The event being handled, or "load". */
  event: string;
  error: string;
}

export interface ExtensionRunnerOptions {
  host: ExtensionApi['host'];
  dataDir: string;
  /** Diagnostics sink; default stderr. */
  log?: (line: string) => void;
  /** Told about every load failure and every extension disabled by a throw. */
  onFailure?: (failure: ExtensionFailure) => void;
  /** A default export that has not settled after this long is disabled; default 5000 ms. */
  loadTimeoutMs?: number;
}

interface LoadedExtension {
  path: string;
  url: string;
  handlers: Set<{ type: SessionEventType | '*'; fn: ExtensionEventHandler }>;
  enabled: boolean;
}

const DEFAULT_LOAD_TIMEOUT_MS = 5000;

/** The extension files of a data folder (sorted by name, so load order is stable) followed by the extra paths. */
function discoverExtensions(dataDir: string, extraPaths: string[] = []): string[] {
  const dir = join(dataDir, 'extensions');
  let names: string[] = [];
  try {
    names = readdirSync(dir)
      .filter((name) => /\.m?js$/.test(name))
      .sort();
  } catch {
    // No extensions folder: nothing to load.
  }
  const found = names.map((name) => join(dir, name)).filter(isFile);
  const extra = extraPaths.map((path) => (isAbsolute(path) ? path : resolve(path)));
  return [...new Set([...found, ...extra])];
}

class ExtensionRunner {
  private readonly extensions: LoadedExtension[] = [];
  private readonly log: (line: string) => void;
  private removeCrashGuard: (() => void) | undefined;

  constructor(private readonly options: ExtensionRunnerOptions) {
    this.log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  }

  /** Load modules in order; a module that fails is reported and left disabled. Never throws. */
  async loadAll(paths: string[]): Promise<void> {
    for (const path of paths) await this.load(path);
    if (this.extensions.some((e) => e.enabled) && !this.removeCrashGuard)
      this.removeCrashGuard = this.installCrashGuard();
  }

  async load(path: string): Promise<boolean> {
    const extension: LoadedExtension = { path, url: pathToFileURL(path).href, handlers: new Set(), enabled: true };
    this.extensions.push(extension);
    try {
      const module = (await import(/* @vite-ignore */ extension.url)) as { default?: unknown; onEvent?: unknown };
      const setup = module.default;
      const onEvent = module.onEvent;
      if (typeof setup !== 'function' && typeof onEvent !== 'function') {
        throw new Error('exports neither a default function nor onEvent(event)');
      }
      const api = this.apiFor(extension);
      if (typeof onEvent === 'function') api.onEvent((event) => onEvent(event, api));
      if (typeof setup === 'function') await this.withTimeout(Promise.resolve(setup(api)));
      if (!extension.enabled) return false;
      this.log(`resolute: extension loaded: ${path}`);
      return true;
    } catch (error) {
      this.disable(extension, 'load', error);
      return false;
    }
  }

  /** Deliver one session event to every enabled extension. Never throws. */
  deliver(event: SessionEvent): void {
    for (const extension of this.extensions) {
      if (!extension.enabled) continue;
      for (const handler of [...extension.handlers]) {
        if (!extension.enabled) break;
        if (handler.type !== '*' && handler.type !== event.type) continue;
        this.call(extension, handler.fn, event);
      }
    }
  }

  dispose(): void {
    for (const extension of this.extensions) extension.handlers.clear();
    this.removeCrashGuard?.();
    this.removeCrashGuard = undefined;
  }

  private call(extension: LoadedExtension, fn: ExtensionEventHandler, event: SessionEvent): void {
    try {
      const result = fn(copyOf(event));
      if (isThenable(result)) result.then(undefined, (error: unknown) => this.disable(extension, event.type, error));
    } catch (error) {
      this.disable(extension, event.type, error);
    }
  }

  private apiFor(extension: LoadedExtension): ExtensionApi {
    const subscribe = (type: SessionEventType | '*', fn: ExtensionEventHandler) => {
      const entry = { type, fn };
      if (extension.enabled) extension.handlers.add(entry);
      return () => {
        extension.handlers.delete(entry);
      };
    };
    const name = extension.path.split(/[\\/]/).pop() ?? extension.path;
    return {
      apiVersion: 1,
      host: this.options.host,
      dataDir: this.options.dataDir,
      extensionPath: extension.path,
      onEvent: (handler) => subscribe('*', handler),
      on: (type, handler) => subscribe(type, handler as ExtensionEventHandler),
      log: (text) => this.log(`[extension ${name}] ${String(text)}`),
    };
  }

  private disable(extension: LoadedExtension, event: string, error: unknown): void {
    if (!extension.enabled) return;
    extension.enabled = false;
    extension.handlers.clear();
    const text = describe(error);
    const what = event === 'load' ? 'failed to load' : `threw while handling ${event}`;
    this.log(`resolute: extension ${extension.path} ${what}: ${text} — disabled`);
    try {
      this.options.onFailure?.({ extensionPath: extension.path, event, error: text });
    } catch {
      // A failing reporter must not turn an extension's failure into the app's.
    }
  }

  private withTimeout(work: Promise<unknown>): Promise<unknown> {
    const timeoutMs = this.options.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`setup did not finish within ${timeoutMs} ms`)), timeoutMs);
    });
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
  }

  /**
   * An extension can still throw from a timer or an unreturned promise, which Node would treat as
   * fatal. Such an error is blamed on the extension whose file its stack names, and that
   * extension is disabled; any other error keeps Node's behaviour (report and exit 1).
   */
  private installCrashGuard(): () => void {
    const onError = (error: unknown) => {
      const stack = error instanceof Error ? (error.stack ?? '') : '';
      const culprit = this.extensions.find((e) => stack.includes(e.url) || stack.includes(e.path));
      if (culprit) {
        this.disable(culprit, 'uncaught', error);
        return;
      }
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    };
    process.on('uncaughtException', onError);
    process.on('unhandledRejection', onError);
    return () => {
      process.off('uncaughtException', onError);
      process.off('unhandledRejection', onError);
    };
  }
}

export interface StartedExtensions {
  dispose(): void;
}

/**
 * Load the extensions of a launched app (its data folder plus `paths`) and feed them its events.
 * The web mode calls it the same way as the RPC mode: `await startExtensions(app, flags.extensions)`.
 */
export async function startExtensions(
  app: LaunchedApp,
  paths: string[] = [],
  options: Pick<ExtensionRunnerOptions, 'log' | 'onFailure' | 'loadTimeoutMs'> = {},
): Promise<StartedExtensions> {
  const info = app.services.domains.app.info();
  const runner = new ExtensionRunner({ host: info.host, dataDir: info.dataDir, ...options });
  await runner.loadAll(discoverExtensions(info.dataDir, paths));
  const unsubscribe = app.hub.subscribe((event) => runner.deliver(event));
  return {
    dispose: () => {
      unsubscribe();
      runner.dispose();
    },
  };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    // A dangling link is skipped, not fatal to the others.
    return false;
  }
}

function copyOf(event: SessionEvent): SessionEvent {
  try {
    return structuredClone(event);
  } catch {
    return JSON.parse(JSON.stringify(event)) as SessionEvent;
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

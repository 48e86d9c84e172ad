// One MCP server's connection (docs/mcp.md): the official SDK's client over stdio (launched by
// mcp-launch.ts, stderr to logs/mcp/<server>.log), Streamable HTTP, or SSE when an older HTTP
// server refuses Streamable HTTP. Connecting and `tools/list` are retried by the decision table's
// `connection` / `timeout` rows (mcp-retry.ts), then on in the background until it comes up (its
// tools join then); a `tools/call` is sent once and never again. A server that goes away is
// reconnected for the next call. Owned by McpManager, one per server.
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { type McpServerConfig } from '../../../shared/mcp';
import { isHttpServer, type McpCatalog } from '../../../shared/mcp-values';
import { listCatalog } from './mcp-catalog';
import { pathLogLine, stdioLaunch, type LaunchContext } from './mcp-launch';
import { serverSandbox, type ServerSandbox } from './mcp-sandbox';
import { redactSecrets } from '../../core/llm/redact-secrets';
import { ConnectFailed, connectFailureText, REQUEST_TIMEOUT, withConnectRetry, type RetryContext } from './mcp-retry';

export interface McpConnectionOptions {
  name: string;
  config: McpServerConfig;
  launch: LaunchContext;
  logDir: string;
  retry: RetryContext;
  version: string;
  /** The session's workspace now: the one root a server with `roots: true` is given (else launch's). */
  workspace?: () => string;
  /** The server's tools, on connect and whenever its list changes. */
  onTools: (tools: Tool[]) => void;
  /** Connected, or lost (with why); the manager turns this into the status. */
  onState: (state: ConnectionState) => void;
}

/** Lost or failed: why, and when the next attempt in the background is (epoch ms), if one is planned. */
export type ConnectionState = { connected: true } | { connected: false; reason: string; nextAttemptAt?: number };

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs: number;
  maxTotalTimeoutMs: number;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** A request while connecting (`tools/list`, the catalog) is cut after this long. */
const CONNECT_TIMEOUT_MS = 30_000;
/**
 * A server that has not answered `initialize` by then is failed for this attempt (a command that
 * speaks no MCP would otherwise show "Starting…" for minutes); the row's next attempts follow.
 */
const INITIALIZE_TIMEOUT_MS = 10_000;

export class McpConnection {
  private client: Client | null = null;
  private connecting: Promise<Client> | null = null;
  private log: WriteStream | null = null;
  private closed = false;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  /** Ends the wait between two attempts of a round early (close). */
  private wake: (() => void) | null = null;
  private losses = 0;
  /** Connect attempts since the last success: background attempts continue the count. */
  private attempts = 0;
  /** The hardening of the running start of a sandboxed stdio server. */
  private sandbox: ServerSandbox | null = null;

  /** Takes the entry's secrets out of what is logged or shown (its log, the decision log, its status). */
  private readonly redact: (text: string) => string;
  private readonly retry: RetryContext;

  constructor(private readonly options: McpConnectionOptions) {
    const secrets = entrySecrets(options.config);
    this.redact = (text) => redactSecrets(text, secrets);
    this.retry = {
      ...options.retry,
      redact: this.redact,
      // Switched off or removed while a round waits: it wakes at once and makes no further attempt.
      sleep: (ms) =>
        new Promise<void>((resolve) => {
          this.wake = resolve;
          void options.retry.sleep(ms).then(resolve);
        }),
      isStopped: () => this.closed,
    };
  }

  /** Connect (retrying per the decision table) and list the tools; resolves when ready, rejects when failed for now. */
  start(): Promise<Client> {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.connecting ??= this.connectWithRetry().finally(() => (this.connecting = null));
    return this.connecting;
  }

  /** "Retry now" (Settings → MCP): a fresh round of attempts at once, whether or not one was planned. */
  retryNow(): Promise<Client> {
    if (this.client) return Promise.resolve(this.client);
    if (!this.connecting) this.attempts = 0;
    return this.start();
  }

  /** One tools/call, never repeated: a failure or a timeout is thrown to the caller, who reports it. */
  async callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult> {
    const client = this.client ?? (await this.start());
    const { CallToolResultSchema } = await import('@modelcontextprotocol/sdk/types.js');
    let result;
    try {
      result = await client.callTool({ name, arguments: args }, CallToolResultSchema, {
        signal: options.signal,
        timeout: options.timeoutMs,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: options.maxTotalTimeoutMs,
        ...(options.onProgress ? { onprogress: options.onProgress } : {}),
      });
    } finally {
      // A repository the call left that git would run commands from is disarmed, whatever the answer.
      this.sandbox?.check();
    }
    return result as CallToolResult;
  }

  /** The session moved to another folder: a server given roots is told (roots/list_changed). */
  rootsChanged(): void {
    if (this.options.config.roots === true) void this.client?.sendRootsListChanged().catch(() => undefined);
  }

  /** Its resources and prompts, read-only; null when it is not connected now. */
  async catalog(): Promise<McpCatalog | null> {
    return this.client ? listCatalog(this.client, CONNECT_TIMEOUT_MS) : null;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wake?.();
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = null;
    await client?.close().catch(() => undefined);
    this.releaseSandbox();
    this.log?.end();
    this.log = null;
  }

  private async connectWithRetry(): Promise<Client> {
    let client: Client;
    try {
      client = await withConnectRetry(this.options.name, this.retry, () => this.connectOnce(), {
        firstAttempt: this.attempts + 1,
        background: true,
        onRetry: (error, waitMs) => this.attemptFailed(error, waitMs),
      });
    } catch (error) {
      if (!this.closed) this.failed(error);
      throw error;
    }
    if (this.closed) {
      await client.close().catch(() => undefined);
      throw new Error('closed');
    }
    this.client = client;
    this.losses = 0;
    this.attempts = 0;
    this.options.onState({ connected: true });
    return client;
  }

  /** Connecting failed for now: shown with why, and tried again in the background when the row allows it. */
  private failed(error: unknown): void {
    const reason = this.redact(connectFailureText(error instanceof ConnectFailed ? error.error : error));
    const later = error instanceof ConnectFailed ? error : null;
    if (later) this.attempts = later.attempts;
    if (later?.retryInMs == null) {
      this.options.onState({ connected: false, reason });
      return;
    }
    this.writeLog(`--- ${new Date().toISOString()} failed: ${reason}; next attempt in ${later.retryInMs} ms\n`);
    this.options.onState({ connected: false, reason, nextAttemptAt: this.retryIn(later.retryInMs) });
  }

  /** One attempt of a round failed and another follows after `waitMs`: failed for now, with when. */
  private attemptFailed(error: unknown, waitMs: number): void {
    if (this.closed) return;
    const reason = this.redact(connectFailureText(error));
    this.options.onState({ connected: false, reason, nextAttemptAt: Date.now() + waitMs });
  }

  /** Plan the next connect in the background; returns when (epoch ms). */
  private retryIn(delayMs: number): number {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => {
      if (!this.closed) void this.start().catch(() => undefined);
    }, delayMs);
    this.reconnectTimer.unref?.();
    return Date.now() + delayMs;
  }

  private async connectOnce(): Promise<Client> {
    const { config } = this.options;
    if (!isHttpServer(config)) return this.connectWith(await this.stdioTransport());
    const url = new URL(config.url);
    const init = { requestInit: { headers: config.headers ?? {} } };
    if (config.type === 'sse') return this.connectWith(await sseTransport(url, init));
    try {
      const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
      return await this.connectWith(new StreamableHTTPClientTransport(url, init));
    } catch (error) {
      // An older server answers Streamable HTTP's POST with 4xx: it speaks the SSE transport.
      if (!isRefusedByOldServer(error)) throw error;
      return this.connectWith(await sseTransport(url, init));
    }
  }

  private async connectWith(transport: Transport): Promise<Client> {
    const [{ Client }, { ListRootsRequestSchema, ToolListChangedNotificationSchema }] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
    const roots = this.options.config.roots === true;
    const capabilities = roots ? { roots: { listChanged: true } } : {};
    const client = new Client({ name: 'Resolute', version: this.options.version }, { capabilities });
    if (roots)
      client.setRequestHandler(ListRootsRequestSchema, () => ({
        roots: [workspaceRoot(this.options.workspace?.() ?? this.options.launch.workspace)],
      }));
    client.onclose = () => this.lost(client, 'the server closed the connection');
    try {
      await client.connect(transport, { timeout: INITIALIZE_TIMEOUT_MS }).catch((error: unknown) => {
        throw initializeFailure(error);
      });
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => void this.refreshTools(client));
      await this.listTools(client);
      return client;
    } catch (error) {
      client.onclose = undefined;
      await client.close().catch(() => undefined);
      throw error;
    }
  }

  private async listTools(client: Client): Promise<void> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: CONNECT_TIMEOUT_MS });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    this.options.onTools(tools);
  }

  /** notifications/tools/list_changed: list again (retried like the first list). */
  private async refreshTools(client: Client): Promise<void> {
    try {
      await withConnectRetry(this.options.name, this.retry, () => this.listTools(client));
    } catch (error) {
      this.writeLog(`tools/list after list_changed failed: ${String(error)}\n`);
    }
  }

  private async stdioTransport(): Promise<Transport> {
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const config = this.options.config as Parameters<typeof stdioLaunch>[0];
    this.releaseSandbox();
    // Checked before the hardening is made: a refused cwd must not be guarded (its git files created).
    stdioLaunch(config, this.options.launch);
    if (config.sandbox) this.sandbox = serverSandbox(config, this.options.launch);
    const launch = stdioLaunch(config, this.options.launch, this.sandbox?.hardening);
    const transport = new StdioClientTransport({ ...launch, stderr: 'pipe' });
    transport.stderr?.on('data', (chunk: Buffer) => this.writeLog(chunk));
    this.writeLog(`--- ${new Date().toISOString()} starting ${launch.command} ${launch.args.join(' ')}\n`);
    this.note(pathLogLine(this.options.launch));
    return transport;
  }

  /** The previous start's hardening, once that server has gone: what it left is checked, then released. */
  private releaseSandbox(): void {
    const sandbox = this.sandbox;
    this.sandbox = null;
    if (!sandbox) return;
    try {
      sandbox.check();
    } catch (error) {
      this.writeLog(`${error instanceof Error ? error.message : String(error)}\n`);
    }
    sandbox.release();
  }

  /** A line of the app's own in the server's log (a tool offered under another name). */
  note(text: string): void {
    this.writeLog(`--- ${new Date().toISOString()} ${text}\n`);
  }

  /** Everything written to the log is redacted, the server's own stderr included (it may print its URL). */
  private writeLog(chunk: Buffer | string): void {
    const text = this.redact(chunk.toString());
    if (!this.log) {
      mkdirSync(this.options.logDir, { recursive: true, mode: 0o700 });
      this.log = createWriteStream(join(this.options.logDir, `${this.options.name}.log`), { flags: 'a', mode: 0o600 });
      this.log.on('error', () => undefined);
    }
    this.log.write(text);
  }

  /** The server went away: its tools stay offered, and the next call (or a timer) reconnects. */
  private lost(client: Client, reason: string): void {
    if (this.client !== client || this.closed) return;
    this.client = null;
    this.writeLog(`--- ${new Date().toISOString()} lost: ${reason}\n`);
    const delay = Math.min(1000 * 2 ** this.losses++, 60_000);
    this.options.onState({ connected: false, reason: this.redact(reason), nextAttemptAt: this.retryIn(delay) });
  }
}

/** The workspace as an MCP root: its file:// URL, named by its folder. */
function workspaceRoot(workspace: string): { uri: string; name: string } {
  return { uri: pathToFileURL(workspace).href, name: basename(workspace) || workspace };
}

/** The SDK's bare "Request timed out" of `initialize`, said as what it means (still a `timeout`). */
function initializeFailure(error: unknown): unknown {
  if ((error as { code?: unknown } | null)?.code !== REQUEST_TIMEOUT) return error;
  const seconds = INITIALIZE_TIMEOUT_MS / 1000;
  const text = `the server did not answer \`initialize\` within ${seconds} s (it may not speak MCP on stdio, or still be starting)`;
  return Object.assign(new Error(text), { code: REQUEST_TIMEOUT });
}

async function sseTransport(url: URL, init: { requestInit: RequestInit }): Promise<Transport> {
  const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
  return new SSEClientTransport(url, init);
}

function isRefusedByOldServer(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'number' && code >= 400 && code < 500;
}

/** What of an entry is a secret: its URL's user and password, its headers' and env's values. */
function entrySecrets(config: McpServerConfig): string[] {
  if (!isHttpServer(config)) return Object.values(config.env ?? {});
  const secrets = Object.values(config.headers ?? {});
  try {
    const url = new URL(config.url);
    secrets.push(decodeURIComponent(url.username), decodeURIComponent(url.password), url.username, url.password);
    for (const [, value] of url.searchParams) secrets.push(value);
  } catch {
    // Not a URL: the settings refuse such an entry, and the shapes of redactSecrets still apply.
  }
  return secrets;
}

// The MCP servers of the settings, kept running (docs/mcp.md): one McpConnection per enabled
// server, started in the background when the settings name it (a changed entry restarts it, a
// removed or disabled one stops), its tools put in the ToolRegistry as a source of their own, and
// each server's status (starting / connected with N tools / failed: why / disabled) published to
// every client. A server that cannot start is a status, never an error of the app. Built by AppServices.
import { dirname, join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolRegistry } from '../../core/tools/tool-registry';
import type { DecisionLogSink, SettingsStore } from '../../core/ports';
import { newId } from '../../../shared/ids';
import { type McpServerConfig } from '../../../shared/mcp';
import {
  isHttpServer,
  mcpToolNames,
  type McpCatalog,
  type McpServerStatus,
  type McpToolNaming,
} from '../../../shared/mcp-values';
import type { Settings } from '../../../shared/settings';
import { McpConnection } from './mcp-connection';
import type { LaunchContext } from './mcp-launch';
import { mcpToolDefinitions } from './mcp-tools';

export interface McpManagerOptions {
  registry: ToolRegistry;
  settings: SettingsStore;
  decisionLog: DecisionLogSink;
  logDir: string;
  version: string;
  /** The folder a stdio server starts in: the session's workspace. */
  workspace: () => string;
  launch: Omit<LaunchContext, 'workspace'>;
  onStatus: (servers: McpServerStatus[]) => void;
}

interface Running {
  connection: McpConnection;
  /** What a restart is judged by: the entry without the fields read at call time. */
  identity: string;
  status: McpServerStatus;
  tools: Tool[];
  /** The names its tools are offered by now, as mcpToolNames gave them (JSON, to see a change). */
  offered: string;
  /** Its tools offered under another name because theirs clashed. */
  renamed: { tool: string; name: string }[];
  /** The workspace a stdio server was started in. */
  workspace: string;
}

export class McpManager {
  private readonly running = new Map<string, Running>();
  private readonly unsubscribe: () => void;

  constructor(private readonly options: McpManagerOptions) {
    this.unsubscribe = options.settings.subscribe((settings) => this.sync(settings));
    this.sync(options.settings.get());
  }

  /** Every configured server's status, in the settings' order. */
  statuses(): McpServerStatus[] {
    const servers = this.options.settings.get().mcp.servers;
    return Object.entries(servers).map(
      ([name, config]) =>
        this.running.get(name)?.status ?? { name, state: config.enabled === false ? 'disabled' : 'starting' },
    );
  }

  /** The session works in another folder: stdio servers started in the old one start again in it. */
  workspaceChanged(): void {
    const workspace = this.options.workspace();
    const servers = this.options.settings.get().mcp.servers;
    const moved = [...this.running.entries()].filter(([, running]) => running.workspace !== workspace);
    // An HTTP server is not restarted; one given roots is told that its root moved.
    for (const [name, running] of moved) if (isHttpServer(servers[name])) running.connection.rootsChanged();
    for (const [name, running] of moved) if (isHttpServer(servers[name])) running.workspace = workspace;
    const restart = moved.filter(([name]) => !isHttpServer(servers[name]));
    if (restart.length === 0) return;
    void Promise.all(restart.map(([name]) => this.stop(name))).then(() => this.sync(this.options.settings.get()));
  }

  /** "Retry now": false when no such server runs (unknown or switched off). */
  retryNow(name: string): boolean {
    const running = this.running.get(name);
    if (!running) return false;
    if (running.status.state !== 'connected') {
      running.status = { name, state: 'starting' };
      this.publish();
    }
    running.connection.retryNow().catch(() => undefined);
    return true;
  }

  /** A connected server's resources and prompts; null when it is not connected. */
  catalog(name: string): Promise<McpCatalog | null> {
    return this.running.get(name)?.connection.catalog() ?? Promise.resolve(null);
  }

  /** Where a server's stderr log is (logs/mcp/<server>.log). */
  logPath(name: string): string {
    return join(this.options.logDir, 'mcp', `${name}.log`);
  }

  async dispose(): Promise<void> {
    this.unsubscribe();
    await Promise.all([...this.running.keys()].map((name) => this.stop(name)));
  }

  private sync(settings: Settings): void {
    const servers = settings.mcp.servers;
    for (const name of [...this.running.keys()]) {
      const config = servers[name];
      if (!config || config.enabled === false || this.running.get(name)?.identity !== identityOf(config))
        void this.stop(name);
    }
    for (const [name, config] of Object.entries(servers))
      if (config.enabled !== false && !this.running.has(name)) this.start(name, config);
    this.publish();
  }

  private start(name: string, config: McpServerConfig): void {
    const { options } = this;
    const workspace = options.workspace();
    const running: Running = {
      identity: identityOf(config),
      status: { name, state: 'starting' },
      tools: [],
      offered: '',
      renamed: [],
      workspace,
      connection: new McpConnection({
        name,
        config,
        version: options.version,
        workspace: options.workspace,
        logDir: dirname(this.logPath(name)),
        launch: { ...options.launch, workspace },
        retry: {
          settings: () => options.settings.get().retry,
          log: options.decisionLog,
          newId,
          sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref?.()),
        },
        onTools: (tools) => this.onTools(name, running, tools),
        onState: (state) => {
          if (this.running.get(name) !== running) return;
          running.status = state.connected
            ? connectedStatus(name, running)
            : { name, state: 'failed', reason: state.reason, ...pick(state.nextAttemptAt) };
          this.publish();
        },
      }),
    };
    this.running.set(name, running);
    running.connection.start().catch(() => undefined);
  }

  private onTools(name: string, running: Running, tools: Tool[]): void {
    if (this.running.get(name) !== running) return;
    running.tools = tools;
    running.offered = '';
    this.offerTools();
  }

  /**
   * Put every server's tools in the registry under names unique across all of them (a clash gives
   * each tool in it a suffix, said in the status and the server's log); a server whose names did
   * not change is left as it is.
   */
  private offerTools(): void {
    const servers = [...this.running.entries()];
    const naming = mcpToolNames(servers.flatMap(([server, r]) => r.tools.map((tool) => ({ server, tool: tool.name }))));
    for (const [name, running] of servers) {
      const mine = naming.filter((entry) => entry.server === name);
      const offered = JSON.stringify(mine);
      if (offered === running.offered) continue;
      running.offered = offered;
      this.offer(name, running, mine);
    }
  }

  private offer(name: string, running: Running, naming: McpToolNaming[]): void {
    const renamed = naming.filter((entry) => entry.renamed).map(({ tool, name: as }) => ({ tool, name: as }));
    if (renamed.length > 0 && JSON.stringify(renamed) !== JSON.stringify(running.renamed))
      running.connection.note(
        `tool names clash with another tool's once made into tool names; offered as: ${renamed.map((r) => `${r.tool} → ${r.name}`).join(', ')}`,
      );
    running.renamed = renamed;
    const source = {
      server: name,
      settings: () => this.options.settings.get().mcp,
      call: running.connection.callTool.bind(running.connection),
    };
    const names = new Map(naming.map((entry) => [entry.tool, entry.name]));
    this.options.registry.setSource(sourceId(name), mcpToolDefinitions(source, running.tools, names));
    if (running.status.state === 'connected') {
      running.status = connectedStatus(name, running);
      this.publish();
    }
  }

  private async stop(name: string): Promise<void> {
    const running = this.running.get(name);
    if (!running) return;
    this.running.delete(name);
    this.options.registry.removeSource(sourceId(name));
    // A clash it was part of is gone: the others get their plain names back.
    this.offerTools();
    await running.connection.close();
  }

  private publish(): void {
    this.options.onStatus(this.statuses());
  }
}

function pick(nextAttemptAt: number | undefined): { nextAttemptAt?: number } {
  return nextAttemptAt === undefined ? {} : { nextAttemptAt };
}

function connectedStatus(name: string, { tools, renamed }: Running): McpServerStatus {
  const toolDescriptions = Object.fromEntries(
    tools.flatMap((tool) => (tool.description?.trim() ? [[tool.name, tool.description.trim()]] : [])),
  );
  const status = {
    name,
    state: 'connected' as const,
    tools: tools.length,
    toolNames: tools.map((tool) => tool.name),
    toolDescriptions,
  };
  return renamed.length > 0 ? { ...status, renamed } : status;
}

function sourceId(name: string): string {
  return `mcp:${name}`;
}

function identityOf(config: McpServerConfig): string {
  const { enabled: _enabled, toolTimeoutMs: _timeout, ...rest } = config;
  return JSON.stringify(rest);
}

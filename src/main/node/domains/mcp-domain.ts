// The MCP domain (docs/mcp.md): Settings → MCP's "Retry now" on a server that failed, a connected
// server's resources and prompts (read-only), and the end of a server's stderr log
// (logs/mcp/<server>.log) for its "Show log". The servers run in McpManager; their statuses reach
// clients as mcp_status events. Built by the composition root.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { CommandHandlers } from '../../../shared/contract';
import type { McpCatalog, McpLogTail } from '../../../shared/mcp-values';
import { CommandError } from '../../../shared/wire';
import { errorText } from '../../../shared/text';

export interface McpDomainParts {
  retryNow: (name: string) => boolean;
  catalog: (name: string) => Promise<McpCatalog | null>;
  logPath: (name: string) => string;
}

/** At most this much of the log's end is read: enough for the lines asked, whatever their length. */
const TAIL_BYTES = 256 * 1024;

export class McpDomain {
  constructor(private readonly parts: McpDomainParts) {}

  readonly commands = {
    'mcp.retry': ({ name }) => ({ retrying: this.parts.retryNow(name) }),
    'mcp.catalog': ({ name }) => this.catalog(name),
    'mcp.log': ({ name, lines }) => readLogTail(this.parts.logPath(name), lines ?? 200),
  } satisfies Pick<CommandHandlers, 'mcp.retry' | 'mcp.catalog' | 'mcp.log'>;

  private async catalog(name: string): Promise<McpCatalog> {
    let catalog: McpCatalog | null;
    try {
      catalog = await this.parts.catalog(name);
    } catch (error) {
      throw new CommandError(
        'failed',
        `The MCP server "${name}" did not list its resources and prompts: ${errorText(error)}`,
      );
    }
    if (!catalog) throw new CommandError('not_found', `The MCP server "${name}" is not connected`);
    return catalog;
  }
}

/** The last `lines` lines of a file; a missing file is an empty log. */
export function readLogTail(path: string, lines: number): McpLogTail {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return { path, text: '', truncated: false };
  }
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - TAIL_BYTES);
    const buffer = Buffer.alloc(size - start);
    readSync(fd, buffer, 0, buffer.length, start);
    const all = buffer.toString('utf8').split('\n');
    if (all.at(-1) === '') all.pop();
    // A read that starts inside the file may start inside a line: that piece is not shown.
    if (start > 0) all.shift();
    const kept = all.slice(-lines);
    return { path, text: kept.join('\n'), truncated: start > 0 || kept.length < all.length };
  } finally {
    closeSync(fd);
  }
}

// An MCP server's tools as Resolute's ToolDefinitions (docs/mcp.md, "Tools"): named
// `mcp__<server>__<tool>`, described and shaped by the server, asking first unless Settings marks
// them always allowed for this very configuration. A call is one `tools/call` with the time limit
// reset by progress and an overall ceiling, cancelled by Stop; whatever goes wrong — `isError`, a
// throw, a timeout — is the tool's result for the model, never a retry. Made by McpManager.
import type { TSchema } from '@mariozechner/pi-ai';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDefinition } from '../../core/tools/tool-definition';
import type { ToolOutcome } from '../../core/ports';
import { type McpSettings } from '../../../shared/mcp';
import { MCP_TOTAL_TIMEOUT_FACTOR, mcpAlwaysAllowed, mcpToolName } from '../../../shared/mcp-values';
import { capHead, formatSize } from '../tools/output-caps';
import type { CallOptions } from './mcp-connection';
import { ToolFailure } from '../../core/tools/tool-failure';
import { fitMcpImages } from './mcp-images';
import { withoutServerPatterns } from './mcp-schema';

export interface McpToolSource {
  server: string;
  settings: () => McpSettings;
  call(tool: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult>;
}

/** The server's tools, each under the name `names` gives it (mcpToolNames: unique across servers). */
export function mcpToolDefinitions(
  source: McpToolSource,
  tools: readonly Tool[],
  names: ReadonlyMap<string, string> = new Map(),
): ToolDefinition[] {
  return tools.map((tool) => mcpToolDefinition(source, tool, names.get(tool.name)));
}

function mcpToolDefinition(source: McpToolSource, tool: Tool, offeredAs: string | undefined): ToolDefinition {
  const name = offeredAs ?? mcpToolName(source.server, tool.name);
  const title = tool.annotations?.title ?? tool.title;
  return {
    name,
    description: tool.description ?? title ?? `The ${tool.name} tool of the MCP server "${source.server}".`,
    parameters: objectSchema(tool.inputSchema),
    get asksFirst() {
      return !mcpAlwaysAllowed(source.settings(), source.server, tool.name);
    },
    run: (args, context) => runCall(source, tool.name, args, context.signal, context.onUpdate),
    summary: (args) => `${source.server} · ${tool.name} ${oneLine(args)}`.trim(),
    // A server writes files its own way, outside Resolute's tools: its card says so (docs/file-history.md).
    filesUntracked: true,
  };
}

/**
 * A server's schema without its regular expressions (mcp-schema.ts: pi checks the arguments on the
 * main thread); an object schema is required by every provider, so one is made if absent.
 */
function objectSchema(schema: Tool['inputSchema'] | undefined): TSchema {
  const base = (withoutServerPatterns(schema) ?? {}) as Partial<Tool['inputSchema']>;
  const object = typeof base === 'object' ? base : {};
  return { ...object, type: 'object', properties: object.properties ?? {} } as unknown as TSchema;
}

function oneLine(args: Record<string, unknown>): string {
  const text = JSON.stringify(args);
  if (text === '{}') return '';
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

async function runCall(
  source: McpToolSource,
  tool: string,
  args: Record<string, unknown>,
  signal: AbortSignal | undefined,
  onUpdate: ((text: string) => void) | undefined,
): Promise<ToolOutcome> {
  const settings = source.settings();
  const limit = settings.servers[source.server]?.toolTimeoutMs ?? settings.toolTimeoutMs;
  try {
    const result = await source.call(tool, args, {
      signal,
      timeoutMs: limit,
      maxTotalTimeoutMs: limit * MCP_TOTAL_TIMEOUT_FACTOR,
      onProgress: ({ progress, total, message }) =>
        onUpdate?.(`${message ? `${message} ` : ''}(${progress}${total !== undefined ? `/${total}` : ''})`),
    });
    return await fitMcpImages(outcomeOf(result));
  } catch (error) {
    // The git check after a sandboxed server's call refused what it left (mcp-sandbox.ts): audited, the turn stops.
    if (error instanceof ToolFailure) throw error;
    if (signal?.aborted) return { text: 'Stopped: the person cancelled this call.', details: {}, isError: true };
    if ((error as { code?: unknown }).code === -32001)
      return {
        text: `The MCP tool did not answer within its time limit (${Math.round(limit / 1000)} s without progress, or ${Math.round((limit * MCP_TOTAL_TIMEOUT_FACTOR) / 1000)} s in all). It was cancelled and not run again.`,
        details: { timedOut: true },
        isError: true,
      };
    return { text: `The MCP server failed this call: ${errorText(error)}`, details: {}, isError: true };
  }
}

/** A tools/call result as the model gets it: text (cut to the caps), images as images. */
export function outcomeOf(result: CallToolResult): ToolOutcome {
  const texts: string[] = [];
  const images: { data: string; mimeType: string }[] = [];
  for (const block of result.content ?? []) {
    if (block.type === 'text') texts.push(block.text);
    else if (block.type === 'image') images.push({ data: block.data, mimeType: block.mimeType });
    else if (block.type === 'audio')
      texts.push(`[audio, ${block.mimeType}, ${formatSize((block.data.length * 3) / 4)}]`);
    else if (block.type === 'resource_link')
      texts.push(`[resource ${block.uri}${block.name ? ` (${block.name})` : ''}]`);
    else if (block.type === 'resource')
      texts.push('text' in block.resource ? block.resource.text : `[resource ${block.resource.uri}, binary]`);
  }
  if (texts.length === 0 && result.structuredContent) texts.push(JSON.stringify(result.structuredContent, null, 2));
  const capped = capHead(texts.join('\n'));
  const note = capped.truncated ? `\n\n[Output cut to ${capped.keptLines} of ${capped.totalLines} lines.]` : '';
  const text = capped.text + note || (images.length ? '' : '(no output)');
  return {
    text,
    details: capped.truncated ? { truncated: true } : {},
    isError: result.isError === true,
    ...(images.length ? { images } : {}),
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

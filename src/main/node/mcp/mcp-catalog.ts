// A connected MCP server's resources, resource templates and prompts, listed read-only for
// Settings → MCP (docs/mcp.md): only what the server declares (its capabilities), each list paged
// through up to MCP_CATALOG_LIMIT entries. Nothing here is offered to the model. Called by McpConnection.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { MCP_CATALOG_LIMIT, type McpCatalog } from '../../../shared/mcp-values';

interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/** Every page of one list, until its end or the limit; `cut` says whether the limit cut it. */
async function pages<T>(list: (cursor: string | undefined) => Promise<Page<T>>): Promise<{ items: T[]; cut: boolean }> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await list(cursor);
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor && items.length < MCP_CATALOG_LIMIT);
  return { items: items.slice(0, MCP_CATALOG_LIMIT), cut: Boolean(cursor) || items.length > MCP_CATALOG_LIMIT };
}

const param = (cursor: string | undefined) => (cursor ? { cursor } : undefined);

export async function listCatalog(client: Client, timeoutMs: number): Promise<McpCatalog> {
  const caps = client.getServerCapabilities() ?? {};
  const options = { timeout: timeoutMs };
  const none = { items: [], cut: false };
  const [resources, templates, prompts] = await Promise.all([
    caps.resources
      ? pages(async (c) => {
          const r = await client.listResources(param(c), options);
          return { items: r.resources, nextCursor: r.nextCursor };
        })
      : none,
    caps.resources
      ? pages(async (c) => {
          const r = await client.listResourceTemplates(param(c), options);
          return { items: r.resourceTemplates, nextCursor: r.nextCursor };
        })
      : none,
    caps.prompts
      ? pages(async (c) => {
          const r = await client.listPrompts(param(c), options);
          return { items: r.prompts, nextCursor: r.nextCursor };
        })
      : none,
  ]);
  return {
    supports: { resources: Boolean(caps.resources), prompts: Boolean(caps.prompts) },
    resources: resources.items.map((r) => ({
      uri: r.uri,
      name: r.title ?? r.name,
      ...(r.description ? { description: r.description } : {}),
      ...(r.mimeType ? { mimeType: r.mimeType } : {}),
    })),
    resourceTemplates: templates.items.map((t) => ({
      uriTemplate: t.uriTemplate,
      name: t.title ?? t.name,
      ...(t.description ? { description: t.description } : {}),
    })),
    prompts: prompts.items.map((p) => ({
      name: p.name,
      ...(p.description ? { description: p.description } : {}),
      arguments: (p.arguments ?? []).map((a) => ({ name: a.name, required: a.required === true })),
    })),
    truncated: resources.cut || templates.cut || prompts.cut,
  };
}

// MCP servers as the settings hold them (docs/mcp.md): one entry per server in the shape of Claude
// desktop's `mcpServers` (stdio `{ command, args, env, cwd }` or HTTP `{ url, headers }`) plus
// Resolute's own fields, the status a server is in, the tool names it gives, the hash its
// "always allow" is tied to, and the import of other apps' config files. Pure: used by the
// settings schema, the main process's McpManager and the renderer's Settings → MCP section.
import { z } from 'zod';

/** The range of `mcp.toolTimeoutMs` and of a server's `toolTimeoutMs`, ms. */
export const MCP_TIMEOUT_RANGE = { min: 1_000, max: 3_600_000 } as const;
/** A call's ceiling however much progress it reports: this many times its time limit. */
export const MCP_TOTAL_TIMEOUT_FACTOR = 10;

/** Letters, digits, `_` and `-`: the name goes into tool names, which providers limit to these. */
export const MCP_SERVER_NAME = /^[A-Za-z0-9_-]{1,32}$/;

const timeout = z
  .number({ error: 'must be a number (ms)' })
  .int({ error: 'must be a whole number' })
  .min(MCP_TIMEOUT_RANGE.min, { error: `must be at least ${MCP_TIMEOUT_RANGE.min} ms` })
  .max(MCP_TIMEOUT_RANGE.max, { error: `must be at most ${MCP_TIMEOUT_RANGE.max} ms` });
const stringMap = z.record(z.string(), z.string({ error: 'must be a string' }));
const common = {
  enabled: z.boolean().optional(),
  toolTimeoutMs: timeout.optional(),
  /** Advertise MCP roots: the server may ask for the session's workspace (and is told when it moves). */
  roots: z.boolean().optional(),
};

export const mcpStdioServerSchema = z
  .object({
    type: z.literal('stdio').optional(),
    command: z.string().trim().min(1, { error: 'must not be empty' }),
    args: z.array(z.string({ error: 'must be a string' })).optional(),
    env: stringMap.optional(),
    cwd: z.string().optional(),
    /** Run it inside bubblewrap like `bash` (Linux). */
    sandbox: z.boolean().optional(),
    /** With `sandbox`: the network is on unless this is false. */
    network: z.boolean().optional(),
    ...common,
  })
  .strict();

export const mcpHttpServerSchema = z
  .object({
    /** `http` (Streamable HTTP, falling back to SSE) unless `sse` says the server is an older one. */
    type: z.enum(['http', 'sse', 'streamable-http']).optional(),
    url: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }),
    headers: stringMap.optional(),
    ...common,
  })
  .strict();

export type McpStdioServer = z.infer<typeof mcpStdioServerSchema>;
export type McpHttpServer = z.infer<typeof mcpHttpServerSchema>;
export type McpServerConfig = McpStdioServer | McpHttpServer;

/** One entry: stdio when it has `command`, HTTP when it has `url`; the errors name the field. */
export const mcpServerSchema = z.custom<McpServerConfig>().superRefine((value, ctx) => {
  const entry = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  const schema = entry && 'url' in entry && !('command' in entry) ? mcpHttpServerSchema : mcpStdioServerSchema;
  if (!entry) {
    ctx.addIssue({ code: 'custom', message: 'must be an object with `command` (stdio) or `url` (HTTP)' });
    return;
  }
  const parsed = schema.safeParse(entry);
  for (const issue of parsed.success ? [] : parsed.error.issues) ctx.addIssue({ ...issue, code: 'custom' });
});

/** `mcp.servers`: keyed by server name. A key set to null by a settings patch is removed. */
export const mcpServersSchema = z.preprocess(
  (value) =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined && entry !== null))
      : value,
  z.record(
    z.string().regex(MCP_SERVER_NAME, { error: 'a server name is 1–32 letters, digits, _ or -' }),
    mcpServerSchema,
  ),
);

/** "Always allow" for one server: its tools (or '*') as long as its configuration hashes to `config`. */
export const mcpAllowSchema = z.object({ config: z.string().min(1), tools: z.array(z.string()) }).strict();
export type McpAllow = z.infer<typeof mcpAllowSchema>;

export const mcpSettingsSchema = z
  .object({
    servers: mcpServersSchema.default({}),
    /** The time limit of one tool call, reset by progress. */
    toolTimeoutMs: timeout.default(60_000),
    /** Per server: tools that never ask (docs/mcp.md, "Approvals"). */
    allowed: z
      .preprocess(
        (value) =>
          typeof value === 'object' && value !== null
            ? Object.fromEntries(Object.entries(value).filter(([, entry]) => entry != null))
            : value,
        z.record(z.string(), mcpAllowSchema),
      )
      .default({}),
  })
  .strict();
export type McpSettings = z.infer<typeof mcpSettingsSchema>;

export const DEFAULT_MCP_SETTINGS: McpSettings = mcpSettingsSchema.parse({});

export function isHttpServer(config: McpServerConfig): config is McpHttpServer {
  return 'url' in config;
}

/**
 * What an "always allow" is tied to: the command, arguments, working folder and environment of a
 * stdio server, or the URL and headers of an HTTP one, and whether it is given roots (FNV-1a of their JSON; not a secret, just a
 * fingerprint). Changing any of them revokes the choice.
 */
export function mcpConfigHash(config: McpServerConfig): string {
  const identity = isHttpServer(config)
    ? { url: config.url, headers: sorted(config.headers) }
    : {
        command: config.command,
        args: config.args ?? [],
        cwd: config.cwd ?? '',
        env: sorted(config.env),
        sandbox: config.sandbox ?? false,
      };
  // Roots can widen or narrow what a server reaches (server-filesystem takes them as its folders);
  // only `true` is hashed, so the hashes of entries without it stay as they were.
  const text = JSON.stringify(config.roots === true ? { ...identity, roots: true } : identity);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

function sorted(map: Record<string, string> | undefined): [string, string][] {
  return Object.entries(map ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Take the entries of `mcp.servers` that are not valid out of a settings object read from a file
 * (in place), so one bad entry does not make the whole file invalid: they are returned to be kept
 * in the file, with one line each saying why.
 */
export function takeBadMcpServers(settings: unknown): { bad: Record<string, unknown>; reasons: string[] } {
  const servers = (settings as { mcp?: { servers?: unknown } } | null)?.mcp?.servers;
  const bad: Record<string, unknown> = {};
  const reasons: string[] = [];
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) return { bad, reasons };
  const list = servers as Record<string, unknown>;
  for (const [name, entry] of Object.entries(list)) {
    if (entry === null || entry === undefined) continue;
    const parsed = mcpServerSchema.safeParse(entry);
    const problem = !MCP_SERVER_NAME.test(name)
      ? 'a server name is 1–32 letters, digits, _ or -'
      : parsed.success
        ? null
        : parsed.error.issues.map((i) => `${[...i.path].join('.') || '(entry)'}: ${i.message}`).join('; ');
    if (problem === null) continue;
    bad[name] = entry;
    reasons.push(`mcp.servers.${name}: ${problem}`);
    delete list[name];
  }
  return { bad, reasons };
}

/** Whether a server's tool may run without asking: allowed, for this very configuration. */
export function mcpAlwaysAllowed(settings: McpSettings, server: string, tool: string): boolean {
  const config = settings.servers[server];
  const allow = settings.allowed[server];
  if (!config || !allow || allow.config !== mcpConfigHash(config)) return false;
  return allow.tools.includes('*') || allow.tools.includes(tool);
}

/** `mcp__<server>__<tool>`, the tool's name cut to the characters and length providers accept. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 64);
}

/**
 * Where a server is: starting, connected with its tool count, failed with the reason (and when it
 * is tried again in the background, epoch ms, if it is), or switched off.
 */
export type McpServerStatus =
  | { name: string; state: 'starting' }
  | { name: string; state: 'connected'; tools: number; toolNames: string[] }
  | { name: string; state: 'failed'; reason: string; nextAttemptAt?: number }
  | { name: string; state: 'disabled' };

/** The end of a server's stderr log, as Settings → MCP shows it. */
export interface McpLogTail {
  /** The log file's path (it may not exist yet). */
  path: string;
  /** The last lines, joined; empty when there is no log. */
  text: string;
  /** Lines before these were left out. */
  truncated: boolean;
}

/**
 * What a connected server offers besides tools, read-only (Settings → MCP): its resources, resource
 * templates and prompts, from resources/list, resources/templates/list and prompts/list. They are
 * not offered to the model (docs/mcp.md, "What is left").
 */
export interface McpCatalog {
  /** Whether the server declares the capability at all. */
  supports: { resources: boolean; prompts: boolean };
  resources: { uri: string; name: string; description?: string; mimeType?: string }[];
  resourceTemplates: { uriTemplate: string; name: string; description?: string }[];
  prompts: { name: string; description?: string; arguments: { name: string; required: boolean }[] }[];
  /** A list was cut at MCP_CATALOG_LIMIT entries. */
  truncated: boolean;
}

/** The most entries of each list a catalog holds. */
export const MCP_CATALOG_LIMIT = 500;

/**
 * Read another app's config file — Claude desktop's `claude_desktop_config.json`, a project's
 * `.mcp.json`, Cursor's `mcp.json` (all `{ "mcpServers": { … } }`; VS Code's `{ "servers": … }`
 * too) — into entries. Fields Resolute does not know are dropped; a bad entry is named, not taken.
 */
export function importMcpConfig(
  text: string,
): { ok: true; servers: Record<string, McpServerConfig>; skipped: string[] } | { ok: false; error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const root = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  const list = root.mcpServers ?? root.servers;
  if (typeof list !== 'object' || list === null || Array.isArray(list))
    return { ok: false, error: 'no "mcpServers" object in this file' };
  const servers: Record<string, McpServerConfig> = {};
  const skipped: string[] = [];
  for (const [rawName, rawEntry] of Object.entries(list)) {
    const name = rawName.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 32);
    const entry = pickKnown(rawEntry);
    const result = mcpServerSchema.safeParse(entry);
    if (result.success && MCP_SERVER_NAME.test(name)) servers[name] = result.data;
    else skipped.push(`${rawName}: ${result.success ? 'bad name' : result.error.issues[0]?.message}`);
  }
  return { ok: true, servers, skipped };
}

const KNOWN_FIELDS = new Set([...Object.keys(mcpStdioServerSchema.shape), ...Object.keys(mcpHttpServerSchema.shape)]);

function pickKnown(entry: unknown): unknown {
  if (typeof entry !== 'object' || entry === null) return entry;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) if (KNOWN_FIELDS.has(key)) out[key] = value;
  // Cursor and Claude Code mark a disabled server `disabled: true`.
  if ((entry as { disabled?: unknown }).disabled === true) out.enabled = false;
  if (out.type === 'stdio' && 'url' in out) delete out.type;
  return out;
}

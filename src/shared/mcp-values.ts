// The plain parts of MCP's settings: the time limits, the server-name rule, the hash an "always
// allow" is tied to, tool names and a server's status. The primary of the two: mcp.ts has the zod
// schemas and imports these, and this file imports nothing of it (it reads a server's entry by the
// fields it needs, which mcp.ts's McpServerConfig has). Everything imports these from here, and the
// window's first chunk does not load zod; it loads mcp.ts only to import another app's config file.

/** The range of `mcp.toolTimeoutMs` and of a server's `toolTimeoutMs`, ms. */
export const MCP_TIMEOUT_RANGE = { min: 1_000, max: 3_600_000 } as const;
/** A call's ceiling however much progress it reports: this many times its time limit. */
export const MCP_TOTAL_TIMEOUT_FACTOR = 10;

/** Letters, digits, `_` and `-`: the name goes into tool names, which providers limit to these. */
export const MCP_SERVER_NAME = /^[A-Za-z0-9_-]{1,32}$/;

/** What a stdio server's entry holds that its "always allow" is tied to. */
interface StdioIdentity {
  command: string;
  args?: string[];
  cwd?: string;
  env?: Record<string, string>;
  sandbox?: boolean;
  roots?: boolean;
}

/** What an HTTP server's entry holds that its "always allow" is tied to. */
interface HttpIdentity {
  url: string;
  headers?: Record<string, string>;
  roots?: boolean;
}

/** A server's entry as the plain functions read it: mcp.ts's McpServerConfig is one. */
type ServerIdentity = StdioIdentity | HttpIdentity;

/** An HTTP server's entry (it has `url`), of mcp.ts's McpServerConfig or of any entry shape. */
export function isHttpServer<C extends ServerIdentity>(config: C): config is Extract<C, HttpIdentity> {
  return 'url' in config;
}

/**
 * What an "always allow" is tied to: the command, arguments, working folder and environment of a
 * stdio server, or the URL and headers of an HTTP one, and whether it is given roots (FNV-1a of
 * their JSON; not a secret, just a fingerprint). Changing any of them revokes the choice.
 */
export function mcpConfigHash(config: ServerIdentity): string {
  // A secret counts by its fingerprint, which its masked form carries too: the window, which only
  // ever sees masked env values and headers, hashes an entry as the main process does.
  const identity = isHttpServer(config)
    ? { url: config.url, headers: fingerprints(config.headers) }
    : {
        command: config.command,
        args: config.args ?? [],
        cwd: config.cwd ?? '',
        env: fingerprints(config.env),
        sandbox: config.sandbox ?? false,
      };
  // Roots can widen or narrow what a server reaches (server-filesystem takes them as its folders);
  // only `true` is hashed, so the hashes of entries without it stay as they were.
  return fnv1a(JSON.stringify(config.roots === true ? { ...identity, roots: true } : identity));
}

/** FNV-1a of a text, 8 hex digits: a fingerprint, not a secret. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

function fingerprints(map: Record<string, string> | undefined): [string, string][] {
  return Object.entries(map ?? {})
    .map(([key, value]): [string, string] => [key, secretFingerprint(value)])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** How a masked secret (an env value, a header) starts. */
const MASK_MARK = '••••';
const MASKED = /^••••.{0,4}#([0-9a-f]{8})$/u;

/**
 * An MCP entry's env value or header as the window sees it (docs/mcp.md, "Secrets"): its last four
 * characters when it is long enough to spare them, and its fingerprint, which tells two values
 * apart and lets a masked value sent back stand for the stored one.
 */
export function maskSecret(value: string): string {
  if (isMaskedSecret(value)) return value;
  return `${MASK_MARK}${value.length >= 16 ? value.slice(-4) : ''}#${fnv1a(value)}`;
}

export function isMaskedSecret(value: string): boolean {
  return MASKED.test(value);
}

/** The fingerprint of a secret, read off its masked form when that is what is given. */
export function secretFingerprint(value: string): string {
  return MASKED.exec(value)?.[1] ?? fnv1a(value);
}

/** Whether a server's tool may run without asking: allowed, for this very configuration. */
export function mcpAlwaysAllowed(
  settings: {
    servers: Record<string, ServerIdentity>;
    allowed: Record<string, { config: string; tools: string[] }>;
  },
  server: string,
  tool: string,
): boolean {
  const config = settings.servers[server];
  const allow = settings.allowed[server];
  if (!config || !allow || allow.config !== mcpConfigHash(config)) return false;
  return allow.tools.includes('*') || allow.tools.includes(tool);
}

/** The longest tool name providers accept. */
const TOOL_NAME_MAX = 64;

/** `mcp__<server>__<tool>`, the tool's name cut to the characters and length providers accept. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, TOOL_NAME_MAX);
}

/** One server's tool and the name it is offered by; `renamed` when a clash gave it a suffix. */
export interface McpToolNaming {
  server: string;
  tool: string;
  name: string;
  renamed: boolean;
}

/**
 * The names every connected server's tools are offered by (docs/mcp.md, "Tools"). `mcpToolName`
 * is not one-to-one — `a`/`b__c` and `a__b`/`c`, two names cut at 64 characters, `a.b` and `a_b`
 * — so every tool whose name another tool also gets is offered with `_<hash of server and tool>`
 * instead: none of them takes the name from the others, whichever server connected first. The
 * result depends only on the set of tools.
 */
export function mcpToolNames(tools: readonly { server: string; tool: string }[]): McpToolNaming[] {
  const unique = new Map(tools.map(({ server, tool }) => [`${server}\0${tool}`, { server, tool }]));
  const sorted = [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, entry]) => entry);
  const named = sorted.map((entry) => ({ ...entry, name: mcpToolName(entry.server, entry.tool), renamed: false }));
  // A suffixed name could meet another tool's plain one (a server can choose its names): go on with
  // a salted hash until no name is shared.
  for (let salt = 0; ; salt++) {
    const clashing = clashes(named);
    if (clashing.length === 0) return named;
    for (const entry of clashing) {
      const suffix = `_${fnv1a(`${entry.server}\0${entry.tool}${salt ? `\0${salt}` : ''}`)}`;
      entry.name = `${mcpToolName(entry.server, entry.tool).slice(0, TOOL_NAME_MAX - suffix.length)}${suffix}`;
      entry.renamed = true;
    }
  }
}

/** The entries whose name some other entry also has. */
function clashes<T extends { name: string }>(entries: T[]): T[] {
  const count = new Map<string, number>();
  for (const { name } of entries) count.set(name, (count.get(name) ?? 0) + 1);
  return entries.filter(({ name }) => (count.get(name) ?? 0) > 1);
}

/** Is this a tool an MCP server offers (named by mcpToolName)? */
export function isMcpTool(toolName: string): boolean {
  return toolName.startsWith('mcp__');
}

/**
 * Where a server is: starting, connected with its tool count, failed with the reason (and when it
 * is tried again in the background, epoch ms, if it is), or switched off.
 */
export type McpServerStatus =
  | { name: string; state: 'starting' }
  | {
      name: string;
      state: 'connected';
      tools: number;
      toolNames: string[];
      /** What each tool says it does (its `description`), by its name; a tool without one is absent. */
      toolDescriptions?: Record<string, string>;
      /** Tools offered under another name because theirs clashed (mcpToolNames); absent when none. */
      renamed?: { tool: string; name: string }[];
    }
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

// MCP servers as the settings hold them (docs/mcp.md), as zod schemas: one entry per server in the
// shape of Claude desktop's `mcpServers` (stdio `{ command, args, env, cwd }` or HTTP `{ url,
// headers }`) plus Resolute's own fields, and the import of other apps' config files. The plain
// parts — time limits, the server-name rule, the "always allow" hash, tool names, a server's
// status — are in mcp-values.ts, the primary of the two: this file imports them and does not
// re-export them. Pure: used by the settings schema, the main process and Settings → MCP.
import { z } from 'zod';
import { MCP_SERVER_NAME, MCP_TIMEOUT_RANGE } from './mcp-values';

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

/** A value VS Code's config asks for when a server starts (`inputs`, referenced as `${input:id}`). */
export interface McpImportInput {
  id: string;
  description: string;
  /** `"password": true`: typed hidden. */
  password: boolean;
}

export type McpImportResult =
  | {
      ok: true;
      servers: Record<string, McpServerConfig>;
      skipped: string[];
      inputs: McpImportInput[];
      /** Names changed to fit a server name (letters, digits, _ and -, at most 32), said to the person. */
      renamed: { from: string; to: string }[];
    }
  | { ok: false; error: string };

/**
 * Read another app's config file — Claude desktop's `claude_desktop_config.json`, a project's
 * `.mcp.json`, Cursor's `mcp.json` (all `{ "mcpServers": { … } }`; VS Code's `{ "servers": … }`
 * too) — into entries. Fields Resolute does not know are dropped; a bad entry is named, not taken.
 * VS Code's `${input:id}` references are listed in `inputs` (those its entries use) and filled
 * from `values`; `${workspaceFolder}` is kept, for the launch to fill with the workspace.
 */
export function importMcpConfig(text: string, values: Record<string, string> = {}): McpImportResult {
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
  const declared = declaredInputs(root.inputs);
  const used = new Set<string>();
  const servers: Record<string, McpServerConfig> = {};
  const skipped: string[] = [];
  const renamed: { from: string; to: string }[] = [];
  for (const [rawName, rawEntry] of Object.entries(list)) {
    const name = rawName.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 32);
    const entry = fillInputs(pickKnown(rawEntry), values, used);
    const result = mcpServerSchema.safeParse(entry);
    if (!result.success || !MCP_SERVER_NAME.test(name)) {
      skipped.push(`${rawName}: ${result.success ? 'bad name' : result.error.issues[0]?.message}`);
      continue;
    }
    servers[name] = result.data;
    if (name !== rawName) renamed.push({ from: rawName, to: name });
  }
  const inputs = [...used].map((id) => declared.get(id) ?? { id, description: id, password: false });
  return { ok: true, servers, skipped, inputs, renamed };
}

function declaredInputs(raw: unknown): Map<string, McpImportInput> {
  const out = new Map<string, McpImportInput>();
  for (const item of Array.isArray(raw) ? raw : []) {
    const input = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    if (typeof input.id !== 'string') continue;
    const description = typeof input.description === 'string' && input.description ? input.description : input.id;
    out.set(input.id, { id: input.id, description, password: input.password === true });
  }
  return out;
}

/** Every string of an entry with its `${input:id}` filled from `values` (when given); the ids seen go to `used`. */
function fillInputs(value: unknown, values: Record<string, string>, used: Set<string>): unknown {
  if (typeof value === 'string')
    return value.replace(/\$\{input:([^}]+)\}/g, (whole, id: string) => {
      used.add(id);
      return values[id] ?? whole;
    });
  if (Array.isArray(value)) return value.map((item) => fillInputs(item, values, used));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillInputs(item, values, used)]));
  return value;
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

// Deep links (docs/hosts.md, "Deep links"): the one parser of a `resolute://` link, for the
// Electron host (the OS hands it the link) and the window (which acts on it, in both hosts). Three
// paths: `chat/<sessionId>` opens a chat, `new?prompt=<text>` starts a chat with the text in the
// box (never sent), `mcp/add?name=<name>&config=<base64 JSON>` asks to add an MCP server. Anything
// else is refused with a reason code the window says in its language. Pure; the window loads it
// (and zod) only when a link comes.
import { z } from 'zod';
import { importMcpConfig, type McpServerConfig } from './mcp';
import { MCP_SERVER_NAME } from './mcp-values';
import { DEEP_LINK_MAX_CHARS, DEEP_LINK_SCHEME, startsAsLink } from './deep-link-text';

/** The longest prompt a `new` link carries, in characters (after decoding). */
export const DEEP_LINK_PROMPT_MAX_CHARS = 8_000;
/** The longest MCP configuration a link carries, in bytes of its decoded JSON. */
export const DEEP_LINK_CONFIG_MAX_BYTES = 8_192;

export type DeepLink =
  | { kind: 'chat'; sessionId: string }
  | { kind: 'new'; prompt: string }
  | { kind: 'mcp-add'; name: string; config: McpServerConfig };

/** Why a link was refused; `detail` (English, from the validation) is shown beside the reason. */
export type DeepLinkRefusal =
  | 'too-long'
  | 'not-resolute'
  | 'unknown-path'
  | 'bad-query'
  | 'bad-session-id'
  | 'prompt-too-long'
  | 'bad-name'
  | 'bad-base64'
  | 'bad-json'
  | 'bad-config';

export type DeepLinkResult = { ok: true; link: DeepLink } | { ok: false; reason: DeepLinkRefusal; detail?: string };

/** A session id as the app mints them (ids.ts) or a UUID: URL-safe characters only. */
const sessionIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const newQuerySchema = z.object({ prompt: z.string().optional() }).strict();
const mcpQuerySchema = z.object({ name: z.string(), config: z.string() }).strict();
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

const refuse = (reason: DeepLinkRefusal, detail?: string): DeepLinkResult => ({
  ok: false,
  reason,
  ...(detail ? { detail } : {}),
});

/**
 * Read a `resolute://…` link. Parsed by hand, not by URL: a non-special scheme's host and path are
 * read differently by Node and by older Chromium, and the link must mean one thing everywhere.
 */
export function parseDeepLink(text: string): DeepLinkResult {
  if (text.length > DEEP_LINK_MAX_CHARS) return refuse('too-long');
  if (!startsAsLink(text)) return refuse('not-resolute');
  const prefix = `${DEEP_LINK_SCHEME}://`;
  const rest = text.slice(prefix.length).split('#')[0];
  const queryAt = rest.indexOf('?');
  // Windows and some launchers add a slash at the end of the path: `resolute://new/?prompt=…`.
  const path = (queryAt < 0 ? rest : rest.slice(0, queryAt)).replace(/\/$/, '');
  const query = readQuery(queryAt < 0 ? '' : rest.slice(queryAt + 1));
  if (!query) return refuse('bad-query', 'a parameter is given twice');
  const parts = path.split('/');
  if (parts[0] === 'chat' && parts.length === 2) return chatLink(parts[1], query);
  if (path === 'new') return newLink(query);
  if (path === 'mcp/add') return mcpAddLink(query);
  return refuse('unknown-path', path.slice(0, 80));
}

/** The query's parameters, or null when one is given twice (which of them would count?). */
function readQuery(query: string): Record<string, string> | null {
  const out = new Map<string, string>();
  for (const [key, value] of new URLSearchParams(query)) {
    if (out.has(key)) return null;
    out.set(key, value);
  }
  return Object.fromEntries(out);
}

function chatLink(rawId: string, query: Record<string, string>): DeepLinkResult {
  if (Object.keys(query).length > 0) return refuse('bad-query', Object.keys(query).join(', '));
  let sessionId: string;
  try {
    sessionId = decodeURIComponent(rawId);
  } catch {
    return refuse('bad-session-id');
  }
  return sessionIdSchema.safeParse(sessionId).success
    ? { ok: true, link: { kind: 'chat', sessionId } }
    : refuse('bad-session-id');
}

function newLink(query: Record<string, string>): DeepLinkResult {
  const parsed = newQuerySchema.safeParse(query);
  if (!parsed.success) return refuse('bad-query', issueText(parsed.error));
  const prompt = parsed.data.prompt ?? '';
  if (prompt.length > DEEP_LINK_PROMPT_MAX_CHARS) return refuse('prompt-too-long');
  return { ok: true, link: { kind: 'new', prompt } };
}

function mcpAddLink(query: Record<string, string>): DeepLinkResult {
  const parsed = mcpQuerySchema.safeParse(query);
  if (!parsed.success) return refuse('bad-query', issueText(parsed.error));
  const { name, config } = parsed.data;
  if (!MCP_SERVER_NAME.test(name)) return refuse('bad-name');
  const json = decodeBase64(config);
  if (json === null) return refuse('bad-base64');
  let entry: unknown;
  try {
    entry = JSON.parse(json);
  } catch (error) {
    return refuse('bad-json', error instanceof Error ? error.message : undefined);
  }
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    return refuse('bad-config', 'not a JSON object');
  // The same reading as Settings → MCP's import of a config file (mcp.ts): one entry under its name.
  const imported = importMcpConfig(JSON.stringify({ mcpServers: { [name]: entry } }));
  if (!imported.ok) return refuse('bad-config', imported.error);
  if (imported.skipped.length > 0) return refuse('bad-config', imported.skipped.join('; '));
  // A link cannot ask for VS Code's `${input:…}` values: there is no file and no form to fill them.
  if (imported.inputs.length > 0) return refuse('bad-config', '${input:…} values cannot come in a link');
  const server = imported.servers[name];
  return server ? { ok: true, link: { kind: 'mcp-add', name, config: server } } : refuse('bad-config');
}

/** Standard or URL-safe base64 of UTF-8 text; null when it is neither, too large, or not UTF-8. */
function decodeBase64(text: string): string | null {
  // A `+` left unescaped in the query reads as a space: base64 has no spaces, so it was a `+`.
  const compact = text.replace(/ /g, '+').replace(/[\r\n\t]+/g, '');
  if (!BASE64.test(compact) || compact.length === 0) return null;
  if ((compact.length * 3) / 4 > DEEP_LINK_CONFIG_MAX_BYTES + 3) return null;
  try {
    const binary = atob(compact.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    if (bytes.length > DEEP_LINK_CONFIG_MAX_BYTES) return null;
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

function issueText(error: z.ZodError): string {
  return error.issues.map((issue) => [...issue.path].join('.') || issue.message).join(', ');
}

// MCP servers' secrets — a stdio entry's `env` values and an HTTP entry's `headers` — as the
// clients see them (docs/mcp.md, "Secrets"): masked on the way out of the main process, and a
// masked value that comes back in a settings change stands for the value it masks. Pure; used by
// the settings domain and the composition root on every settings reply and settings_changed.
import type { Settings } from './settings';
import type { McpServerConfig } from './mcp';
import { isMaskedSecret, maskSecret, secretFingerprint } from './mcp-values';

/** The fields of an entry whose values are secrets. */
export const SECRET_FIELDS = ['env', 'headers'] as const;

type Servers = Record<string, McpServerConfig>;

/** The settings as a client may see them: every env value and header masked. */
export function withMaskedMcpSecrets(settings: Settings): Settings {
  const servers = settings.mcp.servers;
  const masked: Servers = {};
  for (const [name, config] of Object.entries(servers)) masked[name] = mapSecrets(config, maskSecret);
  return { ...settings, mcp: { ...settings.mcp, servers: masked } };
}

/** An entry with `change` applied to each of its secrets. */
export function mapSecrets<C extends McpServerConfig>(config: C, change: (value: string, key: string) => string): C {
  const out: Record<string, unknown> = { ...config };
  for (const field of SECRET_FIELDS) {
    const map = (config as Record<string, unknown>)[field] as Record<string, string> | undefined;
    if (!map) continue;
    out[field] = Object.fromEntries(Object.entries(map).map(([key, value]) => [key, change(value, key)]));
  }
  return out as C;
}

/**
 * A settings patch from a client with each masked secret put back to the value it masks: the one
 * of the same server and name, else (a renamed server) of any server. A masked value that matches
 * no stored secret is refused — it would otherwise become the secret itself.
 */
export function unmaskMcpPatch(
  patch: unknown,
  current: Servers,
): { ok: true; patch: unknown } | { ok: false; error: string } {
  const servers = (patch as { mcp?: { servers?: unknown } } | null)?.mcp?.servers;
  if (typeof servers !== 'object' || servers === null) return { ok: true, patch };
  const fixed: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(servers)) {
    if (typeof entry !== 'object' || entry === null) {
      fixed[name] = entry;
      continue;
    }
    const out: Record<string, unknown> = { ...entry };
    for (const field of SECRET_FIELDS) {
      const map = (entry as Record<string, unknown>)[field];
      if (typeof map !== 'object' || map === null) continue;
      const values: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(map)) {
        if (typeof value !== 'string' || !isMaskedSecret(value)) {
          values[key] = value;
          continue;
        }
        const stored = storedSecret(current, name, field, key, secretFingerprint(value));
        if (stored === undefined)
          return {
            ok: false,
            error: `mcp.servers.${name}.${field}.${key}: a masked value that matches no stored one; type the value itself`,
          };
        values[key] = stored;
      }
      out[field] = values;
    }
    fixed[name] = out;
  }
  const mcp = (patch as { mcp: Record<string, unknown> }).mcp;
  return { ok: true, patch: { ...(patch as object), mcp: { ...mcp, servers: fixed } } };
}

function storedSecret(current: Servers, name: string, field: string, key: string, fingerprint: string) {
  const read = (config: McpServerConfig | undefined) =>
    ((config as Record<string, unknown> | undefined)?.[field] as Record<string, string> | undefined)?.[key];
  const matches = (value: string | undefined) => value !== undefined && secretFingerprint(value) === fingerprint;
  const own = read(current[name]);
  if (matches(own)) return own;
  return Object.values(current).map(read).find(matches);
}

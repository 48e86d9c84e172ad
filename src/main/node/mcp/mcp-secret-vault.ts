// MCP servers' secrets kept like API keys (docs/mcp.md, "Secrets"): each `env` value and HTTP
// header of `mcp.servers` is sealed with the credential store's cipher into <dataDir>/mcp-secrets.json
// (mode 0600), and settings.json holds only a reference in its place. FileSettingsStore calls
// `open` on the file's text as read (references filled in, plain values of an older version taken
// to be moved) and `seal` on what it is about to write.
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Settings } from '../../../shared/settings';
import { SECRET_FIELDS, mapSecrets } from '../../../shared/mcp-secrets';
import type { McpServerConfig } from '../../../shared/mcp';
import type { SecretCipher } from '../credential-store';
import { PRIVATE_FILE_MODE, setAside, tighten, writeFileAtomic } from '../safe-files';

/** What settings.json holds in place of a secret. */
export const SECRET_REFERENCE = '(kept in the credential store)';

const storedSchema = z.record(z.string(), z.record(z.string(), z.string()));
/** Sealed values by server, then by `env.NAME` / `headers.Name`. */
type Stored = z.infer<typeof storedSchema>;

export interface OpenedSecrets {
  /** Plain values were found: the file should be written again, without them. */
  migrate: boolean;
  /** References whose value is gone (the secrets file lost or its key replaced), as `server.env.NAME`. */
  missing: string[];
}

export class McpSecretVault {
  private stored: Stored = {};

  constructor(
    private readonly path: string,
    private readonly cipher: SecretCipher,
  ) {
    if (!existsSync(path)) return;
    tighten(path, PRIVATE_FILE_MODE);
    try {
      this.stored = storedSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
    } catch {
      // Kept for the person to look at; its references are reported missing by `open`.
      setAside(path, 'unreadable');
    }
  }

  /** Fill in the references of a settings file's `mcp.servers` (as parsed JSON, in place). */
  open(raw: unknown): OpenedSecrets {
    const result: OpenedSecrets = { migrate: false, missing: [] };
    for (const [name, entry] of Object.entries(serversOf(raw))) {
      for (const field of SECRET_FIELDS) {
        const map = entry[field];
        if (!isRecord(map)) continue;
        for (const [key, value] of Object.entries(map)) {
          if (value !== SECRET_REFERENCE) {
            if (typeof value === 'string') result.migrate = true;
            continue;
          }
          const plain = this.unseal(this.stored[name]?.[`${field}.${key}`]);
          if (plain === undefined) {
            result.missing.push(`${name}.${field}.${key}`);
            delete map[key];
          } else map[key] = plain;
        }
      }
    }
    return result;
  }

  /** The settings to write, secrets replaced by references; the secrets file written first when it changes. */
  seal(settings: Settings): Settings {
    const next: Stored = {};
    const servers: Record<string, McpServerConfig> = {};
    for (const [name, config] of Object.entries(settings.mcp.servers)) {
      servers[name] = mapSecrets(config, (value, key) => {
        const field = 'url' in config ? 'headers' : 'env';
        const slot = `${field}.${key}`;
        const kept = this.stored[name]?.[slot];
        // An unchanged value keeps its sealed text: the file is not rewritten for nothing.
        (next[name] ??= {})[slot] =
          kept !== undefined && this.unseal(kept) === value ? kept : this.cipher.encrypt(value);
        return SECRET_REFERENCE;
      });
    }
    if (JSON.stringify(next) !== JSON.stringify(this.stored)) {
      writeFileAtomic(this.path, JSON.stringify(next, null, 2));
      tighten(this.path, PRIVATE_FILE_MODE);
      this.stored = next;
    }
    return { ...settings, mcp: { ...settings.mcp, servers } };
  }

  private unseal(sealed: string | undefined): string | undefined {
    if (sealed === undefined) return undefined;
    try {
      return this.cipher.decrypt(sealed);
    } catch {
      return undefined;
    }
  }
}

function serversOf(raw: unknown): Record<string, Record<string, unknown>> {
  const servers = isRecord(raw) && isRecord(raw.mcp) ? raw.mcp.servers : undefined;
  if (!isRecord(servers)) return {};
  return Object.fromEntries(
    Object.entries(servers).filter((pair): pair is [string, Record<string, unknown>] => isRecord(pair[1])),
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

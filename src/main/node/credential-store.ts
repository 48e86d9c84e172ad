// API keys per provider (several each), stored encrypted in <dataDir>/credentials.json, plus the
// usage-limit bookkeeping of the retry lifecycle's step 5 (docs/retry-policy.md):
// markUsageLimitReached blocks the key in use — for the model that hit the limit, or for every
// model — until it frees up and switches to the next usable one. Keys never leave the main process: the renderer only ever sees masked hints. The cipher is
// passed in (Electron: safeStorage).
import { createCipheriv, createDecipheriv, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Credential, CredentialStore, UsageLimitResult } from '../core/ports';
import type { ProviderKeyHint } from '../../shared/contract';

export interface SecretCipher {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

/** AES-256-GCM with a random key kept beside the data (mode 0600): keys are not stored in the clear. */
export function fileKeyCipher(dataDir: string): SecretCipher {
  const keyPath = join(dataDir, '.credentials.key');
  mkdirSync(dataDir, { recursive: true });
  if (!existsSync(keyPath)) writeFileSync(keyPath, randomBytes(32).toString('base64'), { mode: 0o600 });
  const key = Buffer.from(readFileSync(keyPath, 'utf8').trim(), 'base64');
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64')).join('.');
    },
    decrypt(sealed) {
      const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64'));
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    },
  };
}

interface StoredKey {
  id: string;
  sealed: string;
}

interface LiveKey extends Credential {
  source: 'stored' | 'run' | 'env' | 'builtin';
}

export interface CredentialVaultOptions {
  path: string;
  cipher: SecretCipher;
  /** A key from the environment (pi-ai's getEnvApiKey), used after the stored ones. */
  envKey?: (provider: string) => string | undefined;
  /** Keys that exist without configuration (the simulator's). */
  builtin?: Record<string, string>;
  /** `--api-key`: used first for this run, never written. */
  runKey?: { provider: string; apiKey: string };
  /** How long a usage-limited key is blocked when the provider gave no hint, ms. Default 60000. */
  defaultBlockMs?: number;
  now?: () => number;
}

export class CredentialVault implements CredentialStore {
  private stored: Record<string, StoredKey[]> = {};
  private readonly blockedUntil = new Map<string, number>();
  private readonly current = new Map<string, string>();
  readonly loadProblem: string | null = null;

  constructor(private readonly options: CredentialVaultOptions) {
    try {
      if (existsSync(options.path))
        this.stored = JSON.parse(readFileSync(options.path, 'utf8')) as Record<string, StoredKey[]>;
    } catch (error) {
      this.loadProblem = `The credentials file ${options.path} could not be read (${String(error)}); no stored keys are in use.`;
    }
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private keys(provider: string): LiveKey[] {
    const out: LiveKey[] = [];
    const run = this.options.runKey;
    if (run && run.provider === provider) out.push({ id: 'run', apiKey: run.apiKey, source: 'run' });
    for (const key of this.stored[provider] ?? []) {
      try {
        out.push({ id: key.id, apiKey: this.options.cipher.decrypt(key.sealed), source: 'stored' });
      } catch {
        // A key sealed with another machine's key cannot be opened: skip it rather than fail.
      }
    }
    const env = this.options.envKey?.(provider);
    if (env) out.push({ id: 'env', apiKey: env, source: 'env' });
    // A built-in key (the simulator's, a local server's placeholder) stands in only while the person
    // has configured none: it is never a credential to switch to, so a usage limit can never send
    // the next requests out without the person's key.
    const builtin = this.options.builtin?.[provider];
    if (builtin && out.length === 0) out.push({ id: 'builtin', apiKey: builtin, source: 'builtin' });
    return out;
  }

  /** A key of this provider that no usage limit blocks for this model (the fallback list asks). */
  hasUsableKey(provider: string, model: string): boolean {
    return this.keys(provider).some((key) => !this.isBlocked(provider, key.id, model));
  }

  hints(provider: string): ProviderKeyHint[] {
    return this.keys(provider).map((key) => ({
      id: key.id,
      hint:
        key.source === 'env'
          ? `${mask(key.apiKey)} (environment)`
          : key.source === 'builtin'
            ? 'built-in'
            : mask(key.apiKey),
      blockedUntil: this.blockedAt(provider, key.id),
      removable: key.source === 'stored',
    }));
  }

  hasEnvKey(provider: string): boolean {
    return Boolean(this.options.envKey?.(provider));
  }

  add(provider: string, apiKey: string): void {
    const list = this.stored[provider] ?? [];
    list.push({ id: randomUUID(), sealed: this.options.cipher.encrypt(apiKey) });
    this.stored[provider] = list;
    this.save();
  }

  remove(provider: string, keyId: string): boolean {
    const list = this.stored[provider] ?? [];
    const next = list.filter((key) => key.id !== keyId);
    if (next.length === list.length) return false;
    this.stored[provider] = next;
    this.save();
    return true;
  }

  activeCredential(provider: string, _sessionId?: string, model?: string): Credential | undefined {
    const keys = this.keys(provider);
    if (keys.length === 0) return undefined;
    const free = (key: LiveKey) => !this.isBlocked(provider, key.id, model);
    const sticky = keys.find((key) => key.id === this.current.get(provider) && free(key));
    const usable = sticky ?? keys.find(free);
    // All blocked: use the one that frees first rather than none (the provider will say so).
    const chosen =
      usable ??
      [...keys].sort((a, b) => this.blockedAt(provider, a.id, model)! - this.blockedAt(provider, b.id, model)!)[0];
    this.current.set(provider, chosen.id);
    return { id: chosen.id, apiKey: chosen.apiKey };
  }

  markUsageLimitReached(
    provider: string,
    _sessionId: string,
    options: { retryAfterMs?: number; model?: string },
  ): UsageLimitResult {
    const keys = this.keys(provider);
    const model = options.model;
    const active = this.activeCredential(provider, undefined, model);
    if (!active) return { switched: false, earliestFreeAt: null };
    const until = this.now() + (options.retryAfterMs ?? this.options.defaultBlockMs ?? 60_000);
    this.blockedUntil.set(blockKey(provider, active.id, model), until);
    const next = keys.find((key) => key.id !== active.id && !this.isBlocked(provider, key.id, model));
    if (next) {
      this.current.set(provider, next.id);
      return { switched: true, earliestFreeAt: null };
    }
    const frees = keys.map((key) => this.blockedAt(provider, key.id, model) ?? this.now());
    return { switched: false, earliestFreeAt: Math.min(...frees) };
  }

  /** Until when a key is blocked for `model` (a block for every model counts too); absent model: any block. */
  private blockedAt(provider: string, keyId: string, model?: string): number | null {
    const prefix = blockKey(provider, keyId, '');
    let latest: number | null = null;
    for (const [key, until] of this.blockedUntil) {
      if (!key.startsWith(prefix) || until <= this.now()) continue;
      const blockedModel = key.slice(prefix.length);
      if (model !== undefined && blockedModel !== ALL_MODELS && blockedModel !== model) continue;
      latest = Math.max(latest ?? 0, until);
    }
    return latest;
  }

  private isBlocked(provider: string, keyId: string, model?: string): boolean {
    return this.blockedAt(provider, keyId, model ?? ALL_MODELS) !== null;
  }

  private save(): void {
    mkdirSync(dirname(this.options.path), { recursive: true });
    const tmp = `${this.options.path}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.stored, null, 2), { mode: 0o600 });
    renameSync(tmp, this.options.path);
  }
}

const ALL_MODELS = '*';

function blockKey(provider: string, keyId: string, model: string | undefined): string {
  return `${provider}\u0000${keyId}\u0000${model ?? ALL_MODELS}`;
}

/** "sk-…a1b2": enough to tell keys apart, never enough to use one. */
export function mask(key: string): string {
  if (key.length <= 8) return '…' + key.slice(-2);
  return `${key.slice(0, 3)}…${key.slice(-4)}`;
}

// API keys per provider (several each), stored encrypted in <dataDir>/credentials.json, plus the
// usage-limit bookkeeping of the retry lifecycle's step 5 (docs/retry-policy.md):
// markUsageLimitReached blocks the key in use — for the model that hit the limit, or for every
// model — until it frees up and switches to the next usable one. Keys never leave the main process:
// the renderer only ever sees masked hints. The cipher is passed in (Electron: safeStorage). A file
// that cannot be read is set aside, never overwritten; keys that cannot be decrypted stay in the
// file, unused, and the person is told (loadProblem).
import { createCipheriv, createDecipheriv, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Credential, CredentialStore, UsageLimitResult } from '../core/ports';
import { z } from 'zod';
import type { KeySource, ProviderKeyHint } from '../../shared/contract';
import { describeZodError } from '../../shared/settings';
import { codedNotice } from '../../shared/notices';
import { type NoticeText } from '../../shared/notice-params';
import { createFileOnce, PRIVATE_FILE_MODE, setAside, tighten, writeFileAtomic } from './safe-files';
import { errorText } from '../../shared/text';

export interface SecretCipher {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
  /** What the person should know about where keys are sealed (shown at start), e.g. no OS keychain. */
  note?: NoticeText;
}

const KEY_BYTES = 32;
/** The key file of fileKeyCipher, in the data folder. */
export const KEY_FILE_NAME = '.credentials.key';

const readKey = (path: string): Buffer => Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');

/** AES-256-GCM with a random key kept beside the data (mode 0600): keys are not stored in the clear. */
export function fileKeyCipher(dataDir: string): SecretCipher {
  const keyPath = join(dataDir, KEY_FILE_NAME);
  // Never over an existing key: every key sealed with it would become unreadable.
  createFileOnce(keyPath, randomBytes(KEY_BYTES).toString('base64'));
  // One left readable by others (copied, restored, an older version) is made the owner's again.
  tighten(keyPath, PRIVATE_FILE_MODE);
  let key = readKey(keyPath);
  if (key.length !== KEY_BYTES) {
    // Not a key at all: keep it for the person to look at, and seal new keys with a new one.
    setAside(keyPath, 'invalid');
    createFileOnce(keyPath, randomBytes(KEY_BYTES).toString('base64'));
    key = readKey(keyPath);
  }
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

const storedKeysSchema = z.record(z.string(), z.array(z.object({ id: z.string(), sealed: z.string() })));
type StoredKeys = z.infer<typeof storedKeysSchema>;

interface LiveKey extends Credential {
  source: KeySource;
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
  private stored: StoredKeys = {};
  private readonly blockedUntil = new Map<string, number>();
  private readonly current = new Map<string, string>();
  /** Why stored keys are (partly) not in use, for a notice at start; null when all is well. */
  readonly loadProblem: NoticeText | null = null;

  constructor(private readonly options: CredentialVaultOptions) {
    if (!existsSync(options.path)) return;
    tighten(options.path, PRIVATE_FILE_MODE);
    const read = readStoredKeys(options.path);
    if ('problem' in read) {
      this.loadProblem = read.problem;
      return;
    }
    this.stored = read.stored;
    this.loadProblem = this.undecryptableProblem();
  }

  /** Keys that no longer open (the key file was lost or replaced) are kept as they are, and named. */
  private undecryptableProblem(): NoticeText | null {
    const lost = Object.entries(this.stored).flatMap(([provider, keys]) =>
      keys.filter((key) => !this.opens(key.sealed)).map(() => provider),
    );
    if (lost.length === 0) return null;
    const providers = [...new Set(lost)].join(', ');
    const { path } = this.options;
    const message =
      `${lost.length} stored API key${lost.length === 1 ? '' : 's'} (${providers}) could not be decrypted: the key file ` +
      `.credentials.key is missing or was replaced, or they were sealed by the desktop app's keychain. They stay in ` +
      `${path}, unused; restore that key file, or add the keys again.`;
    return codedNotice('credentials_undecryptable', { count: lost.length, providers, path }, message);
  }

  private opens(sealed: string): boolean {
    try {
      this.options.cipher.decrypt(sealed);
      return true;
    } catch {
      return false;
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
    if (env) out.push({ id: 'env', apiKey: env, source: 'environment' });
    // A built-in key (the simulator's, a local server's placeholder) stands in only while the person
    // has configured none: it is never a credential to switch to, so a usage limit can never send
    // the next requests out without the person's key.
    const builtin = this.options.builtin?.[provider];
    if (builtin && out.length === 0) out.push({ id: 'builtin', apiKey: builtin, source: 'built-in' });
    return out;
  }

  /** A key of this provider that no usage limit blocks for this model (the fallback list asks). */
  hasUsableKey(provider: string, model: string): boolean {
    return this.keys(provider).some((key) => !this.isBlocked(provider, key.id, model));
  }

  hints(provider: string): ProviderKeyHint[] {
    return this.keys(provider).map((key) => ({
      id: key.id,
      source: key.source,
      // The words around it ("environment", "built-in") are the window's, in the person's language.
      hint: key.source === 'built-in' ? null : mask(key.apiKey),
      blockedUntil: this.blockedAt(provider, key.id),
      removable: key.source === 'stored',
    }));
  }

  /** Every key this vault can hand out for these providers (not the built-in ones): what must never be shown. */
  secrets(providers: readonly string[]): string[] {
    return providers.flatMap((provider) =>
      this.keys(provider)
        .filter((key) => key.source !== 'built-in')
        .map((key) => key.apiKey),
    );
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
    writeFileAtomic(this.options.path, JSON.stringify(this.stored, null, 2));
  }
}

/** The stored keys, or — for a file that is not JSON of the right shape — the file set aside and why. */
function readStoredKeys(path: string): { stored: StoredKeys } | { problem: NoticeText } {
  let detail: string;
  try {
    const parsed = storedKeysSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    if (parsed.success) return { stored: parsed.data };
    detail = describeZodError(parsed.error);
  } catch (error) {
    detail = errorText(error);
  }
  const aside = setAside(path, 'unreadable');
  const message =
    `The credentials file could not be read (${detail}); it was kept as ${aside} and a new one is started. ` +
    'Stored API keys are not in use: add them again in Settings → Provider.';
  return { problem: codedNotice('credentials_unreadable', { detail, aside }, message) };
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

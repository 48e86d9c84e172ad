// The providers domain: the provider list Settings shows (keys as hints, models, context windows),
// adding and removing a key, and Test connection — one minimal request through the session's own
// guarded stream, classified, nothing stored. Built by the composition root (app-services.ts).
import type { StreamFn } from '@mariozechner/pi-agent-core';
import type { CommandHandlers, ConnectionTestResult, ProviderInfo } from '../../../shared/contract';
import { PROVIDER_IDS, PROVIDER_LABELS, type ProviderId } from '../../../shared/settings-values';
import { loadPiRuntime } from '../../core/llm/pi-runtime';
import type { SettingsStore } from '../../core/ports';
import { testConnection } from '../connection-test';
import type { CredentialVault } from '../credential-store';
import type { LocalServerProbe } from '../local-server';
import {
  BUILTIN_KEYS,
  compatibleUrl,
  contextWindowsFor,
  defaultModelFor,
  modelDetailsFor,
  modelsFor,
  resolveModel,
} from '../providers';

export interface ProviderDomainParts {
  settings: SettingsStore;
  credentials: CredentialVault;
  /** The built-in simulator's URL, when it runs. */
  simulatorUrl: string | null;
  /** The guarded stream of the session's agent. */
  streamFn: StreamFn;
  /** What OpenAI-compatible servers say of their models (their windows, their model lists). */
  servers: LocalServerProbe;
  /** Settles when the settings changes asked for before have applied (SettingsDomain.settled). */
  settingsSettled: () => Promise<void>;
}

export class ProviderDomain {
  constructor(private readonly parts: ProviderDomainParts) {}

  readonly commands = {
    'providers.list': () => this.list(),
    'providers.addKey': ({ provider, apiKey }) => this.addKey(provider, apiKey),
    'providers.removeKey': ({ provider, keyId }) => this.removeKey(provider, keyId),
    'providers.test': () => this.testConnection(),
  } satisfies Pick<CommandHandlers, Extract<keyof CommandHandlers, `providers.${string}`>>;

  /** The provider list needs pi-ai's catalogue, its environment-key lookup, and a local server's list. */
  async list(): Promise<ProviderInfo[]> {
    const provider = this.parts.settings.get().provider;
    const server = provider.id === 'openai-compatible' ? this.parts.servers.probe(this.serverUrl()) : undefined;
    await Promise.all([loadPiRuntime(), server]);
    return PROVIDER_IDS.map((id) => this.info(id));
  }

  private serverUrl(): string {
    return compatibleUrl(this.parts.settings.get().provider);
  }

  async addKey(provider: ProviderId, apiKey: string): Promise<ProviderInfo> {
    await loadPiRuntime();
    this.parts.credentials.add(provider, apiKey);
    return this.info(provider);
  }

  async removeKey(provider: ProviderId, keyId: string): Promise<ProviderInfo> {
    await loadPiRuntime();
    this.parts.credentials.remove(provider, keyId);
    return this.info(provider);
  }

  /** One minimal request with the current provider settings, classified; nothing is stored. */
  async testConnection(): Promise<ConnectionTestResult> {
    await this.parts.settingsSettled();
    const { settings, credentials, simulatorUrl, streamFn } = this.parts;
    const provider = settings.get().provider;
    const unsent = {
      ok: false,
      provider: provider.id,
      model: provider.model,
      latencyMs: 0,
      category: null,
      message: '',
    };
    // What the request cannot go without is said as such, not as the SDK's error text.
    if (provider.id === 'openai-compatible' && !provider.baseUrl.trim()) return { ...unsent, missing: 'base_url' };
    // A real provider's model comes from pi-ai's catalogue.
    await loadPiRuntime();
    // A local server is asked which models it has: the result names them.
    const { servers } = this.parts;
    const listed = provider.id === 'openai-compatible' ? await servers.probe(this.serverUrl(), provider.model) : null;
    const serverFacts = listed ? servers.facts(this.serverUrl(), provider.model) : undefined;
    // The first choice as Settings shows it, not a fallback a usage limit switched the session to.
    const { model } = resolveModel(provider, simulatorUrl, serverFacts);
    const apiKey = credentials.activeCredential(model.provider, undefined, model.id)?.apiKey;
    if (!apiKey && !(model.provider in BUILTIN_KEYS)) return { ...unsent, missing: 'key' };
    const result = await testConnection({ streamFn, model, apiKey, now: () => Date.now() });
    return listed && !listed.error ? { ...result, serverModels: listed.models.map((m) => m.id) } : result;
  }

  private info(id: ProviderId): ProviderInfo {
    const { credentials, servers } = this.parts;
    // An OpenAI-compatible server's models are the ones it lists (asked by list()).
    const listed = id === 'openai-compatible' ? servers.models(this.serverUrl())?.models : undefined;
    return {
      id,
      label: PROVIDER_LABELS[id],
      keys: credentials.hints(id),
      hasEnvKey: credentials.hasEnvKey(id),
      models: listed ? listed.map((m) => m.id) : modelsFor(id),
      contextWindows: listed
        ? Object.fromEntries(listed.flatMap((m) => (m.contextWindow ? [[m.id, m.contextWindow]] : [])))
        : contextWindowsFor(id),
      modelDetails: listed ? [] : modelDetailsFor(id),
      defaultModel: defaultModelFor(id),
      takesKeys: id !== 'simulator',
    };
  }
}

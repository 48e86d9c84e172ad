// Which model the agent talks to: the built-in simulator (the default), a real provider known to
// pi-ai (Anthropic, OpenAI, Google, OpenRouter) or any OpenAI-compatible base URL (Ollama,
// LM Studio, vLLM). Used by the composition root whenever the provider settings change. The real
// providers' models come from pi-ai's catalogue, so those lookups need pi-ai loaded (pi-runtime.ts).
import type { Api, KnownProvider, Model } from '@mariozechner/pi-ai';
import { piRuntime } from '../core/pi-runtime';
import type { ModelInfo } from '../../shared/events';
import { SIMULATOR_MODEL_ID, type ProviderId, type Settings } from '../../shared/settings';

export const PROVIDER_LABELS: Record<ProviderId, string> = {
  simulator: 'Simulator (built in)',
  anthropic: 'Anthropic',
  openai: 'OpenAI',
  google: 'Google',
  openrouter: 'OpenRouter',
  'openai-compatible': 'OpenAI-compatible server',
};

/** Keys that exist without configuration: the simulator needs none, local servers rarely do. */
export const BUILTIN_KEYS: Record<string, string> = {
  simulator: 'resolute-simulator-key',
  'openai-compatible': 'not-needed',
};

const ZERO_COST = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

export interface ResolvedModel {
  model: Model<Api>;
  info: ModelInfo;
}

function openAiCompatible(provider: string, id: string, name: string, baseUrl: string): Model<Api> {
  return {
    id,
    name,
    api: 'openai-completions',
    provider,
    baseUrl,
    reasoning: false,
    input: ['text'],
    cost: ZERO_COST,
    contextWindow: 8192,
    maxTokens: 1024,
  };
}

/** The simulator and an OpenAI-compatible server need no catalogue; the real providers do. */
export function needsCatalogue(provider: ProviderId): boolean {
  return provider !== 'simulator' && provider !== 'openai-compatible';
}

/** What events, history and the window show of the model: no catalogue needed. */
export function describeModel(provider: Settings['provider']): ModelInfo {
  if (provider.id === 'simulator')
    return { provider: 'simulator', id: provider.model || SIMULATOR_MODEL_ID, label: 'Simulator', isSimulator: true };
  if (provider.id === 'openai-compatible') {
    const label = `${provider.model} @ ${compatibleUrl(provider)}`;
    return { provider: 'openai-compatible', id: provider.model, label, isSimulator: false };
  }
  const label = `${PROVIDER_LABELS[provider.id]} · ${provider.model}`;
  return { provider: provider.id, id: provider.model, label, isSimulator: false };
}

function compatibleUrl(provider: Settings['provider']): string {
  return provider.baseUrl || 'http://127.0.0.1:11434/v1';
}

/**
 * Resolve the provider settings to a pi-ai model. `simulatorUrl` is the running simulator's /v1
 * URL. A real provider's model comes from the catalogue: pi-ai must be loaded (needsCatalogue).
 */
export function resolveModel(provider: Settings['provider'], simulatorUrl: string | null): ResolvedModel {
  const info = describeModel(provider);
  if (provider.id === 'simulator') {
    const url = simulatorUrl ?? 'http://127.0.0.1:9/v1';
    return { model: openAiCompatible('simulator', info.id, 'Resolute simulator', url), info };
  }
  if (provider.id === 'openai-compatible')
    return { model: openAiCompatible('openai-compatible', info.id, info.id, compatibleUrl(provider)), info };
  const known = catalogue(provider.id);
  // An id pi-ai does not list yet still works: borrow the provider's API and limits from a sibling.
  const model: Model<Api> = known.find((m) => m.id === provider.model) ?? {
    ...(known[0] as Model<Api>),
    id: provider.model,
    name: provider.model,
  };
  return { model, info };
}

function catalogue(provider: ProviderId): Model<Api>[] {
  return piRuntime().piAi.getModels(provider as KnownProvider) as Model<Api>[];
}

export function modelsFor(provider: ProviderId): string[] {
  if (provider === 'simulator') return [SIMULATOR_MODEL_ID];
  if (provider === 'openai-compatible') return [];
  return catalogue(provider).map((m) => m.id);
}

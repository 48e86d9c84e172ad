// Which model the agent talks to: the built-in simulator (the default), a real provider known to
// pi-ai (Anthropic, OpenAI, Google, OpenRouter), optionally through a base URL of the person's
// (a proxy, a gateway such as LiteLLM, a test server), or any OpenAI-compatible base URL (Ollama,
// LM Studio, vLLM). Used by the composition root whenever the provider settings change.
import { getModels, type Api, type KnownProvider, type Model } from '@mariozechner/pi-ai';
import type { ModelInfo } from '../../shared/events';
import { SIMULATOR_MODEL_ID, type BaseUrlProvider, type ProviderId, type Settings } from '../../shared/settings';

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

/** Resolve the provider settings to a pi-ai model. `simulatorUrl` is the running simulator's /v1 URL. */
export function resolveModel(provider: Settings['provider'], simulatorUrl: string | null): ResolvedModel {
  if (provider.id === 'simulator') {
    const model = openAiCompatible(
      'simulator',
      provider.model || SIMULATOR_MODEL_ID,
      'Resolute simulator',
      simulatorUrl ?? 'http://127.0.0.1:9/v1',
    );
    return { model, info: { provider: 'simulator', id: model.id, label: 'Simulator', isSimulator: true } };
  }
  if (provider.id === 'openai-compatible') {
    const model = openAiCompatible(
      'openai-compatible',
      provider.model,
      provider.model,
      provider.baseUrl || 'http://127.0.0.1:11434/v1',
    );
    return {
      model,
      info: {
        provider: 'openai-compatible',
        id: model.id,
        label: `${model.id} @ ${model.baseUrl}`,
        isSimulator: false,
      },
    };
  }
  const known = getModels(provider.id as KnownProvider) as Model<Api>[];
  const exact = known.find((m) => m.id === provider.model);
  // An id pi-ai does not list yet still works: borrow the provider's API and limits from a sibling.
  const listed: Model<Api> = exact ?? { ...(known[0] as Model<Api>), id: provider.model, name: provider.model };
  const override = provider.baseUrls?.[provider.id as BaseUrlProvider]?.replace(/\/+$/, '');
  const model = override ? { ...listed, baseUrl: override } : listed;
  return {
    model,
    info: {
      provider: provider.id,
      id: model.id,
      label: `${PROVIDER_LABELS[provider.id]} · ${model.id}${override ? ` @ ${override}` : ''}`,
      isSimulator: false,
    },
  };
}

export function modelsFor(provider: ProviderId): string[] {
  if (provider === 'simulator') return [SIMULATOR_MODEL_ID];
  if (provider === 'openai-compatible') return [];
  return (getModels(provider as KnownProvider) as Model<Api>[]).map((m) => m.id);
}

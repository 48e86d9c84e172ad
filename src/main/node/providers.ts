// Which model the agent talks to: the built-in simulator (the default), a real provider known to
// pi-ai (Anthropic, OpenAI, Google, OpenRouter), optionally through a base URL of the person's
// (a proxy, a gateway such as LiteLLM, a test server), or any OpenAI-compatible base URL (Ollama,
// LM Studio, vLLM). Used by the composition root whenever the provider settings change.
import { getModels, type Api, type KnownProvider, type Model } from '@mariozechner/pi-ai';
import type { ModelInfo } from '../../shared/events';
import {
  PROVIDER_IDS,
  SIMULATOR_MODEL_ID,
  SIMULATOR_MODEL_IDS,
  type BaseUrlProvider,
  type ModelRef,
  type ProviderId,
  type Settings,
} from '../../shared/settings';
import type { ModelPrice } from '../core/attempt-cost';

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

/** The settings of a provider/model pair of the fallback list: the first choice's, with this pair. */
export function resolveRef(ref: ModelRef, provider: Settings['provider'], simulatorUrl: string | null): ResolvedModel {
  return resolveModel({ ...provider, id: ref.provider, model: ref.model }, simulatorUrl);
}

/**
 * A model's list price from pi-ai's registry (USD per million tokens), or null when it is not
 * known: the simulator, an OpenAI-compatible server, an id the registry does not list.
 */
export function modelPrice(provider: string, modelId: string): ModelPrice | null {
  if (!(PROVIDER_IDS as readonly string[]).includes(provider)) return null;
  if (provider === 'simulator' || provider === 'openai-compatible') return null;
  const known = (getModels(provider as KnownProvider) as Model<Api>[]).find((m) => m.id === modelId);
  return known ? { ...known.cost } : null;
}

/** A fallback entry's model must be one its provider offers (any id for an OpenAI-compatible server). */
export function checkFallbackModels(fallback: readonly ModelRef[]): string | null {
  for (const [i, ref] of fallback.entries()) {
    const offered = modelsFor(ref.provider);
    if (offered.length > 0 && !offered.includes(ref.model))
      return `providers.fallback.${i}.model: ${PROVIDER_LABELS[ref.provider]} does not offer "${ref.model}"`;
  }
  return null;
}

export function modelsFor(provider: ProviderId): string[] {
  if (provider === 'simulator') return [...SIMULATOR_MODEL_IDS];
  if (provider === 'openai-compatible') return [];
  return (getModels(provider as KnownProvider) as Model<Api>[]).map((m) => m.id);
}

/** The model a provider starts on when it is chosen (Settings, `--provider` without `--model`). */
export function defaultModelFor(provider: ProviderId): string {
  return modelsFor(provider)[0] ?? 'default';
}

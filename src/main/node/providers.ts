// Which model the agent talks to: the built-in simulator (the default), a real provider known to
// pi-ai (Anthropic, OpenAI, Google, OpenRouter), optionally through a base URL of the person's
// (a proxy, a gateway such as LiteLLM, a test server), or any OpenAI-compatible base URL (Ollama,
// LM Studio, vLLM; its limits from the server or the person's per-model settings). Used by the
// composition root whenever the provider settings change. The real providers' models and prices
// come from pi-ai's catalogue, so those lookups need pi-ai loaded (core/llm/pi-runtime.ts); what the window
// shows of a model (describeModel) does not.
import type { Api, KnownProvider, Model } from '@mariozechner/pi-ai';
import { piRuntime } from '../core/llm/pi-runtime';
import type { ModelInfo } from '../../shared/events';
import { type ModelRef, type Settings } from '../../shared/settings';
import {
  PROVIDER_IDS,
  PROVIDER_LABELS,
  SIMULATOR_MODEL_ID,
  SIMULATOR_CONTEXT_WINDOWS,
  SIMULATOR_MODEL_IDS,
  SIMULATOR_TEXT_ONLY_MODELS,
  type BaseUrlProvider,
  type ProviderId,
} from '../../shared/settings-values';
import type { ModelPrice } from '../core/session/attempt-cost';
import { newestFirst, pickDefaultModel } from '../core/llm/model-ranking';
import type { ModelDetail } from '../../shared/contract';
import type { ServerModel } from './local-server';

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

/** The simulator's models: small, as the simulator's context-overflow faults expect. */
const SIMULATOR_LIMITS = { contextWindow: 8192, maxTokens: 1024 };
/**
 * A local server's model (Ollama, LM Studio, vLLM, llama.cpp): no output cap — pi-ai sends no
 * max-token field for 0, so the server's own limit applies instead of cutting replies at 1,024
 * tokens — and a window large enough that compaction does not fire at 8k on a 128k model; a
 * server that overflows says so, and that is classified as an overflow.
 */
const LOCAL_LIMITS = { contextWindow: 131_072, maxTokens: 0 };

function openAiCompatible(
  provider: string,
  id: string,
  name: string,
  baseUrl: string,
  limits: { contextWindow: number; maxTokens: number },
  input: ('text' | 'image')[],
): Model<Api> {
  return {
    id,
    name,
    api: 'openai-completions',
    provider,
    baseUrl,
    reasoning: false,
    input,
    cost: ZERO_COST,
    ...limits,
  };
}

/** The simulator and an OpenAI-compatible server need no catalogue; the real providers do. */
export function needsCatalogue(provider: ProviderId): boolean {
  return provider !== 'simulator' && provider !== 'openai-compatible';
}

/** What events, history and the window show of the model: no catalogue needed. */
export function describeModel(provider: Settings['provider']): ModelInfo {
  if (provider.id === 'simulator') {
    const id = provider.model || SIMULATOR_MODEL_ID;
    const acceptsImages = !SIMULATOR_TEXT_ONLY_MODELS.includes(id);
    return { provider: 'simulator', id, label: 'Simulator', isSimulator: true, acceptsImages };
  }
  if (provider.id === 'openai-compatible') {
    const label = `${provider.model} @ ${compatibleUrl(provider)}`;
    // A local server's model is taken to read images unless the person marked it text-only.
    const acceptsImages = !(provider.textOnlyModels ?? []).includes(provider.model);
    return { provider: 'openai-compatible', id: provider.model, label, isSimulator: false, acceptsImages };
  }
  const override = baseUrlOverride(provider);
  const label = `${PROVIDER_LABELS[provider.id]} · ${provider.model}${override ? ` @ ${override}` : ''}`;
  return { provider: provider.id, id: provider.model, label, isSimulator: false };
}

/** The OpenAI-compatible server's base URL (Ollama's when none is set). */
export function compatibleUrl(provider: Pick<Settings['provider'], 'baseUrl'>): string {
  return provider.baseUrl || 'http://127.0.0.1:11434/v1';
}

/**
 * An OpenAI-compatible server's model: the person's per-model settings first, then what the server
 * said (local-server.ts), then the defaults — no max-token field unless one is set, a 128k window.
 * Sent "system", not "developer", which local servers may not know.
 */
function localModel(provider: Settings['provider'], id: string, server: ServerFacts | undefined): Model<Api> {
  const own = provider.localModels[id] ?? {};
  const limits = {
    contextWindow: own.contextWindow ?? server?.contextWindow ?? LOCAL_LIMITS.contextWindow,
    maxTokens: own.maxTokens ?? LOCAL_LIMITS.maxTokens,
  };
  const model = openAiCompatible('openai-compatible', id, id, compatibleUrl(provider), limits, ['text']);
  // Taken to accept images unless the person marks it text-only (docs/attachments.md) or says, or
  // the server says, it does not.
  const textOnly = (provider.textOnlyModels ?? []).includes(id);
  const images = !textOnly && (own.images ?? server?.images ?? true);
  return {
    ...model,
    reasoning: own.reasoning ?? server?.reasoning ?? false,
    input: images ? ['text', 'image'] : ['text'],
    compat: { supportsDeveloperRole: false },
  };
}

/** What a server said of one of its models (local-server.ts' ServerModel without the id). */
export type ServerFacts = Omit<ServerModel, 'id'>;

/**
 * Resolve the provider settings to a pi-ai model. `simulatorUrl` is the running simulator's /v1
 * URL; `server` what an OpenAI-compatible server said of the model. A real provider's model
 * comes from the catalogue: pi-ai must be loaded (needsCatalogue).
 */
export function resolveModel(
  provider: Settings['provider'],
  simulatorUrl: string | null,
  server?: ServerFacts,
): ResolvedModel {
  const info = describeModel(provider);
  if (provider.id === 'simulator') {
    const url = simulatorUrl ?? 'http://127.0.0.1:9/v1';
    const input: Model<Api>['input'] = info.acceptsImages ? ['text', 'image'] : ['text'];
    const model = openAiCompatible('simulator', info.id, 'Resolute simulator', url, SIMULATOR_LIMITS, input);
    // It thinks on request, as a reasoning model does (its thinking is streamed as reasoning_content),
    // and keeps the "system" role a reasoning model would be sent as "developer".
    const thinking = { reasoning: true, compat: { supportsDeveloperRole: false } };
    const contextWindow = SIMULATOR_CONTEXT_WINDOWS[info.id] ?? model.contextWindow;
    return { model: { ...model, ...thinking, contextWindow }, info };
  }
  if (provider.id === 'openai-compatible') {
    const model = localModel(provider, info.id, server);
    return { model, info: { ...info, acceptsImages: model.input.includes('image') } };
  }
  const known = catalogue(provider.id);
  // An id pi-ai does not list yet still works: borrow the provider's API and limits from a sibling.
  const listed: Model<Api> = known.find((m) => m.id === provider.model) ?? {
    ...(known[0] as Model<Api>),
    id: provider.model,
    name: provider.model,
  };
  const override = baseUrlOverride(provider);
  const model = override ? { ...listed, baseUrl: override } : listed;
  return { model, info: { ...info, acceptsImages: model.input.includes('image') } };
}

/** The person's base URL for a real provider (Settings → Provider), without a trailing slash. */
function baseUrlOverride(provider: Settings['provider']): string | undefined {
  return provider.baseUrls?.[provider.id as BaseUrlProvider]?.replace(/\/+$/, '') || undefined;
}

/** A provider's catalogued models, newest first (OpenRouter's: newest first within each vendor). */
function catalogue(provider: ProviderId): Model<Api>[] {
  const models = piRuntime().piAi.getModels(provider as KnownProvider) as Model<Api>[];
  if (provider !== 'openrouter') return newestFirst(models);
  const vendors = new Map<string, Model<Api>[]>();
  for (const model of models) {
    const vendor = model.id.split('/')[0];
    vendors.set(vendor, [...(vendors.get(vendor) ?? []), model]);
  }
  return [...vendors.keys()].sort().flatMap((vendor) => newestFirst(vendors.get(vendor)!));
}

/** OpenRouter lists every vendor's models, whose versions do not compare: it starts on these vendors' lines, in order. */
const OPENROUTER_START_VENDORS = ['anthropic', 'openai', 'google'];

/** The settings of a provider/model pair of the fallback list: the first choice's, with this pair. */
export function resolveRef(
  ref: ModelRef,
  provider: Settings['provider'],
  simulatorUrl: string | null,
  server?: ServerFacts,
): ResolvedModel {
  return resolveModel({ ...provider, id: ref.provider, model: ref.model }, simulatorUrl, server);
}

/** What events, history and the window show of a provider/model pair: no catalogue needed. */
export function describeRef(ref: ModelRef, provider: Settings['provider']): ModelInfo {
  return describeModel({ ...provider, id: ref.provider, model: ref.model });
}

/**
 * A model's list price from pi-ai's registry (USD per million tokens), or null when it is not
 * known: the simulator, an OpenAI-compatible server, an id the registry does not list.
 */
export function modelPrice(provider: string, modelId: string): ModelPrice | null {
  if (!(PROVIDER_IDS as readonly string[]).includes(provider)) return null;
  if (provider === 'simulator' || provider === 'openai-compatible') return null;
  const known = catalogue(provider as ProviderId).find((m) => m.id === modelId);
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
  return catalogue(provider).map((m) => m.id);
}

/** Each model's context window, tokens, by id (none for an OpenAI-compatible server: it does not say). */
export function contextWindowsFor(provider: ProviderId): Record<string, number> {
  if (provider === 'simulator') return { ...SIMULATOR_CONTEXT_WINDOWS };
  if (provider === 'openai-compatible') return {};
  return Object.fromEntries(catalogue(provider).map((m) => [m.id, m.contextWindow]));
}

/** What the model picker shows of each model, newest first (none for an OpenAI-compatible server). */
export function modelDetailsFor(provider: ProviderId): ModelDetail[] {
  if (provider === 'simulator')
    return SIMULATOR_MODEL_IDS.map((id) => ({
      id,
      name: id,
      contextWindow: SIMULATOR_CONTEXT_WINDOWS[id] ?? SIMULATOR_LIMITS.contextWindow,
      price: { input: 0, output: 0 },
      images: false,
      reasoning: false,
    }));
  if (provider === 'openai-compatible') return [];
  return catalogue(provider).map((m) => ({
    id: m.id,
    name: m.name,
    contextWindow: m.contextWindow,
    // A price of 0 in the catalogue means it does not know one (or the model is free on that route).
    price: m.cost.input > 0 || m.cost.output > 0 ? { input: m.cost.input, output: m.cost.output } : null,
    images: m.input.includes('image'),
    reasoning: m.reasoning,
  }));
}

/**
 * The model a provider starts on when it is chosen (Settings, `--provider` without `--model`):
 * a current one that thinks and reads images, by recency and capability (model-ranking.ts).
 */
export function defaultModelFor(provider: ProviderId): string {
  if (!needsCatalogue(provider)) return modelsFor(provider)[0] ?? 'default';
  const models = catalogue(provider);
  if (provider === 'openrouter')
    for (const vendor of OPENROUTER_START_VENDORS) {
      const picked = pickDefaultModel(models.filter((m) => m.id.startsWith(`${vendor}/`)));
      if (picked) return picked;
    }
  return pickDefaultModel(models) ?? 'default';
}

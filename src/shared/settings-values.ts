// The settings' plain values — provider ids and names, languages, thinking levels, limits — and
// the merge of a patch, without the zod schema (settings.ts, which re-exports all of this): the
// window's first chunk imports these from here, so it does not load zod to start.
export const PROVIDER_IDS = ['simulator', 'anthropic', 'openai', 'google', 'openrouter', 'openai-compatible'] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

/** Each provider's English name: the RPC mode's and the logs' words, and the brands' names everywhere. */
export const PROVIDER_LABELS: Record<ProviderId, string> = {
  simulator: 'Simulator (built in)',
  anthropic: 'Anthropic',
  openai: 'OpenAI',
  google: 'Google',
  openrouter: 'OpenRouter',
  'openai-compatible': 'OpenAI-compatible server',
};

/** The model id the built-in simulator answers as: the default model, and what it lists first. */
export const SIMULATOR_MODEL_ID = 'resolute-sim-1';
/** The simulator's models: more than one, so a fallback list can be tried against it. */
export const SIMULATOR_MODEL_IDS = [SIMULATOR_MODEL_ID, 'resolute-sim-2', 'resolute-sim-3'] as const;
/** The simulator's models that read text only (the others take images), so that refusal can be tried. */
export const SIMULATOR_TEXT_ONLY_MODELS: readonly string[] = ['resolute-sim-2'];
/** Each simulator model's context window, tokens: sim-3's is larger, so an overflow has somewhere to go. */
export const SIMULATOR_CONTEXT_WINDOWS: Record<string, number> = {
  [SIMULATOR_MODEL_ID]: 8192,
  'resolute-sim-2': 8192,
  'resolute-sim-3': 200_000,
};

export const LANGUAGES = ['system', 'en', 'ja', 'ko'] as const;
export type LanguageSetting = (typeof LANGUAGES)[number];

/** Providers whose base URL can be overridden (the simulator's is its own; openai-compatible has `baseUrl`). */
export const BASE_URL_PROVIDERS = ['anthropic', 'openai', 'google', 'openrouter'] as const;
export type BaseUrlProvider = (typeof BASE_URL_PROVIDERS)[number];

/** The most fallback models a list may hold. */
export const MAX_FALLBACK_MODELS = 10;

export const THINKING_LEVELS = ['off', 'minimal', 'low', 'medium', 'high'] as const;
export type ThinkingLevelSetting = (typeof THINKING_LEVELS)[number];

/** The key a model's remembered thinking level is kept under in `agent.thinkingLevels`. */
export const thinkingKey = (provider: string, model: string): string => `${provider}/${model}`;

/** The level a model's requests use: the one remembered for it, else the last level chosen. */
export function rememberedThinkingLevel(
  agent: { thinkingLevel: ThinkingLevelSetting; thinkingLevels: Record<string, ThinkingLevelSetting> },
  provider: string,
  model: string,
): ThinkingLevelSetting {
  return agent.thinkingLevels[thinkingKey(provider, model)] ?? agent.thinkingLevel;
}

/** The longest the person's own system prompt may be, characters. */
export const SYSTEM_PROMPT_MAX_CHARS = 20_000;

/** Merge a patch into settings (objects deep, everything else replaced); does not validate. */
export function mergeSettings(base: unknown, patch: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(patch)) return patch === undefined ? base : patch;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    out[key] = value === null ? undefined : mergeSettings(base[key], value);
  }
  return out;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** The `retry` group's defaults (the schema's, in settings.ts; the decision table's fallbacks). */
export const RETRY_DEFAULTS = {
  enabled: true,
  maxRetries: 3,
  baseDelayMs: 2000,
  maxDelayMs: 60_000,
  jitterMaxMs: 1000,
  timeoutMs: 30_000,
  keepAliveLimitMinutes: 10,
  scheduleLongWaits: false,
} as const;

/** A local server's first-token wait when the person set none, minutes (docs/retry-policy.md, "Two clocks"). */
export const DEFAULT_FIRST_TOKEN_WAIT_MINUTES = 10;

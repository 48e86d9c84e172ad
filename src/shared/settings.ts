// The settings schema (zod) with defaults, for the main process (validation, persistence) and the
// window once it has loaded it (src/renderer/src/store/settings-check.ts). The plain values are in
// settings-values.ts, the primary of the two: this file imports them and does not re-export them,
// so each is imported from one place. Each default is said once, on its field;
// DEFAULT_SETTINGS is the schema's reading of {}. A refused value keeps the old one; the message
// names the field and the allowed range so the pane can show it next to the field.
import { z } from 'zod';
import { RETRYABLE_CATEGORIES } from './retry-policy/retryable';
import {
  FIRST_TOKEN_WAIT_RANGE,
  RETRY_SETTING_RANGES,
  ROW_OVERRIDE_RANGES,
  type SettingRange,
} from './retry-policy/ranges';
import { TOOL_TIMEOUT_RANGE } from './tools';
import { mcpSettingsSchema } from './mcp';
import { BUDGET_LIMITS } from './spending-cap';
import {
  PROVIDER_IDS,
  RETRY_DEFAULTS,
  SIMULATOR_MODEL_ID,
  LANGUAGES,
  MAX_FALLBACK_MODELS,
  THINKING_LEVELS,
  SYSTEM_PROMPT_MAX_CHARS,
  mergeSettings,
  type ValidationResult,
  isPlainObject,
} from './settings-values';

/** A whole number within one of the ranges of retry-policy/ranges.ts; the message names the range. */
const int = ({ min, max, unit }: SettingRange) => {
  const u = unit ? ` ${unit}` : '';
  return z
    .number({ error: `must be a number${unit ? ` (${unit})` : ''}` })
    .int({ error: 'must be a whole number' })
    .min(min, { error: `must be at least ${min}${u}` })
    .max(max, { error: `must be at most ${max}${u}` });
};

/** One decision-table row override (docs/retry-policy.md, "Overrides"). Absent = inherit. */
export const rowOverrideSchema = z
  .object({
    /** Attempts including the first try. */
    maxAttempts: int(ROW_OVERRIDE_RANGES.maxAttempts).optional(),
    backoff: z.enum(['exponential', 'linear']).optional(),
    /** Linear rows: the fixed wait, ms. */
    delayMs: int(ROW_OVERRIDE_RANGES.delayMs).optional(),
    jitter: z.boolean().optional(),
  })
  .strict();
export type RowOverride = z.infer<typeof rowOverrideSchema>;

/** A base URL: empty (the provider's own) or an http(s) URL, for proxies, gateways and local servers. */
const baseUrlSchema = z
  .union([z.literal(''), z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })])
  .default('');

/** One provider/model pair, as the fallback list holds it (docs/retry-policy.md, "Fallback models"). */
export const modelRefSchema = z
  .object({
    provider: z.enum(PROVIDER_IDS),
    model: z.string().trim().min(1, { error: 'must not be empty' }).max(200),
  })
  .strict();
export type ModelRef = z.infer<typeof modelRefSchema>;

/**
 * What the person says of one model of an OpenAI-compatible server (docs/thinking-and-context.md,
 * "Local models"); each field absent = what the server says, else the default.
 */
export const localModelSchema = z
  .object({
    /** Its context window, tokens. */
    contextWindow: int({ min: 512, max: 10_000_000 }).optional(),
    /** The most a reply may write, tokens; absent = no max-token field is sent (the server's own limit). */
    maxTokens: int({ min: 1, max: 1_000_000 }).optional(),
    /** It accepts images. */
    images: z.boolean().optional(),
    /** It thinks on request (the chat header's Thinking control is offered). */
    reasoning: z.boolean().optional(),
  })
  .strict();
export type LocalModelSettings = z.infer<typeof localModelSchema>;

/**
 * What the person says of one local server, by its base URL (docs/retry-policy.md, "Two clocks"):
 * absent = the default first-token wait.
 */
export const localServerSchema = z
  .object({
    /** The longest the server may work on a prompt before its first word, minutes. */
    firstTokenWaitMinutes: int(FIRST_TOKEN_WAIT_RANGE).optional(),
  })
  .strict();
export type LocalServerSettings = z.infer<typeof localServerSchema>;

const fallbackListSchema = z
  .array(modelRefSchema)
  .max(MAX_FALLBACK_MODELS, { error: `must hold at most ${MAX_FALLBACK_MODELS} models` })
  .refine((list) => new Set(list.map((ref) => `${ref.provider}/${ref.model}`)).size === list.length, {
    error: 'lists the same model twice',
  })
  .default([]);

const policyShape = Object.fromEntries(RETRYABLE_CATEGORIES.map((c) => [c, rowOverrideSchema.optional()])) as {
  [K in (typeof RETRYABLE_CATEGORIES)[number]]: z.ZodOptional<typeof rowOverrideSchema>;
};

export const retrySettingsSchema = z
  .object({
    /** Auto-retry on or off. */
    enabled: z.boolean().default(RETRY_DEFAULTS.enabled),
    /** Retries (not attempts) for rows that inherit. */
    maxRetries: int(RETRY_SETTING_RANGES.maxRetries).default(RETRY_DEFAULTS.maxRetries),
    /** Exponential base, ms. */
    baseDelayMs: int(RETRY_SETTING_RANGES.baseDelayMs).default(RETRY_DEFAULTS.baseDelayMs),
    /** A wait longer than this is not slept: the chain fails at once, ms. */
    maxDelayMs: int(RETRY_SETTING_RANGES.maxDelayMs).default(RETRY_DEFAULTS.maxDelayMs),
    /** Upper bound of the uniform jitter added by "+ jitter" rows, ms. */
    jitterMaxMs: int(RETRY_SETTING_RANGES.jitterMaxMs).default(RETRY_DEFAULTS.jitterMaxMs),
    /** A stream silent this long is aborted and classified `timeout`, ms. */
    timeoutMs: int(RETRY_SETTING_RANGES.timeoutMs).default(RETRY_DEFAULTS.timeoutMs),
    /** Keep-alives without a word for this long end a request as `timeout` (docs/retry-policy.md, "Liveness"), minutes. */
    keepAliveLimitMinutes: int(RETRY_SETTING_RANGES.keepAliveLimitMinutes).default(
      RETRY_DEFAULTS.keepAliveLimitMinutes,
    ),
    /** Per-row overrides of the decision table. */
    policy: z.object(policyShape).strict().default({}),
    /**
     * A provider's wait above maxDelayMs (up to 24 h) is scheduled for the time it named instead of
     * failing at once (docs/retry-policy.md, "Scheduled retries").
     */
    scheduleLongWaits: z.boolean().default(RETRY_DEFAULTS.scheduleLongWaits),
  })
  .strict();
export type RetrySettings = z.infer<typeof retrySettingsSchema>;

/**
 * A spending cap (docs/tools.md, "The spending cap"): dollars and/or tokens; an absent field does
 * not limit. Shared by `agent.budget` and a chat's own cap (session.setBudget).
 */
export const budgetSchema = z
  .object({
    /** USD a chat may spend at the models' list prices. */
    usd: z
      .number({ error: 'must be an amount in dollars' })
      .min(BUDGET_LIMITS.usd.min, { error: `must be at least $${BUDGET_LIMITS.usd.min}` })
      .max(BUDGET_LIMITS.usd.max, { error: `must be at most $${BUDGET_LIMITS.usd.max}` })
      .optional(),
    /** Tokens a chat may use, every attempt counted. */
    tokens: int(BUDGET_LIMITS.tokens).optional(),
  })
  .strict();

export const settingsSchema = z
  .object({
    // An absent group is read as {} (prefault), so each of its fields takes its own default.
    retry: retrySettingsSchema.prefault({}),
    compaction: z
      .object({ enabled: z.boolean().default(true) })
      .strict()
      .prefault({}),
    provider: z
      .object({
        id: z.enum(PROVIDER_IDS).default('simulator'),
        model: z.string().trim().min(1, { error: 'must not be empty' }).max(200).default(SIMULATOR_MODEL_ID),
        /** For `openai-compatible`: the server's base URL (…/v1). */
        baseUrl: baseUrlSchema,
        /** Per provider: the model last chosen there, so switching away and back keeps it. */
        chosenModels: z.partialRecord(z.enum(PROVIDER_IDS), z.string().trim().min(1).max(200)).default({}),
        /** For `openai-compatible`: what the person says of each of its models, by model id. */
        localModels: z.record(z.string().max(200), localModelSchema).default({}),
        /** For `openai-compatible` at a local address: what the person says of each server, by base URL. */
        localServers: z.record(z.string().max(2000), localServerSchema).default({}),
        /** Per provider: a base URL that replaces the provider's own; empty = the provider's. */
        baseUrls: z
          .object({ anthropic: baseUrlSchema, openai: baseUrlSchema, google: baseUrlSchema, openrouter: baseUrlSchema })
          .strict()
          .prefault({}),
        /** For `openai-compatible`: the models the person marked as reading text only (no images; docs/attachments.md). */
        textOnlyModels: z.array(z.string().trim().min(1).max(200)).max(200).default([]),
      })
      .strict()
      .prefault({}),
    providers: z
      .object({
        /** Tried in order when a usage limit leaves the current provider without a usable key, or an outage its attempts. */
        fallback: fallbackListSchema,
        /** A new session starts on the first choice again (else it keeps the model switched to). */
        newSessionUsesFirstChoice: z.boolean().default(true),
        /**
         * After a failover for an outage (docs/retry-policy.md, "Failover"), later prompts stay on the
         * model switched to; off (the default): the next prompt goes to the model before it again.
         */
        keepFailoverModel: z.boolean().default(false),
      })
      .strict()
      .prefault({}),
    ui: z
      .object({
        language: z.enum(LANGUAGES).default('system'),
        theme: z.enum(['system', 'light', 'dark']).default('system'),
      })
      .strict()
      .prefault({}),
    simulator: z
      .object({
        /** The fault script of the built-in simulator, e.g. "503,503,ok". */
        script: z.string().max(2000).default(''),
      })
      .strict()
      .prefault({}),
    /** The agent's instructions (docs/tools.md, "Instructions"). */
    agent: z
      .object({
        /** The person's own instructions for the agent; empty for none. */
        systemPrompt: z
          .string()
          .max(SYSTEM_PROMPT_MAX_CHARS, { error: `must be at most ${SYSTEM_PROMPT_MAX_CHARS} characters` })
          .default(''),
        /** `add` (default): after Resolute's own; `replace`: instead of Resolute's own words (the facts stay). */
        systemPromptMode: z.enum(['add', 'replace']).default('add'),
        /** How hard a reasoning model thinks (docs/thinking-and-context.md): the last level chosen, for a model with none remembered. */
        thinkingLevel: z.enum(THINKING_LEVELS).default('off'),
        /** The level chosen for each model ("provider/model"), remembered when the model changes. */
        thinkingLevels: z.record(z.string().max(300), z.enum(THINKING_LEVELS)).default({}),
        /**
         * Each chat's spending cap, unless the chat has its own, and `perDay`, one for all chats
         * together per local day (docs/tools.md, "The spending cap"); {} = none.
         */
        budget: budgetSchema.extend({ perDay: budgetSchema.optional() }).strict().default({}),
      })
      .strict()
      .prefault({}),
    /** The agent's tools (docs/tools.md). */
    tools: z
      .object({
        /** Offer the tools to the model. */
        enabled: z.boolean().default(true),
        /** `ask` (default): write, edit and bash wait for the person; `auto`: nothing asks. */
        approval: z.enum(['ask', 'auto']).default('ask'),
        /** Commands may use the network. */
        network: z.boolean().default(false),
        /** The longest a bash command may run, ms. */
        timeoutMs: int(TOOL_TIMEOUT_RANGE).default(120_000),
      })
      .strict()
      .prefault({}),
    /** MCP servers and their tools (docs/mcp.md). */
    mcp: mcpSettingsSchema.prefault({}),
  })
  .strict();
export type Settings = z.infer<typeof settingsSchema>;

/** Every setting at its default: the schema's reading of an empty object. */
export const DEFAULT_SETTINGS: Settings = settingsSchema.parse({});

/** A patch as it may arrive from a client: validated after merging, so shape errors are named. */
export const settingsPatchSchema = z.record(z.string(), z.unknown());

/** Turn a zod error into one readable line naming each field: "retry.maxRetries: must be at most 9". */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}

/**
 * Split a settings object (as read from a file) into the keys this version knows and the ones it
 * does not — a newer version's — so the known ones can be used and the others kept as they are.
 * `unknown` holds the unknown keys at their paths; `names` lists them as "group.key".
 */
export function splitUnknownKeys(value: unknown): {
  known: unknown;
  unknown: Record<string, unknown>;
  names: string[];
} {
  const known = structuredClone(value);
  const unknown: Record<string, unknown> = {};
  const names: string[] = [];
  const parsed = settingsSchema.safeParse(known);
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    const path = issue.path.map(String);
    const from = path.reduce<Record<string, unknown>>(
      (node, key) => node[key] as Record<string, unknown>,
      known as Record<string, unknown>,
    );
    let into = unknown;
    for (const key of path) into = (into[key] ??= {}) as Record<string, unknown>;
    for (const key of issue.keys) {
      into[key] = from[key];
      delete from[key];
      names.push([...path, key].join('.'));
    }
  }
  return { known, unknown, names };
}

/** Validate a whole settings object (as read from disk or after a merge). */
export function validateSettings(value: unknown): ValidationResult<Settings> {
  const parsed = settingsSchema.safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: describeZodError(parsed.error) };
}

/** Apply a patch to settings; on a bad value returns the error and the caller keeps the old settings. */
export function applySettingsPatch(current: Settings, patch: unknown): ValidationResult<Settings> {
  if (!isPlainObject(patch)) return { ok: false, error: '(root): a settings patch must be an object' };
  return validateSettings(mergeSettings(current, patch));
}

/** Parse "group.key=value" (the `--set` flag); the value is read as JSON when it parses, else a string. */
export function parseSetFlag(flag: string): ValidationResult<Record<string, unknown>> {
  const eq = flag.indexOf('=');
  if (eq <= 0) return { ok: false, error: `--set ${flag}: expected group.key=value` };
  const path = flag.slice(0, eq).split('.');
  const raw = flag.slice(eq + 1);
  if (path.some((p) => p === '')) return { ok: false, error: `--set ${flag}: expected group.key=value` };
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    value = raw;
  }
  const patch: Record<string, unknown> = {};
  let cursor = patch;
  path.forEach((key, i) => {
    if (i === path.length - 1) cursor[key] = value;
    else cursor = (cursor[key] = {}) as Record<string, unknown>;
  });
  return { ok: true, value: patch };
}

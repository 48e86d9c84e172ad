// The settings' defaults come from the schema (src/shared/settings.ts): DEFAULT_SETTINGS is its
// reading of {}, a file or patch that leaves a group or a key out gets that key's default, and a
// wrong value is still refused by name. The expected values are the documented defaults.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, settingsSchema, validateSettings } from '../../../src/shared/settings';

describe('settings defaults', () => {
  it('are the documented ones', () => {
    expect(DEFAULT_SETTINGS).toEqual({
      retry: {
        enabled: true,
        maxRetries: 3,
        baseDelayMs: 2000,
        maxDelayMs: 60_000,
        jitterMaxMs: 1000,
        timeoutMs: 30_000,
        keepAliveLimitMinutes: 10,
        policy: {},
        scheduleLongWaits: false,
      },
      compaction: { enabled: true },
      provider: {
        id: 'simulator',
        model: 'resolute-sim-1',
        baseUrl: '',
        chosenModels: {},
        localModels: {},
        localServers: {},
        textOnlyModels: [],
        baseUrls: { anthropic: '', openai: '', google: '', openrouter: '' },
      },
      providers: { fallback: [], newSessionUsesFirstChoice: true, keepFailoverModel: false },
      ui: { language: 'system', theme: 'system' },
      simulator: { script: '' },
      agent: { systemPrompt: '', systemPromptMode: 'add', thinkingLevel: 'off', thinkingLevels: {}, budget: {} },
      tools: { enabled: true, approval: 'ask', network: false, timeoutMs: 120_000 },
      mcp: { servers: {}, toolTimeoutMs: 60_000, allowed: {} },
    });
  });

  it('fill what a partial object leaves out, key by key', () => {
    const parsed = settingsSchema.parse({
      retry: { maxRetries: 5 },
      provider: { baseUrls: { openai: 'http://proxy/v1' } },
    });
    expect(parsed.retry).toEqual({ ...DEFAULT_SETTINGS.retry, maxRetries: 5 });
    expect(parsed.provider.baseUrls).toEqual({ ...DEFAULT_SETTINGS.provider.baseUrls, openai: 'http://proxy/v1' });
    expect(parsed.tools).toEqual(DEFAULT_SETTINGS.tools);
  });

  it('are fresh objects each time, so changing one reading changes no other', () => {
    const a = settingsSchema.parse({});
    a.retry.policy.rate_limit = { maxAttempts: 2 };
    a.providers.fallback.push({ provider: 'openai', model: 'gpt' });
    expect(settingsSchema.parse({}).retry.policy).toEqual({});
    expect(DEFAULT_SETTINGS.providers.fallback).toEqual([]);
    const b = settingsSchema.parse({});
    b.provider.chosenModels.openai = 'gpt';
    expect(settingsSchema.parse({}).provider.chosenModels).toEqual({});
  });

  it('do not cover a wrong value: it is refused by name', () => {
    expect(validateSettings({ retry: { maxRetries: 'many' } })).toEqual({
      ok: false,
      error: 'retry.maxRetries: must be a number',
    });
    expect(validateSettings({ ui: { theme: 'sepia' } }).ok).toBe(false);
    expect(validateSettings({ tools: { surprise: true } }).ok).toBe(false);
  });
});

// The model a provider starts on and the order its models are offered in, from pi-ai's real
// catalogue (issue 30): by recency and capability, never by name order — a current model that
// thinks and reads images, not the alphabetically first (claude-3-5-haiku, gpt-4, gemini-1.5-flash,
// ai21/jamba-large-1.7) — newest first, each with what the picker shows of it.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPiRuntime } from '../../../src/main/core/llm/pi-runtime';
import { defaultModelFor, modelDetailsFor, modelsFor } from '../../../src/main/node/providers';
import { modelVersion, newestFirst, pickDefaultModel } from '../../../src/main/core/llm/model-ranking';

beforeAll(() => loadPiRuntime());

describe('defaultModelFor, from the real catalogue', () => {
  it('starts each real provider on a current model that thinks and reads images', () => {
    const picked = {
      anthropic: defaultModelFor('anthropic'),
      openai: defaultModelFor('openai'),
      google: defaultModelFor('google'),
      openrouter: defaultModelFor('openrouter'),
    };
    expect(picked).not.toMatchObject({ anthropic: 'claude-3-5-haiku-20241022' });
    expect(picked.openai).not.toBe('gpt-4');
    expect(picked.google).not.toBe('gemini-1.5-flash');
    expect(picked.openrouter).not.toBe('ai21/jamba-large-1.7');
    // The catalogue of pi-ai 0.73.1, ranked.
    expect(picked).toEqual({
      anthropic: 'claude-opus-4-7',
      openai: 'gpt-5.5',
      google: 'gemini-2.5-flash',
      openrouter: 'anthropic/claude-opus-4.7',
    });
    for (const provider of ['anthropic', 'openai', 'google', 'openrouter'] as const) {
      const detail = modelDetailsFor(provider).find((m) => m.id === picked[provider])!;
      expect(detail).toMatchObject({ reasoning: true, images: true });
      expect(detail.price?.input).toBeGreaterThan(0);
    }
  });

  it('lists the models newest first, with name, window, price and what they read', () => {
    const anthropic = modelsFor('anthropic');
    expect(anthropic.indexOf('claude-opus-4-7')).toBeLessThan(anthropic.indexOf('claude-3-5-haiku-20241022'));
    expect(anthropic.slice(0, 2)).toEqual(['claude-opus-4-7', 'claude-opus-4-6']);
    expect(anthropic.at(-1)).toMatch(/^claude-3-/);
    const openai = modelsFor('openai');
    expect(openai.indexOf('gpt-5.5')).toBeLessThan(openai.indexOf('gpt-4'));
    expect(modelDetailsFor('anthropic')[0]).toEqual({
      id: 'claude-opus-4-7',
      name: expect.any(String),
      contextWindow: 1_000_000,
      price: { input: 5, output: 25 },
      images: true,
      reasoning: true,
    });
    // The simulator's own models keep their order and say they are free.
    expect(modelsFor('simulator')[0]).toBe('resolute-sim-1');
  });
});

describe('the ranking', () => {
  it('reads versions and dates out of ids', () => {
    expect(modelVersion('claude-3-5-sonnet-20241022')).toEqual({ version: [3, 5], date: 20241022 });
    expect(modelVersion('claude-opus-4-20250514')).toEqual({ version: [4], date: 20250514 });
    expect(modelVersion('gpt-5.4-mini')).toEqual({ version: [5, 4], date: null });
    expect(modelVersion('gemini-2.5-flash-preview-09-2025')).toEqual({ version: [2, 5], date: 202509 });
    expect(modelVersion('anthropic/claude-sonnet-4.6')).toEqual({ version: [4, 6], date: null });
  });

  it('puts a newer version first, an alias before its dated snapshot, a stable model before a preview', () => {
    const m = (id: string) => ({ id, reasoning: true, input: ['text', 'image'] as const, cost: { input: 1 } });
    const ids = ['claude-opus-4-1-20250805', 'claude-opus-4-1', 'claude-opus-4-5', 'x-2-preview', 'x-2'];
    expect(newestFirst(ids.map(m)).map((x) => x.id)).toEqual([
      'claude-opus-4-5',
      'claude-opus-4-1',
      'claude-opus-4-1-20250805',
      'x-2',
      'x-2-preview',
    ]);
    // Nothing qualifies: the newest is taken.
    expect(pickDefaultModel([{ id: 'a-1', reasoning: false, input: ['text'], cost: { input: 0 } }])).toBe('a-1');
    expect(pickDefaultModel([])).toBeNull();
  });
});

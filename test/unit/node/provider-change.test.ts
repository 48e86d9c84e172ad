// A change of provider that names no model starts on that provider's default model
// (withDefaultModel in src/main/node/app-options.ts, applied by AppServices.updateSettings): the
// settings pane sends the model only once its provider list, which waits for pi-ai's catalogue,
// has arrived. pi-ai's real catalogue is loaded; nothing else is involved.
import { describe, expect, it } from 'vitest';
import { loadPiRuntime } from '../../../src/main/core/llm/pi-runtime';
import { withDefaultModel, withRememberedModel } from '../../../src/main/node/app-options';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { defaultModelFor } from '../../../src/main/node/providers';

await loadPiRuntime();

describe('withDefaultModel', () => {
  it("gives a new provider without a model that provider's default", () => {
    expect(withDefaultModel({ provider: { id: 'openai-compatible' } }, 'simulator')).toEqual({
      provider: { id: 'openai-compatible', model: 'default' },
    });
    const anthropic = defaultModelFor('anthropic');
    expect(anthropic).not.toBe('default');
    expect(withDefaultModel({ provider: { id: 'anthropic' }, retry: { enabled: false } }, 'simulator')).toEqual({
      provider: { id: 'anthropic', model: anthropic },
      retry: { enabled: false },
    });
  });

  it('leaves a patch alone that names the model, keeps the provider, or is not a provider change', () => {
    const cases: unknown[] = [
      { provider: { id: 'openai', model: 'gpt-4o-mini' } },
      { provider: { id: 'simulator' } },
      { provider: { baseUrl: 'http://127.0.0.1:1/v1' } },
      { provider: { id: 'no-such-provider' } },
      { provider: null },
      { retry: { enabled: true } },
      null,
      'text',
    ];
    for (const patch of cases) expect(withDefaultModel(patch, 'simulator')).toBe(patch);
  });
});

describe('withRememberedModel', () => {
  const current = { ...DEFAULT_SETTINGS.provider, id: 'anthropic' as const, model: 'claude-sonnet-4-6' };

  it('keeps the model of the provider left, and returns to the one last chosen where it goes', () => {
    expect(withRememberedModel({ provider: { id: 'openai' } }, current)).toEqual({
      provider: { id: 'openai', chosenModels: { anthropic: 'claude-sonnet-4-6' } },
    });
    const back = {
      ...current,
      id: 'openai' as const,
      model: 'gpt-5.5',
      chosenModels: { anthropic: 'claude-sonnet-4-6' },
    };
    expect(withRememberedModel({ provider: { id: 'anthropic' } }, back)).toEqual({
      // The patch is merged deep: the settings keep the other providers' entries.
      provider: { id: 'anthropic', model: 'claude-sonnet-4-6', chosenModels: { openai: 'gpt-5.5' } },
    });
    // A model named in the patch wins over the remembered one.
    expect(withRememberedModel({ provider: { id: 'anthropic', model: 'claude-opus-4-7' } }, back)).toMatchObject({
      provider: { model: 'claude-opus-4-7' },
    });
  });

  it('leaves alone what is not a move to another known provider', () => {
    for (const patch of [{ provider: { id: 'anthropic' } }, { provider: { id: 'nope' } }, { retry: {} }, null])
      expect(withRememberedModel(patch, current)).toBe(patch);
  });
});

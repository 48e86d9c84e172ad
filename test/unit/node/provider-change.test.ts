// A change of provider that names no model starts on that provider's default model
// (withDefaultModel in src/main/node/app-options.ts, applied by AppServices.updateSettings): the
// settings pane sends the model only once its provider list, which waits for pi-ai's catalogue,
// has arrived. pi-ai's real catalogue is loaded; nothing else is involved.
import { describe, expect, it } from 'vitest';
import { loadPiRuntime } from '../../../src/main/core/pi-runtime';
import { withDefaultModel } from '../../../src/main/node/app-options';
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

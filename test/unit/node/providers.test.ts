// Provider resolution (src/main/node/providers.ts): a base URL override replaces the provider's
// own for pi-ai's model (proxies, gateways, the simulator in tests), and an empty one keeps it.
// A real provider's model comes from pi-ai's catalogue, which the app loads with its first run.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPiRuntime } from '../../../src/main/core/llm/pi-runtime';
import { resolveModel } from '../../../src/main/node/providers';
import { DEFAULT_SETTINGS, type Settings } from '../../../src/shared/settings';

const provider = (patch: Partial<Settings['provider']>): Settings['provider'] => ({
  ...DEFAULT_SETTINGS.provider,
  ...patch,
});

beforeAll(() => loadPiRuntime());

describe('resolveModel — base URL overrides', () => {
  it.each([
    ['anthropic', 'claude-sonnet-4-5', 'https://api.anthropic.com', 'anthropic-messages'],
    ['openai', 'gpt-4o', 'https://api.openai.com/v1', 'openai-responses'],
    ['google', 'gemini-2.5-flash', 'https://generativelanguage.googleapis.com/v1beta', 'google-generative-ai'],
  ] as const)('%s keeps its own base URL when none is set', (id, model, own, api) => {
    expect(resolveModel(provider({ id, model }), null).model).toMatchObject({ baseUrl: own, api });
  });

  it.each(['anthropic', 'openai', 'google', 'openrouter'] as const)('%s uses the override', (id) => {
    const baseUrls = { ...DEFAULT_SETTINGS.provider.baseUrls, [id]: 'http://127.0.0.1:4000/proxy/' };
    const resolved = resolveModel(provider({ id, model: 'some-model', baseUrls }), null);
    expect(resolved.model.baseUrl).toBe('http://127.0.0.1:4000/proxy');
    expect(resolved.info.label).toContain('127.0.0.1:4000');
  });

  it('an override of another provider changes nothing', () => {
    const baseUrls = { ...DEFAULT_SETTINGS.provider.baseUrls, openai: 'http://127.0.0.1:4000' };
    expect(resolveModel(provider({ id: 'anthropic', model: 'claude-x', baseUrls }), null).model.baseUrl).toBe(
      'https://api.anthropic.com',
    );
  });
});

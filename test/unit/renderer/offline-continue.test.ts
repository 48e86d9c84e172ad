// Which fallback model the offline banner offers at once (docs/retry-policy.md, "Offline: the
// chain pauses"): one of the OpenAI-compatible server when its base URL is on this machine or the
// local network, never the model that is paused, never a cloud one.
import { describe, expect, it } from 'vitest';
import { localFallback } from '../../../src/renderer/src/retry/OfflineContinue';
import { DEFAULT_SETTINGS, type ModelRef, type Settings } from '../../../src/shared/settings';

const LOCAL: ModelRef = { provider: 'openai-compatible', model: 'llama3' };
const CLOUD: ModelRef = { provider: 'openai', model: 'gpt-5' };
const CLAUDE = { provider: 'anthropic', id: 'claude-sonnet-4-5' };

function settings(baseUrl: string, fallback: ModelRef[]): Settings {
  return {
    ...DEFAULT_SETTINGS,
    provider: { ...DEFAULT_SETTINGS.provider, baseUrl },
    providers: { ...DEFAULT_SETTINGS.providers, fallback },
  };
}

describe('the offline banner’s local fallback', () => {
  it.each([
    ['http://127.0.0.1:11434/v1', LOCAL],
    ['http://localhost:1234/v1', LOCAL],
    ['http://192.168.1.20:8080/v1', LOCAL],
    ['http://[::1]:8000/v1', LOCAL],
    ['https://llm.example.com/v1', null],
    ['', null],
  ])('server at %s → %o', (baseUrl, offered) => {
    expect(localFallback(settings(baseUrl, [CLOUD, LOCAL]), CLAUDE)).toEqual(offered);
  });

  it('no local model in the list, no settings yet, or the local model is the one paused: nothing', () => {
    expect(localFallback(settings('http://127.0.0.1:11434/v1', [CLOUD]), CLAUDE)).toBeNull();
    expect(localFallback(null, CLAUDE)).toBeNull();
    const paused = { provider: 'openai-compatible', id: 'llama3' };
    expect(localFallback(settings('http://127.0.0.1:11434/v1', [LOCAL]), paused)).toBeNull();
  });
});

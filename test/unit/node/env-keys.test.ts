// The provider keys taken out of the app's environment at start (env-keys.ts, issue 40 item 15):
// each provider's key is kept (an Anthropic OAuth token before a key, as pi-ai reads them) and
// every one of those variables is gone from the environment, empty ones too; others stay.
import { describe, expect, it } from 'vitest';
import { takeEnvKeys } from '../../../src/main/node/env-keys';

describe('takeEnvKeys', () => {
  it('keeps each provider’s key and removes every key variable, leaving the rest', () => {
    const env: NodeJS.ProcessEnv = {
      PATH: '/usr/bin',
      ANTHROPIC_OAUTH_TOKEN: 'oauth-token',
      ANTHROPIC_API_KEY: 'ant-key',
      OPENAI_API_KEY: '',
      GEMINI_API_KEY: 'gem-key',
      OPENROUTER_API_KEY: 'or-key',
    };
    expect(takeEnvKeys(env)).toEqual({ anthropic: 'oauth-token', google: 'gem-key', openrouter: 'or-key' });
    expect(env).toEqual({ PATH: '/usr/bin' });
  });
});

// The shared flags: parsing, clear errors, `--set` merging, and picking our flags out of an argv
// that also carries Electron's, Chromium's or Playwright's.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ourFlags, parseCommonFlags } from '../../../src/main/modes/launch';
import { loadPiRuntime } from '../../../src/main/core/llm/pi-runtime';
import { providerOverlay } from '../../../src/main/node/app-options';

describe('parseCommonFlags', () => {
  it('reads every flag and merges repeated --set into one overlay', () => {
    const flags = parseCommonFlags([
      '--mode',
      'rpc',
      '--port',
      '8080',
      '--data-dir',
      '/tmp/x',
      '--set',
      'retry.baseDelayMs=20',
      '--set',
      'retry.maxRetries=5',
    ]);
    expect(flags).toMatchObject({
      mode: 'rpc',
      port: 8080,
      dataDir: '/tmp/x',
      overlay: { retry: { baseDelayMs: 20, maxRetries: 5 } },
    });
  });

  it('opens a window unless --no-open is given', () => {
    expect(parseCommonFlags([]).noOpen).toBe(false);
    expect(parseCommonFlags(['--no-open']).noOpen).toBe(true);
    expect(() => parseCommonFlags(['--no-open=yes'])).toThrow();
  });

  it.each([
    [['--mode', 'desktop'], /--mode must be web, rpc or simulator/],
    [['--port', 'eighty'], /--port must be 0–65535/],
    [['--provider', 'acme'], /--provider must be one of/],
    [['--set', 'nonsense'], /expected group\.key=value/],
    [['--bogus'], /Unknown option/],
    [['--base-url', 'ftp://files.example'], /--base-url must be an http:\/\/ or https:\/\/ URL/],
    [['--base-url', 'not a url'], /--base-url must be an http:\/\/ or https:\/\/ URL/],
    [['--provider', 'simulator', '--base-url', 'http://127.0.0.1:1'], /--base-url does not apply to the simulator/],
  ])('refuses %j clearly', (argv, message) => {
    expect(() => parseCommonFlags(argv)).toThrow(message);
  });
});

describe("this run's API key", () => {
  it('comes from --api-key, else --api-key-file, else RESOLUTE_API_KEY; bad files and both flags are refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'resolute-keyfile-'));
    try {
      writeFileSync(join(dir, 'key'), '  sk-file-key-123  \n');
      writeFileSync(join(dir, 'empty'), '\n');
      const env = { RESOLUTE_API_KEY: 'sk-env-key' };
      expect(parseCommonFlags(['--api-key', 'sk-flag'], env).apiKey).toBe('sk-flag');
      expect(parseCommonFlags(['--api-key-file', join(dir, 'key')], env).apiKey).toBe('sk-file-key-123');
      expect(parseCommonFlags([], env).apiKey).toBe('sk-env-key');
      expect(parseCommonFlags([], {}).apiKey).toBeUndefined();
      expect(() => parseCommonFlags(['--api-key-file', join(dir, 'empty')], {})).toThrow(/one key on one line/);
      expect(() => parseCommonFlags(['--api-key-file', join(dir, 'missing')], {})).toThrow(/cannot read .*ENOENT/);
      expect(() => parseCommonFlags(['--api-key', 'a', '--api-key-file', join(dir, 'key')], {})).toThrow(/not both/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('ourFlags', () => {
  it('keeps our flags and their values, drops the rest', () => {
    expect(
      ourFlags([
        '--remote-debugging-port=0',
        '--inspect=0',
        '--data-dir',
        '/d',
        '--set=retry.enabled=false',
        '--no-sandbox',
        '--no-open',
        '--help',
      ]),
    ).toEqual(['--data-dir', '/d', '--set=retry.enabled=false', '--no-open', '--help']);
  });
});

describe('providerOverlay', () => {
  it('--base-url alone selects an OpenAI-compatible server', () => {
    expect(providerOverlay({ baseUrl: 'http://127.0.0.1:11434/v1' })).toEqual({
      provider: { id: 'openai-compatible', model: 'default', baseUrl: 'http://127.0.0.1:11434/v1' },
    });
  });
  it('--provider picks its first known model (from the catalogue, once pi-ai is loaded) unless --model says otherwise', async () => {
    await loadPiRuntime();
    expect(providerOverlay({ provider: 'anthropic', model: 'claude-x' })).toEqual({
      provider: { id: 'anthropic', model: 'claude-x' },
    });
    expect((providerOverlay({ provider: 'openai' }).provider as { model: string }).model).toBeTruthy();
  });
  it('--base-url with --provider overrides the base URL of that provider', () => {
    expect(providerOverlay({ provider: 'anthropic', model: 'claude-x', baseUrl: 'http://127.0.0.1:4000' })).toEqual({
      provider: { id: 'anthropic', model: 'claude-x', baseUrls: { anthropic: 'http://127.0.0.1:4000' } },
    });
    expect(providerOverlay({ provider: 'google', model: 'g', baseUrl: 'https://proxy.example/v1beta' })).toEqual({
      provider: { id: 'google', model: 'g', baseUrls: { google: 'https://proxy.example/v1beta' } },
    });
    expect(providerOverlay({ provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:8000/v1' })).toEqual({
      provider: { id: 'openai-compatible', model: 'default', baseUrl: 'http://127.0.0.1:8000/v1' },
    });
  });
});

// The shared flags: parsing, clear errors, `--set` merging, and picking our flags out of an argv
// that also carries Electron's, Chromium's or Playwright's.
import { describe, expect, it } from 'vitest';
import { ourFlags, parseCommonFlags } from '../../../src/main/modes/launch';
import { loadPiRuntime } from '../../../src/main/core/pi-runtime';
import { providerOverlay } from '../../../src/main/node/app-services';

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
  ])('refuses %j clearly', (argv, message) => {
    expect(() => parseCommonFlags(argv)).toThrow(message);
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
});

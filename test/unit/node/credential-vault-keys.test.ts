// The credential vault's choice of key, on a real file system (a sealed credentials.json): a key in
// use stays in use while it is free (sticky), all blocked picks the one that frees first, blocks
// per model and for every model, what secrets() hands the redaction and what it keeps back, the
// environment key's id, the clock when none is passed, and what an unreadable file's notice says.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { vaultIn, type VaultOptions } from './vault-in';

let dir: string;
let now: number;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'resolute-vault-'));
  now = 5_000_000;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const vault = (extra: VaultOptions = {}) => vaultIn(dir, () => now, extra);

function twoKeys() {
  const v = vault();
  v.add('openai', 'sk-first-aaaaaaaa1111');
  v.add('openai', 'sk-second-bbbbbbbb2222');
  return v;
}

describe('which key the vault hands out', () => {
  it('keeps using the key it switched to after the first one frees up (no flapping back)', () => {
    const v = twoKeys();
    expect(v.activeCredential('openai')?.apiKey).toBe('sk-first-aaaaaaaa1111');
    v.markUsageLimitReached('openai', 's', { retryAfterMs: 10_000 });
    now += 11_000;
    expect(v.activeCredential('openai')?.apiKey).toBe('sk-second-bbbbbbbb2222');
  });

  it('with every key blocked, hands out the one that frees first, whatever its place in the list', () => {
    const v = twoKeys();
    v.markUsageLimitReached('openai', 's', { retryAfterMs: 60_000 }); // first: until +60 s
    v.markUsageLimitReached('openai', 's', { retryAfterMs: 30_000 }); // second: until +30 s
    expect(v.activeCredential('openai')?.apiKey).toBe('sk-second-bbbbbbbb2222');
  });

  it('a block for one model leaves the keys usable for another; a block for every model does not', () => {
    const v = twoKeys();
    v.markUsageLimitReached('openai', 's', { retryAfterMs: 30_000, model: 'gpt-a' });
    v.markUsageLimitReached('openai', 's', { retryAfterMs: 30_000, model: 'gpt-a' });
    expect(v.hasUsableKey('openai', 'gpt-a')).toBe(false);
    expect(v.hasUsableKey('openai', 'gpt-b')).toBe(true);
    expect(v.activeCredential('openai', undefined, 'gpt-b')?.apiKey).toBe('sk-second-bbbbbbbb2222');
    // Asked without a model, only blocks for every model count: the key in use stays.
    expect(v.activeCredential('openai')?.apiKey).toBe('sk-second-bbbbbbbb2222');
    // The window shows any block.
    expect(v.hints('openai').map((h) => h.blockedUntil)).toEqual([now + 30_000, now + 30_000]);
    v.markUsageLimitReached('openai', 's', { retryAfterMs: 30_000 });
    v.markUsageLimitReached('openai', 's', { retryAfterMs: 30_000 });
    expect(v.hasUsableKey('openai', 'gpt-b')).toBe(false);
  });

  it('of two blocks on one key, the later one counts, in whatever order they were set', () => {
    const v = vault();
    v.add('openai', 'sk-only-cccccccc3333');
    v.markUsageLimitReached('openai', 's', { retryAfterMs: 60_000 });
    v.markUsageLimitReached('openai', 's', { retryAfterMs: 30_000, model: 'gpt-a' });
    expect(v.hints('openai')[0].blockedUntil).toBe(now + 60_000);
  });

  it('without a clock passed in, blocks run on the real one', () => {
    const v = vault({ now: undefined });
    v.add('openai', 'sk-clock-dddddddd4444');
    const before = Date.now();
    v.markUsageLimitReached('openai', 's', { retryAfterMs: 60_000 });
    const until = v.hints('openai')[0].blockedUntil!;
    expect(until).toBeGreaterThanOrEqual(before + 60_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 60_000);
  });
});

describe('what the vault tells', () => {
  it('secrets(): every key it could send (run, stored, environment), never the built-in one', () => {
    const v = vault({
      runKey: { provider: 'openai', apiKey: 'sk-run-eeeeeeee5555' },
      envKey: (p) => (p === 'anthropic' ? 'sk-ant-env-ffffffff6666' : undefined),
      builtin: { simulator: 'resolute-simulator-key' },
    });
    v.add('openai', 'sk-stored-gggggggg7777');
    expect(v.secrets(['openai', 'anthropic', 'simulator'])).toEqual([
      'sk-run-eeeeeeee5555',
      'sk-stored-gggggggg7777',
      'sk-ant-env-ffffffff6666',
    ]);
    expect(v.hasEnvKey('anthropic')).toBe(true);
    expect(v.hasEnvKey('openai')).toBe(false);
    expect(vault().hasEnvKey('anthropic')).toBe(false);
    expect(v.hints('anthropic').map((h) => h.id)).toEqual(['env']);
  });

  it('an unreadable file: the notice names the parse error, where the file went, and what to do', () => {
    writeFileSync(join(dir, 'credentials.json'), '{not json');
    const problem = vault().loadProblem!;
    const aside = readdirSync(dir).filter((name) => name.startsWith('credentials.json.'));
    expect(aside).toEqual([expect.stringMatching(/^credentials\.json\.unreadable-/)]);
    expect(problem.params).toMatchObject({ detail: expect.stringMatching(/JSON/), aside: join(dir, aside[0]) });
    expect(problem.message).toMatch(/^The credentials file could not be read \(.*JSON.*\); it was kept as /);
    expect(problem.message).toMatch(/Stored API keys are not in use: add them again in Settings → Provider\.$/);
  });
});

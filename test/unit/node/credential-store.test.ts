// The credential vault: keys sealed at rest, masked hints only, the order keys are tried in, and
// the usage-limit switching (block the key in use, move to the next of the person's keys, report when
// the earliest frees up).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CredentialVault, fileKeyCipher, mask } from '../../../src/main/node/credential-store';

let dir: string;
let now: number;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'resolute-keys-'));
  now = 1_000_000;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function vault(extra: Partial<ConstructorParameters<typeof CredentialVault>[0]> = {}) {
  return new CredentialVault({
    path: join(dir, 'credentials.json'),
    cipher: fileKeyCipher(dir),
    now: () => now,
    ...extra,
  });
}

describe('CredentialVault', () => {
  it('stores keys sealed, never in the clear, and reopens them', () => {
    vault().add('openai', 'sk-live-abcdefghijklmnop');
    const file = readFileSync(join(dir, 'credentials.json'), 'utf8');
    expect(file).not.toContain('sk-live-abcdefghijklmnop');
    expect(vault().activeCredential('openai')?.apiKey).toBe('sk-live-abcdefghijklmnop');
  });

  it('shows masked hints only, and marks which keys can be removed', () => {
    const v = vault({
      envKey: (p) => (p === 'openai' ? 'sk-env-zzzzzzzzzzzz9999' : undefined),
      runKey: { provider: 'openai', apiKey: 'sk-run-yyyyyyyy8888' },
    });
    v.add('openai', 'sk-stored-xxxxxxxx7777');
    const hints = v.hints('openai');
    expect(hints.map((h) => h.hint)).toEqual(['sk-…8888', 'sk-…7777', 'sk-…9999 (environment)']);
    expect(hints.map((h) => h.removable)).toEqual([false, true, false]);
    expect(JSON.stringify(hints)).not.toMatch(/yyyyyyyy|xxxxxxxx|zzzzzzzz/);
    expect(mask('short')).toBe('…rt');
  });

  it('tries the run key first, then stored keys; the run key is never written', () => {
    const v = vault({ builtin: { simulator: 'builtin-key' }, runKey: { provider: 'simulator', apiKey: 'run-key' } });
    v.add('simulator', 'stored-key');
    expect(v.activeCredential('simulator')?.apiKey).toBe('run-key');
    expect(readFileSync(join(dir, 'credentials.json'), 'utf8')).not.toContain('run-key');
    expect(v.hints('simulator').map((h) => h.hint)).toEqual(['…ey', 'sto…-key']);
    expect(v.hints('simulator').map((h) => h.id)[0]).toBe('run');
  });

  it('uses the built-in key only while the person has configured none', () => {
    const v = vault({ builtin: { simulator: 'builtin-key' } });
    expect(v.activeCredential('simulator')?.apiKey).toBe('builtin-key');
    expect(v.hints('simulator').map((h) => h.hint)).toEqual(['built-in']);
    v.add('simulator', 'stored-key');
    expect(v.activeCredential('simulator')?.apiKey).toBe('stored-key');
    expect(v.hints('simulator').map((h) => h.id)).not.toContain('builtin');
  });

  it('a usage limit blocks the key in use and switches to the next usable one', () => {
    const v = vault({ builtin: { simulator: 'builtin-key' } });
    v.add('simulator', 'first-key');
    v.add('simulator', 'second-key');
    expect(v.activeCredential('simulator')?.apiKey).toBe('first-key');
    expect(v.markUsageLimitReached('simulator', 's1', { retryAfterMs: 30_000 })).toEqual({
      switched: true,
      earliestFreeAt: null,
    });
    expect(v.activeCredential('simulator')?.apiKey).toBe('second-key');
    expect(v.hints('simulator')[0].blockedUntil).toBe(now + 30_000);
    // Both blocked: no switch (never to the built-in key), and the earliest moment one frees up is reported.
    expect(v.markUsageLimitReached('simulator', 's1', { retryAfterMs: 60_000 })).toEqual({
      switched: false,
      earliestFreeAt: now + 30_000,
    });
    expect(v.activeCredential('simulator')?.apiKey).toBe('first-key');
    now += 30_001;
    expect(v.activeCredential('simulator')?.apiKey).toBe('first-key');
  });

  it('never switches to a built-in placeholder key when the person gave a key', () => {
    const v = vault({
      builtin: { 'openai-compatible': 'not-needed' },
      runKey: { provider: 'openai-compatible', apiKey: 'sk-person-1234' },
    });
    expect(v.activeCredential('openai-compatible')?.apiKey).toBe('sk-person-1234');
    expect(v.markUsageLimitReached('openai-compatible', 's1', { retryAfterMs: 5000 })).toEqual({
      switched: false,
      earliestFreeAt: now + 5000,
    });
    expect(v.activeCredential('openai-compatible')?.apiKey).toBe('sk-person-1234');
  });

  it('with no credential at all reports no switch', () => {
    expect(vault().markUsageLimitReached('openai', 's', {})).toEqual({ switched: false, earliestFreeAt: null });
    expect(vault().activeCredential('openai')).toBeUndefined();
  });

  it('removes only stored keys', () => {
    const v = vault({ builtin: { simulator: 'b' } });
    v.add('simulator', 'k1');
    const stored = v.hints('simulator').find((h) => h.removable)!;
    expect(v.remove('simulator', 'builtin')).toBe(false);
    expect(v.remove('simulator', stored.id)).toBe(true);
    // With the stored key gone the built-in key is in use again.
    expect(v.hints('simulator').map((h) => h.id)).toEqual(['builtin']);
  });

  it('skips a key sealed with another machine key, and reports an unreadable file', () => {
    vault().add('openai', 'sk-a-1234567890');
    writeFileSync(join(dir, '.credentials.key'), Buffer.alloc(32, 7).toString('base64'));
    expect(vault().activeCredential('openai')).toBeUndefined();
    writeFileSync(join(dir, 'credentials.json'), '{not json');
    expect(vault().loadProblem).toMatch(/could not be read/);
  });
});

// The credential vault: keys sealed at rest, masked hints only, the order keys are tried in, and
// the usage-limit switching of docs/retry-policy.md (lifecycle step 5) (block the key in use, move
// to the next, report when the earliest frees up); and damaged files on a real file system: a file
// that cannot be read is set aside (never overwritten), keys that cannot be decrypted are kept and
// named, and the built-in key keeps working whatever the file holds.
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileKeyCipher, mask } from '../../../src/main/node/credential-store';
import { vaultIn, type VaultOptions } from './vault-in';

let dir: string;
let now: number;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'resolute-keys-'));
  now = 1_000_000;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const vault = (extra: VaultOptions = {}) => vaultIn(dir, () => now, extra);

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
    // The masked key only: the words for where it comes from are the window's, in its language.
    expect(hints.map((h) => h.hint)).toEqual(['sk-…8888', 'sk-…7777', 'sk-…9999']);
    expect(hints.map((h) => h.source)).toEqual(['run', 'stored', 'environment']);
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
    expect(v.hints('simulator').map(({ hint, source }) => ({ hint, source }))).toEqual([
      { hint: null, source: 'built-in' },
    ]);
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
    expect(vault().loadProblem?.message).toMatch(/could not be read/);
  });
});

describe('damaged credential files', () => {
  const credentials = () => join(dir, 'credentials.json');
  const asideFiles = () => readdirSync(dir).filter((name) => name.startsWith('credentials.json.'));

  it('a truncated file is set aside untouched and named; adding a key does not overwrite it', () => {
    const v = vault();
    v.add('openai', 'sk-first-aaaaaaaaaaaa1111');
    v.add('anthropic', 'sk-ant-second-bbbbbbbb2222');
    const whole = readFileSync(credentials(), 'utf8');
    const truncated = whole.slice(0, Math.floor(whole.length / 2));
    writeFileSync(credentials(), truncated);

    const reopened = vault({ builtin: { simulator: 'builtin-key' } });
    expect(asideFiles()).toHaveLength(1);
    expect(readFileSync(join(dir, asideFiles()[0]), 'utf8')).toBe(truncated);
    expect(reopened.loadProblem).toMatchObject({
      code: 'credentials_unreadable',
      params: { aside: expect.any(String) },
    });
    expect(reopened.loadProblem?.message).toContain(asideFiles()[0]);
    expect(reopened.activeCredential('simulator')?.apiKey).toBe('builtin-key');
    reopened.add('openai', 'sk-third-cccccccccccc3333');
    expect(readFileSync(join(dir, asideFiles()[0]), 'utf8')).toBe(truncated);
  });

  for (const content of ['null', '{"simulator":5}', '[1,2]', '{"openai":[{"id":1}]}']) {
    it(`${content} is set aside and every prompt still gets a key`, () => {
      writeFileSync(credentials(), content);
      const v = vault({ builtin: { simulator: 'builtin-key' } });
      expect(v.activeCredential('simulator')?.apiKey).toBe('builtin-key');
      expect(v.hints('openai')).toEqual([]);
      expect(v.loadProblem?.message).toMatch(/could not be read/);
      expect(asideFiles()).toHaveLength(1);
    });
  }

  it('keys that cannot be decrypted (the key file was deleted) are named, kept in the file, and survive an add', () => {
    vault().add('openai', 'sk-old-dddddddddddd4444');
    const sealed = (JSON.parse(readFileSync(credentials(), 'utf8')) as Record<string, { sealed: string }[]>).openai[0]
      .sealed;
    unlinkSync(join(dir, '.credentials.key'));

    const v = vault();
    expect(v.loadProblem?.message).toMatch(/1 stored API key .*could not be decrypted/);
    expect(v.loadProblem?.message).toContain('.credentials.key');
    expect(v.loadProblem).toMatchObject({ code: 'credentials_undecryptable', params: { count: 1 } });
    v.add('openai', 'sk-new-eeeeeeeeeeee5555');
    expect(readFileSync(credentials(), 'utf8')).toContain(sealed);
    expect(v.activeCredential('openai')?.apiKey).toBe('sk-new-eeeeeeeeeeee5555');
    expect(existsSync(join(dir, '.credentials.key'))).toBe(true);
  });

  it.skipIf(process.platform === 'win32')('a key file and a credentials file left 0644 are made 0600 on open', () => {
    vault().add('openai', 'sk-mode-kkkkkkkk1111');
    chmodSync(join(dir, '.credentials.key'), 0o644);
    chmodSync(credentials(), 0o644);
    const v = vault();
    expect(statSync(join(dir, '.credentials.key')).mode & 0o777).toBe(0o600);
    expect(statSync(credentials()).mode & 0o777).toBe(0o600);
    expect(v.activeCredential('openai')?.apiKey).toBe('sk-mode-kkkkkkkk1111');
  });

  it('a key file that holds no key is set aside, and new keys can still be added', () => {
    writeFileSync(join(dir, '.credentials.key'), 'not a key');
    const v = vault();
    v.add('openai', 'sk-after-ffffffffffff6666');
    expect(vault().activeCredential('openai')?.apiKey).toBe('sk-after-ffffffffffff6666');
    expect(readdirSync(dir).filter((name) => name.startsWith('.credentials.key.invalid-'))).toHaveLength(1);
  });
});

describe('which key, and when it is free again', () => {
  it('a run key belongs to its provider only: another provider (a fallback of another vendor) never gets it', () => {
    const v = vault({ runKey: { provider: 'openai', apiKey: 'sk-run-only-openai-1234' } });
    expect(v.activeCredential('openai')?.apiKey).toBe('sk-run-only-openai-1234');
    expect(v.activeCredential('anthropic')).toBeUndefined();
    expect(v.hints('anthropic')).toEqual([]);
    expect(v.hasUsableKey('anthropic', 'claude')).toBe(false);
  });

  it('a usage-limit block ends at the moment it names, not a tick later', () => {
    const v = vault();
    v.add('openai', 'sk-only-key-aaaaaaaa1111');
    v.markUsageLimitReached('openai', 's1', { retryAfterMs: 30_000 });
    expect(v.hasUsableKey('openai', 'gpt')).toBe(false);
    now += 29_999;
    expect(v.hints('openai')[0].blockedUntil).toBe(1_030_000);
    now += 1;
    expect(v.hints('openai')[0].blockedUntil).toBeNull();
    expect(v.hasUsableKey('openai', 'gpt')).toBe(true);
  });

  it('hasUsableKey: one blocked key among several leaves the provider usable; all blocked does not', () => {
    const v = vault();
    v.add('openai', 'sk-first-bbbbbbbb2222');
    v.add('openai', 'sk-second-cccccccc3333');
    v.markUsageLimitReached('openai', 's1', { retryAfterMs: 30_000 });
    expect(v.hasUsableKey('openai', 'gpt')).toBe(true);
    v.markUsageLimitReached('openai', 's1', { retryAfterMs: 30_000 });
    expect(v.hasUsableKey('openai', 'gpt')).toBe(false);
    // A block for one model leaves the keys usable for another.
    const w = vault();
    w.markUsageLimitReached('openai', 's1', { retryAfterMs: 30_000, model: 'gpt-a' });
    expect(w.hasUsableKey('openai', 'gpt-b')).toBe(true);
  });

  it('a healthy file gives no "could not be decrypted" notice', () => {
    vault().add('openai', 'sk-healthy-dddddddd4444');
    vault().add('anthropic', 'sk-ant-healthy-eeeeeeee5555');
    expect(vault().loadProblem).toBeNull();
  });

  it('names exactly the keys that no longer open, counted, with their providers once each', () => {
    const other = mkdtempSync(join(tmpdir(), 'resolute-other-keys-'));
    try {
      const mine = fileKeyCipher(dir);
      const foreign = fileKeyCipher(other);
      const file = {
        openai: [
          { id: 'a', sealed: mine.encrypt('sk-opens-ffffffff6666') },
          { id: 'b', sealed: foreign.encrypt('sk-lost-gggggggg7777') },
          { id: 'c', sealed: foreign.encrypt('sk-lost-hhhhhhhh8888') },
        ],
        anthropic: [{ id: 'd', sealed: foreign.encrypt('sk-ant-lost-iiiiiiii9999') }],
        google: [{ id: 'e', sealed: mine.encrypt('AIza-opens-jjjjjjjj0000') }],
      };
      writeFileSync(join(dir, 'credentials.json'), JSON.stringify(file));
      const path = join(dir, 'credentials.json');
      const v = vault();
      expect(v.loadProblem).toEqual({
        code: 'credentials_undecryptable',
        params: { count: 3, providers: 'openai, anthropic', path },
        message:
          `3 stored API keys (openai, anthropic) could not be decrypted: the key file .credentials.key is missing or ` +
          `was replaced, or they were sealed by the desktop app's keychain. They stay in ${path}, unused; restore ` +
          'that key file, or add the keys again.',
      });
      expect(v.activeCredential('openai')?.apiKey).toBe('sk-opens-ffffffff6666');
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('masks a key of 8 characters or fewer to its last two, a longer one to its first three and last four', () => {
    expect(mask('12345678')).toBe('…78');
    expect(mask('123456789')).toBe('123…6789');
  });
});

// Where the desktop app keeps the key that seals API keys. The Electron binary cannot run here, so
// safeStorage and the question to the person are fakes: with the OS keychain available it is used
// and nothing is asked; without it the person is told and asked before a key file is used — and
// if they decline, keys are not stored at all (adding one says why), while a key file that already
// exists (they agreed before, or the browser mode made it) is used with a notice.
import { describe, expect, it } from 'vitest';
import { chooseKeyStorage } from '../../../src/main/electron/key-storage';
import type { SecretCipher } from '../../../src/main/node/credential-store';

function fakes(available: boolean, answer: boolean, keyFileExists = false) {
  const asked: string[] = [];
  const keyFile: SecretCipher = { encrypt: (p) => `file:${p}`, decrypt: (s) => s.slice(5) };
  return {
    asked,
    deps: {
      safeStorage: {
        isEncryptionAvailable: () => available,
        encryptString: (plain: string) => Buffer.from(`os:${plain}`),
        decryptString: (sealed: Buffer) => sealed.toString().slice(3),
      },
      keyFileExists,
      keyFileCipher: () => keyFile,
      askToUseKeyFile: async (question: string) => {
        asked.push(question);
        return answer;
      },
    },
  };
}

describe('chooseKeyStorage', () => {
  it('uses the OS keychain when there is one, without asking', async () => {
    const { deps, asked } = fakes(true, false);
    const cipher = await chooseKeyStorage(deps);
    expect(cipher.decrypt(cipher.encrypt('sk-1'))).toBe('sk-1');
    expect(cipher.encrypt('sk-1')).toBe(Buffer.from('os:sk-1').toString('base64'));
    expect(cipher.note).toBeUndefined();
    expect(asked).toEqual([]);
  });

  it('without a keychain says so and asks; yes: the key file, with a notice', async () => {
    const { deps, asked } = fakes(false, true);
    const cipher = await chooseKeyStorage(deps);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/keychain is not available/);
    expect(cipher.encrypt('sk-2')).toBe('file:sk-2');
    expect(cipher.note?.message).toMatch(/key file/);
  });

  it('without a keychain, declined: keys are not stored, and adding one says why', async () => {
    const { deps } = fakes(false, false);
    const cipher = await chooseKeyStorage(deps);
    expect(() => cipher.encrypt('sk-3')).toThrow(/not stored/);
    expect(() => cipher.decrypt('file:x')).toThrow();
    expect(cipher.note?.message).toMatch(/not stored/);
  });

  it('without a keychain but with a key file already there: uses it without asking again', async () => {
    const { deps, asked } = fakes(false, false, true);
    const cipher = await chooseKeyStorage(deps);
    expect(asked).toEqual([]);
    expect(cipher.encrypt('sk-4')).toBe('file:sk-4');
    expect(cipher.note?.message).toMatch(/keychain is not available/);
  });
});

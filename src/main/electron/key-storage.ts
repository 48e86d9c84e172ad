// What seals the API keys the desktop app stores: the OS keychain (safeStorage) where there is one.
// Where there is none (a Linux desktop without a keyring), the person is told and asked before a
// key file in the data folder is used instead — anyone who can read that folder can then use the
// keys — and if they decline, keys are not stored this run. Called by main.ts before the launch;
// Electron's objects come in as arguments, so this runs (and is tested) under Node.
import type { SafeStorage } from 'electron';
import { codedNotice } from '../../shared/notices';
import type { SecretCipher } from '../node/credential-store';

export interface KeyStorageDeps {
  safeStorage: Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'>;
  /** The key file is there already: the person chose it before, or the browser mode made it. */
  keyFileExists: boolean;
  keyFileCipher: () => SecretCipher;
  /** Ask the question (a dialog); true means "use a key file". */
  askToUseKeyFile: (question: string) => Promise<boolean>;
}

export const KEYCHAIN_QUESTION =
  'The system keychain is not available, so API keys cannot be sealed with it. Store the keys you ' +
  'add encrypted with a key file in the data folder instead? Anyone who can read that folder can use them. ' +
  'Without it, keys are not stored: give them with RESOLUTE_API_KEY or --api-key-file for each run.';

const DECLINED =
  'API keys are not stored: the system keychain is not available and a key file was declined. ' +
  'Give a key with RESOLUTE_API_KEY or --api-key-file, or start again and accept the key file.';

export async function chooseKeyStorage(deps: KeyStorageDeps): Promise<SecretCipher> {
  const { safeStorage } = deps;
  if (safeStorage.isEncryptionAvailable()) {
    return {
      encrypt: (plain) => safeStorage.encryptString(plain).toString('base64'),
      decrypt: (sealed) => safeStorage.decryptString(Buffer.from(sealed, 'base64')),
    };
  }
  if (deps.keyFileExists || (await deps.askToUseKeyFile(KEYCHAIN_QUESTION))) {
    // Made on first use, which comes after the data folder's lock is taken.
    let keyFile: SecretCipher | undefined;
    const cipher = (): SecretCipher => (keyFile ??= deps.keyFileCipher());
    return {
      encrypt: (plain) => cipher().encrypt(plain),
      decrypt: (sealed) => cipher().decrypt(sealed),
      note: codedNotice(
        'keychain_key_file',
        {},
        'The system keychain is not available: API keys are sealed with the key file in the data folder.',
      ),
    };
  }
  const refuse = (): never => {
    throw new Error(DECLINED);
  };
  return { encrypt: refuse, decrypt: refuse, note: codedNotice('keys_not_stored', {}, DECLINED) };
}

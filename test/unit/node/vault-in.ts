// A CredentialVault sealed with a file key in a test's own folder, on the test's clock: shared by
// credential-store.test.ts and credential-vault-keys.test.ts, which each make a fresh folder per test.
import { join } from 'node:path';
import { CredentialVault, fileKeyCipher } from '../../../src/main/node/credential-store';

export type VaultOptions = Partial<ConstructorParameters<typeof CredentialVault>[0]>;

export function vaultIn(dir: string, now: () => number, extra: VaultOptions = {}): CredentialVault {
  return new CredentialVault({ path: join(dir, 'credentials.json'), cipher: fileKeyCipher(dir), now, ...extra });
}

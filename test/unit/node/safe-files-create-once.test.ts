// createFileOnce (safe-files.ts) on a real folder: it creates a missing file whole and private, and
// leaves an existing one — and its folder — untouched. Every start opens the cipher's key file
// this way (credential-store.ts), so a key that is already there must cost a read, not a temp file
// written, fsynced and removed on the start-up path.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileKeyCipher, KEY_FILE_NAME } from '../../../src/main/node/credential-store';
import { createFileOnce, PRIVATE_FILE_MODE } from '../../../src/main/node/safe-files';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'resolute-once-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Set the folder's mtime to a fixed past moment: any file created or removed in it moves it. */
function pinFolderTime(): Date {
  const past = new Date('2020-01-01T00:00:00Z');
  utimesSync(dir, past, past);
  return past;
}

describe('createFileOnce', () => {
  it('creates a missing file with its data, mode 0600, and leaves no temp file', () => {
    const path = join(dir, 'key');
    expect(createFileOnce(path, 'first')).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('first');
    expect(statSync(path).mode & 0o777).toBe(PRIVATE_FILE_MODE);
    expect(readdirSync(dir)).toEqual(['key']);
  });

  it('an existing file is kept as it is, and nothing is written in its folder', () => {
    const path = join(dir, 'key');
    writeFileSync(path, 'kept');
    const past = pinFolderTime();
    expect(createFileOnce(path, 'second')).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('kept');
    expect(statSync(dir).mtimeMs).toBe(past.getTime());
  });

  it("the cipher's key file, opened again at a later start, costs no write", () => {
    const sealed = fileKeyCipher(dir).encrypt('sk-test');
    const key = readFileSync(join(dir, KEY_FILE_NAME), 'utf8');
    const past = pinFolderTime();
    expect(fileKeyCipher(dir).decrypt(sealed)).toBe('sk-test');
    expect(readFileSync(join(dir, KEY_FILE_NAME), 'utf8')).toBe(key);
    expect(statSync(dir).mtimeMs).toBe(past.getTime());
  });
});

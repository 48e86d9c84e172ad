// What Resolute writes is readable by its owner only, on a real file system: the data folder (and
// its logs folder) 0700; history.db with its -wal and -shm, the settings, the credentials, the
// cipher's key file and the decision log 0600 — also when the history, the key file or the
// credentials were left 0644 (an older version, a copy, a restore from a backup). POSIX modes only, so not on Windows.
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppServices } from '../../src/main/node/app-services';
import { openHistoryStore } from '../../src/main/node/history/sqlite-history-store';

let root = '';
afterEach(() => rmSync(root, { recursive: true, force: true }));

const mode = (path: string): string => (statSync(path).mode & 0o777).toString(8);

async function openAndWrite(dataDir: string): Promise<void> {
  const services = await AppServices.create({
    host: 'rpc',
    version: 'test',
    dataDir,
    overlay: { retry: { baseDelayMs: 1, jitterMaxMs: 0, maxRetries: 1 } },
    publish: () => undefined,
  });
  try {
    services.settings.update({ ui: { theme: 'dark' } });
    await services.domains.providers.addKey('openai', 'sk-mode-test-1234567890');
    services.simulator!.setScript('503,ok');
    await services.session.prompt('hello');
    for (const suffix of ['', '-wal', '-shm']) expect(mode(join(dataDir, `history.db${suffix}`)), suffix).toBe('600');
  } finally {
    await services.dispose();
  }
}

describe.skipIf(process.platform === 'win32')('file modes', () => {
  it('the data folder is 0700 and every file in it 0600, history.db -wal and -shm included', async () => {
    root = mkdtempSync(join(tmpdir(), 'resolute-modes-'));
    const dataDir = join(root, 'data');
    await openAndWrite(dataDir);
    expect(mode(dataDir)).toBe('700');
    expect(mode(join(dataDir, 'logs'))).toBe('700');
    for (const file of [
      'history.db',
      'settings.json',
      'credentials.json',
      '.credentials.key',
      'logs/retry-decisions.jsonl',
    ])
      expect(mode(join(dataDir, file)), file).toBe('600');
  });

  it('tightens a history.db that an older version left world-readable', async () => {
    root = mkdtempSync(join(tmpdir(), 'resolute-modes-'));
    const dataDir = join(root, 'data');
    openHistoryStore(join(dataDir, 'history.db')).close();
    chmodSync(join(dataDir, 'history.db'), 0o644);
    chmodSync(dataDir, 0o755);
    await openAndWrite(dataDir);
    expect(mode(join(dataDir, 'history.db'))).toBe('600');
    expect(mode(dataDir)).toBe('700');
  });

  it('tightens a world-readable .credentials.key and credentials.json already in the folder', async () => {
    root = mkdtempSync(join(tmpdir(), 'resolute-modes-'));
    const dataDir = join(root, 'data');
    await openAndWrite(dataDir);
    for (const file of ['.credentials.key', 'credentials.json']) chmodSync(join(dataDir, file), 0o644);
    const services = await AppServices.create({ host: 'rpc', version: 'test', dataDir, publish: () => undefined });
    try {
      expect(mode(join(dataDir, '.credentials.key'))).toBe('600');
      expect(mode(join(dataDir, 'credentials.json'))).toBe('600');
      expect(services.credentials.loadProblem).toBeNull();
    } finally {
      await services.dispose();
    }
  });
});

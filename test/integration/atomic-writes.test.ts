// Atomic writes of the settings and credentials files from two processes at once, on a real file
// system: each write goes to a temp file of its own and is renamed into place, so no write fails
// because another process renamed a shared temp file away, and the file is whole afterwards.
// (One instance per data folder is the rule — see data-lock.test.ts — so this is the second line
// of defence, and the case of a tool or a second copy writing the same file.)
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const HERE = dirname(fileURLToPath(import.meta.url));
const WRITER = join(HERE, 'fixtures', 'settings-writer.ts');
const dataDir = mkdtempSync(join(tmpdir(), 'resolute-atomic-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function writer(writes: number): Promise<{ failed: number; first: string | null }> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, dataDir, String(writes)], {
      cwd: resolve(HERE, '..', '..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => done(JSON.parse(out) as { failed: number; first: string | null }));
  });
}

describe('atomic writes', () => {
  it('two processes writing the same files at once lose no write', async () => {
    const results = await Promise.all([writer(150), writer(150)]);
    expect(results).toEqual([
      { failed: 0, first: null },
      { failed: 0, first: null },
    ]);
    expect(() => JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')) as unknown).not.toThrow();
    expect(() => JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')) as unknown).not.toThrow();
    expect(readdirSync(dataDir).filter((name) => name.includes('.tmp'))).toEqual([]);
  }, 60_000);
});

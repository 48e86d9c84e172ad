// The history's integrity check off the start-up path, end to end through the BUILT CLI in RPC
// mode (out/main/cli.js, or $RESOLUTE_CLI): a file closed cleanly and then damaged opens at once,
// the background check reports the damage as a notice, the next start refuses the file as a damaged
// file always was, and --reset-damaged-history moves it aside.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { RpcClient } from '../../src/main/modes/rpc/rpc-client';
import type { RpcEvent } from '../../src/main/modes/rpc/rpc-types';
import { openHistoryStore } from '../../src/main/node/history/sqlite-history-store';

const CLI = process.env.RESOLUTE_CLI ?? resolve('out/main/cli.js');
const dataDir = mkdtempSync(join(tmpdir(), 'resolute-integrity-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** A history of long turns, closed cleanly, whose turns b-tree root page is then overwritten. */
function writeDamagedHistory(path: string): void {
  const store = openHistoryStore(path);
  store.ensureSession({ id: 's', title: 'damaged', model: 'm', provider: 'p', createdAt: 1 });
  for (let n = 0; n < 200; n += 1)
    store.appendTurn({
      sessionId: 's',
      message: { role: 'user', content: `turn ${n} ${'x'.repeat(400)}`, timestamp: n },
    });
  store.close();
  const probe = new Database(path, { readonly: true });
  const rootPage = Number(probe.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'turns'").pluck().get());
  probe.close();
  const bytes = readFileSync(path);
  const pageSize = bytes.readUInt16BE(16);
  bytes.fill(0xab, (rootPage - 1) * pageSize, rootPage * pageSize);
  writeFileSync(path, bytes);
}

function client(args: string[] = []): RpcClient {
  return new RpcClient({ cliPath: CLI, args: ['--data-dir', dataDir, ...args] });
}

describe('a damaged history found by the background check', () => {
  it('is reported after a quick start, refused on the next start, and moved aside on request', async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (npx electron-vite build)`);
    const path = join(dataDir, 'history.db');
    writeDamagedHistory(path);

    const first = client();
    const notices: string[] = [];
    const noticed = new Promise<void>((done) =>
      first.onEvent((event: RpcEvent) => {
        if (event.type === 'notice' && /damaged/.test(event.message)) {
          notices.push(event.message);
          done();
        }
      }),
    );
    // Start-up answers get_state without reading the whole file.
    const state = await first.start();
    expect(state.sessionId).toBeTruthy();
    await noticed;
    expect(notices[0]).toMatch(/history database at .*history\.db is damaged \(integrity check: .+\)/);
    expect(notices[0]).toContain('--reset-damaged-history');
    expect(first.stderr).toContain('is damaged');
    await first.stop();

    const second = client();
    await expect(second.start()).rejects.toThrow();
    expect(second.stderr).toMatch(/is damaged .*left untouched/);
    expect(second.stderr).toContain('--reset-damaged-history');
    await second.stop();

    const third = client(['--reset-damaged-history']);
    await third.start();
    await third.stop();
    expect(readdirSync(dataDir).filter((name) => /^history\.db\.damaged-[\dT-]+Z$/.test(name))).toHaveLength(1);
  }, 60_000);
});

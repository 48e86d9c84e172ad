// The history's integrity check off the start-up path, end to end through the BUILT CLI in RPC
// mode (out/main/cli.js, or $RESOLUTE_CLI): a file closed cleanly and then damaged opens at once,
// the background check reports the damage as a notice, the next start refuses the file as a damaged
// file always was, and --reset-damaged-history moves it aside. In-process, through the real command
// router: the damage is a start-up notice, so a window that connects later finds it in app.info.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, parseCommonFlags } from '../../src/main/modes/launch';
import { RpcClient } from '../fixtures/rpc-client';
import type { RpcEvent } from '../../src/main/modes/rpc/rpc-types';
import type { AppInfo } from '../../src/shared/contract';
import type { SessionEvent } from '../../src/shared/events';
import { writeDamagedHistory } from '../fixtures/history-files';
import { BUILD_TIMEOUT_MS, CLI, ensureBuiltCli } from './fixtures/built-cli';

beforeAll(ensureBuiltCli, BUILD_TIMEOUT_MS);
const dataDir = mkdtempSync(join(tmpdir(), 'resolute-integrity-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function client(args: string[] = []): RpcClient {
  return new RpcClient({ cliPath: CLI, args: ['--data-dir', dataDir, ...args] });
}

describe('a damaged history found by the background check', () => {
  it('is reported after a quick start, refused on the next start, and moved aside on request', async () => {
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

describe('the damage notice', () => {
  it('is kept with the start-up notices for a client that connects later, and sent once to those connected', async () => {
    const folder = mkdtempSync(join(dataDir, 'in-process-'));
    writeDamagedHistory(join(folder, 'history.db'));
    const app = await launchApp(parseCommonFlags(['--data-dir', folder]), 'browser');
    const events: SessionEvent[] = [];
    app.hub.subscribe((event) => events.push(event));
    const notices = async () => {
      const reply = await app.router.dispatch({ kind: 'request', id: 1, method: 'app.info', params: {} });
      return (reply as { result: AppInfo }).result.notices;
    };
    try {
      expect(await notices()).toEqual([]);
      await expect.poll(notices, { timeout: 30_000, interval: 100 }).toHaveLength(1);
      const [notice] = await notices();
      expect(notice).toMatchObject({
        level: 'error',
        message: expect.stringMatching(/is damaged .*--reset-damaged-history/),
      });
      expect(events.filter((e) => e.type === 'notice')).toEqual([{ type: 'notice', ...notice }]);
    } finally {
      await app.services.dispose();
    }
  }, 60_000);
});

// The background load of pi-ai (src/main/modes/launch.ts warmUpWhenQuiet) in a host with a window:
// nothing loads while the window has not started (its page load must not be slowed), and pi-ai
// is in once its first requests have passed, before any prompt. Real app, real router, temp data.
// pi-ai's module state is per test file (vitest isolates files), so nothing else loaded it here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { isPiRuntimeLoaded, isPiRuntimeRequested } from '../../src/main/core/llm/pi-runtime';
import { launchApp, parseCommonFlags } from '../../src/main/modes/launch';

const dataDir = mkdtempSync(join(tmpdir(), 'resolute-warm-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('loads pi-ai once the window has made its first requests, not before, with no prompt', async () => {
  const app = await launchApp(parseCommonFlags(['--data-dir', dataDir]), 'browser');
  try {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(isPiRuntimeRequested()).toBe(false);
    const reply = await app.router.dispatch({ kind: 'request', id: 1, method: 'app.info', params: {} });
    expect(reply).toMatchObject({ ok: true });
    await expect.poll(isPiRuntimeLoaded, { timeout: 10_000, interval: 50 }).toBe(true);
  } finally {
    await app.services.dispose();
  }
});

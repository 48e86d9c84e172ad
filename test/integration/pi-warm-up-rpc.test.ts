// The background load of pi-ai (src/main/modes/launch.ts) in the RPC mode, which has no window: it
// begins with the launch, before the first command, and a client that keeps asking (get_state in
// a loop) does not put it off. Real app, real router, temp data; a file of its own, since pi-ai's
// module state is per test file (vitest isolates files).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { isPiRuntimeLoaded, isPiRuntimeRequested } from '../../src/main/core/llm/pi-runtime';
import { launchApp, parseCommonFlags } from '../../src/main/modes/launch';

const dataDir = mkdtempSync(join(tmpdir(), 'resolute-warm-rpc-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('starts loading pi-ai at launch, with no command, and finishes while commands keep coming', async () => {
  const app = await launchApp(parseCommonFlags(['--data-dir', dataDir]), 'rpc');
  try {
    expect(isPiRuntimeRequested()).toBe(true);
    let id = 0;
    await expect
      .poll(
        async () => {
          id += 1;
          await app.router.dispatch({ kind: 'request', id, method: 'app.info', params: {} });
          return isPiRuntimeLoaded();
        },
        { timeout: 20_000, interval: 50 },
      )
      .toBe(true);
  } finally {
    await app.services.dispose();
  }
});

// Test connection clicked right after a provider switch tests the provider switched to: the switch
// waits for pi-ai's catalogue before it applies, and the test's command, handled meanwhile, waits
// for it (SettingsDomain.settled). Before, the test read the provider being left — the simulator
// answered "✓ Connected", and the window then judged that answer stale and showed nothing.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppServices } from '../../src/main/node/app-services';

let root: string;
let services: AppServices | null = null;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'resolute-test-order-'));
  mkdirSync(join(root, 'ws'));
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await services?.dispose();
  services = null;
  rmSync(root, { recursive: true, force: true });
});

describe('Test connection right after a provider switch', () => {
  it('tests the provider switched to, not the one being left', async () => {
    // No key from this machine's environment may answer for Anthropic.
    vi.stubEnv('ANTHROPIC_API_KEY', undefined);
    services = await AppServices.create({
      host: 'rpc',
      version: 'test',
      dataDir: join(root, 'data'),
      workspace: join(root, 'ws'),
      publish: () => undefined,
    });
    const { settings, providers } = services.domains;
    // Both commands are handled as they arrive, as the router does: the second is not awaited behind the first.
    const switched = settings.commands['settings.update']({ patch: { provider: { id: 'anthropic' } } });
    const tested = providers.commands['providers.test']();
    const [values, result] = await Promise.all([switched, tested]);
    expect(values.provider.id).toBe('anthropic');
    expect(result).toMatchObject({ ok: false, provider: 'anthropic', missing: 'key' });
  });
});

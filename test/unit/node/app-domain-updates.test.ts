// Settings → About's source (src/main/node/domains/app-domain.ts): app.info carries the updater's
// status and app.checkForUpdates asks the desktop's updater; where there is none (the browser and
// RPC modes) both say so, with the version and its channel.
import { describe, expect, it } from 'vitest';
import { AppDomain, type AppDomainParts } from '../../../src/main/node/domains/app-domain';
import type { UpdateStatus } from '../../../src/shared/updates';

const parts = (updates?: AppDomainParts['updates']): AppDomainParts => ({
  host: 'browser',
  version: '0.3.0-beta.1',
  dataDir: '/d',
  logDir: '/d/logs',
  simulatorUrl: null,
  canPickFolder: false,
  toolsNote: () => null,
  mcpServers: () => [],
  publish: () => undefined,
  ...(updates ? { updates } : {}),
});

describe('the app domain and the updater', () => {
  it('says there is no updater outside the desktop app', async () => {
    const domain = new AppDomain(parts());
    const none = { version: '0.3.0-beta.1', channel: 'beta', update: { state: 'off', reason: 'not_desktop' } };
    expect(domain.info().updates).toEqual(none);
    expect(await domain.commands['app.checkForUpdates']()).toEqual(none);
  });

  it("answers with the desktop updater's status and check", async () => {
    const ready: UpdateStatus = { version: '0.3.0', channel: 'latest', update: { state: 'ready', version: '0.4.0' } };
    let checks = 0;
    const domain = new AppDomain(
      parts({
        status: () => ready,
        check: () => {
          checks += 1;
          return Promise.resolve(ready);
        },
      }),
    );
    expect(domain.info().updates).toBe(ready);
    expect(await domain.commands['app.checkForUpdates']()).toBe(ready);
    expect(checks).toBe(1);
  });
});

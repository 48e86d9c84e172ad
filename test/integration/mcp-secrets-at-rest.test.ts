// MCP secrets kept like API keys (issue 46, item 3; docs/mcp.md, "Secrets"): a stdio server's env
// values and an HTTP server's headers are sealed in mcp-secrets.json, never written to settings.json
// or a log, masked for every client, kept when a masked value comes back, and moved out of a
// settings.json of an older version on its first load. The server still gets the real value.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fileKeyCipher } from '../../src/main/node/credential-store';
import { isMaskedSecret } from '../../src/shared/mcp-values';
import type { Settings } from '../../src/shared/settings';
import { freePort, serverStatus } from './fixtures/mcp-servers';
import { startServices, type Started } from './fixtures/services';

const ENV_SECRET = 'ghp_envSecret_7Q2vX9kLm4';
const HEADER_SECRET = 'Bearer hdr-secret-51c0ffee93';
// The server prints its token reversed (proof it got the real value) and as it is (to be redacted).
const SERVER = `const t = process.env.MY_TOKEN || ''; process.stderr.write('got ' + [...t].reverse().join('') + ' raw ' + t + '\\n'); process.exit(1);`;

let root: string;
let dataDir: string;
let app: Started;

/** Every file of the data folder but the sealed ones, as text: what must never hold a secret. */
function plainFiles(dir: string): string {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(plainFiles(path));
    else if (!name.endsWith('.db') && !name.endsWith('.db-wal') && name !== 'mcp-secrets.json')
      out.push(readFileSync(path, 'utf8'));
  }
  return out.join('\n');
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'resolute-mcp-secrets-'));
  dataDir = join(root, 'data');
  mkdirSync(dataDir);
  // settings.json as an older version wrote it: the env value in the clear.
  const old = {
    mcp: { servers: { local: { command: process.execPath, args: ['-e', SERVER], env: { MY_TOKEN: ENV_SECRET } } } },
  };
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(old));
  app = await startServices({}, { dataDir, workspace: join(root, 'ws') });
}, 30_000);

afterAll(async () => {
  await app?.stop();
  rmSync(root, { recursive: true, force: true });
});

it('moves a plain env value of an older settings.json into the sealed store, and the server still gets it', async () => {
  expect(readFileSync(join(dataDir, 'settings.json'), 'utf8')).not.toContain(ENV_SECRET);
  const sealed = readFileSync(join(dataDir, 'mcp-secrets.json'), 'utf8');
  expect(sealed).not.toContain(ENV_SECRET);
  const stored = JSON.parse(sealed) as Record<string, Record<string, string>>;
  expect(fileKeyCipher(dataDir).decrypt(stored.local['env.MY_TOKEN'])).toBe(ENV_SECRET);
  expect(statSync(join(dataDir, 'mcp-secrets.json')).mode & 0o077).toBe(0);
  await serverStatus(app.services, 'local', 'failed');
  const reversed = [...ENV_SECRET].reverse().join('');
  await expect.poll(() => readFileSync(app.services.mcp.logPath('local'), 'utf8')).toContain(`got ${reversed}`);
});

it('keeps an HTTP header sealed, masked for clients, and a masked value sent back keeps the secret', async () => {
  const port = await freePort();
  const reply = (await app.services.commands['settings.update']({
    patch: {
      mcp: { servers: { web: { url: `http://127.0.0.1:${port}/mcp`, headers: { Authorization: HEADER_SECRET } } } },
    },
  })) as Settings;
  const masked = (reply.mcp.servers.web as { headers: Record<string, string> }).headers.Authorization;
  expect(isMaskedSecret(masked)).toBe(true);
  expect(JSON.stringify(reply)).not.toContain(HEADER_SECRET);
  expect(JSON.stringify(app.events.filter((e) => e.type === 'settings_changed'))).not.toContain(HEADER_SECRET);
  // The edit form sends the masked value back with another change: the secret stays.
  await app.services.commands['settings.update']({
    patch: { mcp: { servers: { web: { headers: { Authorization: masked }, toolTimeoutMs: 5000 } } } },
  });
  expect((app.services.settings.get().mcp.servers.web as { headers: Record<string, string> }).headers).toEqual({
    Authorization: HEADER_SECRET,
  });
  await expect(
    app.services.commands['settings.update']({
      patch: { mcp: { servers: { web: { headers: { Authorization: '••••#00000000' } } } } },
    }),
  ).rejects.toThrow(/matches no stored one/);
  await serverStatus(app.services, 'web', 'failed');
});

it('no settings file, log or client-bound value holds a secret, and both come back after a restart', async () => {
  const written = [plainFiles(dataDir), JSON.stringify(await app.services.commands['settings.get']({}))].join('\n');
  expect(written).toContain('(kept in the credential store)');
  expect(written).toContain('got '); // the server's log is there, redacted
  for (const secret of [ENV_SECRET, HEADER_SECRET, 'hdr-secret-51c0ffee93']) expect(written).not.toContain(secret);
  await app.stop({ keepData: true });
  app = await startServices({}, { dataDir, workspace: join(root, 'ws') });
  const servers = app.services.settings.get().mcp.servers as Record<string, { env?: object; headers?: object }>;
  expect(servers.local.env).toEqual({ MY_TOKEN: ENV_SECRET });
  expect(servers.web.headers).toEqual({ Authorization: HEADER_SECRET });
});

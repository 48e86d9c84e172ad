// Secrets in an MCP server's URL stay out of every log (issue 40, item 14): its user and password
// and key-named query parameters never reach logs/mcp/<server>.log, the decision log or its status;
// and a URL with credentials — refused by fetch before any request, every time — fails at once
// with a reason saying how to mend it, instead of being retried forever.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { McpServerStatus } from '../../src/shared/mcp-values';
import { freePort, serverStatus } from './fixtures/mcp-servers';
import { startServices, type Started } from './fixtures/services';

const PASSWORD = 'hunter2-pass-9731';
const TOKEN = 'tok-5f3a9c1e77';
const KEY = 'k-88d1';

let app: Started;
let root: string;
let closedPort: number;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'resolute-mcp-url-'));
  closedPort = await freePort();
  const servers = {
    creds: { url: `http://alice:${PASSWORD}@127.0.0.1:${closedPort}/mcp?token=${TOKEN}` },
    refused: { url: `http://127.0.0.1:${closedPort}/mcp?token=${TOKEN}&api_key=${KEY}` },
    // A stdio bridge given the URL on its command line (as `mcp-remote` is); it exits at once.
    bridge: {
      command: process.execPath,
      args: ['-e', 'process.exit(1)', `https://bob:${PASSWORD}@example.com/mcp?key=${KEY}&access_token=${TOKEN}`],
    },
  };
  app = await startServices({ mcp: { servers } }, { workspace: join(root, 'ws') });
}, 30_000);

afterAll(async () => {
  await app.stop();
  rmSync(root, { recursive: true, force: true });
});

const read = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : '');
const decisions = () =>
  read(join(app.dataDir, 'logs', 'retry-decisions.jsonl'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { context: { modelId: string }; action: string; errorMessage: string });

it('a URL with credentials fails at once, with how to mend it, and is not tried again', async () => {
  const status = (await serverStatus(app.services, 'creds', 'failed')) as Extract<McpServerStatus, { state: 'failed' }>;
  const mine = decisions().filter((d) => d.context.modelId === 'creds');
  expect(mine.map((d) => d.action)).toEqual(['abort']);
  expect(status.nextAttemptAt).toBeUndefined();
  expect(status.reason).toMatch(/user name or password.*headers/);
});

it('no log, decision or status holds the URL’s password, token or key', async () => {
  // The refused server is retried: wait for its background attempt, so its failures are logged.
  await expect.poll(() => decisions().filter((d) => d.context.modelId === 'refused').length).toBeGreaterThan(1);
  await expect.poll(() => decisions().filter((d) => d.context.modelId === 'bridge').length).toBeGreaterThan(1);
  await serverStatus(app.services, 'refused', 'failed');
  const written = [
    read(join(app.dataDir, 'logs', 'retry-decisions.jsonl')),
    read(app.services.mcp.logPath('creds')),
    read(app.services.mcp.logPath('refused')),
    read(app.services.mcp.logPath('bridge')),
    JSON.stringify(app.services.mcp.statuses()),
    JSON.stringify(app.events.filter((e) => e.type === 'mcp_status')),
  ].join('\n');
  expect(written).toContain('refused');
  expect(written).toContain('example.com/mcp?key=');
  for (const secret of [PASSWORD, TOKEN, KEY]) expect(written).not.toContain(secret);
});

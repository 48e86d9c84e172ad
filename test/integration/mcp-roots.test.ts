// MCP roots (docs/mcp.md, "Roots"), opt-in with `roots: true`: the client then declares the roots
// capability and answers roots/list with the session's workspace. Against the reference servers:
// server-everything's get-roots-list (registered only for a client with roots) over stdio and over
// Streamable HTTP — where a new workspace is announced by roots/list_changed — and
// server-filesystem, which takes the roots as its allowed folders when it is started with none.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING, FILESYSTEM, serverStatus, startHttpEverything } from './fixtures/mcp-servers';
import { startServices, type Started } from './fixtures/services';

let app: Started;
let root: string;
let http: Awaited<ReturnType<typeof startHttpEverything>>;

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-mcp-roots-')));
  mkdirSync(join(root, 'ws'));
  http = await startHttpEverything('streamableHttp');
  app = await startServices(
    {
      tools: { approval: 'auto' },
      mcp: {
        servers: {
          rooted: { command: process.execPath, args: [EVERYTHING, 'stdio'], roots: true },
          plain: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
          fs: { command: process.execPath, args: [FILESYSTEM], roots: true },
          web: { url: http.url, roots: true },
        },
      },
    },
    { workspace: join(root, 'ws') },
  );
  for (const name of ['rooted', 'plain', 'fs', 'web']) await serverStatus(app.services, name, 'connected', 20_000);
}, 60_000);

afterAll(async () => {
  await app.stop();
  http.stop();
  rmSync(root, { recursive: true, force: true });
});

async function call(step: string): Promise<string> {
  app.sim.clearRequests();
  app.sim.setScript(`${step}, ok`);
  await app.services.session.prompt('go');
  return app.sim.requests[1]?.lastToolResult ?? '';
}

const toolNames = (name: string) => {
  const status = app.services.mcp.statuses().find((s) => s.name === name);
  return status?.state === 'connected' ? status.toolNames : [];
};

describe('roots: true', () => {
  it('answers roots/list with the workspace; a server without it is given no roots', async () => {
    expect(toolNames('rooted')).toContain('get-roots-list');
    expect(toolNames('plain')).not.toContain('get-roots-list');
    const result = await call('tool:mcp__rooted__get-roots-list:{}');
    expect(result).toContain(pathToFileURL(join(root, 'ws')).href);
    // Over HTTP too; the server keeps this list until it is told that it changed.
    expect(await call('tool:mcp__web__get-roots-list:{}')).toContain(pathToFileURL(join(root, 'ws')).href);
  });

  it('server-filesystem started with no folder works in the workspace it is given as its root', async () => {
    expect(await call('tool:mcp__fs__list_allowed_directories:{}')).toContain(join(root, 'ws'));
  });

  it('a new workspace: stdio servers start again with it, an HTTP server is told by roots/list_changed', async () => {
    const other = join(root, 'other');
    mkdirSync(other);
    app.services.domains.tools.setWorkspace(other);
    await serverStatus(app.services, 'fs', 'starting', 3000).catch(() => undefined);
    await serverStatus(app.services, 'fs');
    await serverStatus(app.services, 'rooted');
    expect(await call('tool:mcp__fs__list_allowed_directories:{}')).toContain(other);
    expect(await call('tool:mcp__rooted__get-roots-list:{}')).toContain(pathToFileURL(other).href);
    await expect
      .poll(() => call('tool:mcp__web__get-roots-list:{}'), { timeout: 5000 })
      .toContain(pathToFileURL(other).href);
  });
});

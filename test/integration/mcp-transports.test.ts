// MCP over each transport against the reference servers: server-filesystem over stdio (its cwd and
// allowed folder the workspace), server-everything over Streamable HTTP and over SSE (an older
// server's transport, found by the fallback), and approvals: an MCP tool asks first, Deny tells
// the model, and "always allow" holds only while the server's configuration is the one allowed.
// A sandboxed server runs inside bubblewrap and still works in the workspace.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpServerConfig } from '../../src/shared/mcp';
import { mcpConfigHash } from '../../src/shared/mcp-values';
import type { ApprovalRequest } from '../../src/shared/tools';
import { FILESYSTEM, serverStatus, startHttpEverything } from './fixtures/mcp-servers';
import { startServices, type Started } from './fixtures/services';

let app: Started;
let root: string;
let workspace: string;
const http: { stop: () => void }[] = [];
let streamableUrl = '';
let sseUrl = '';

const filesystem = (): McpServerConfig => ({ command: process.execPath, args: [FILESYSTEM, workspace] });

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'resolute-mcp-tr-'));
  workspace = join(root, 'ws');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'note.txt'), 'a note in the workspace\n');
  const [streamable, sse] = await Promise.all([startHttpEverything('streamableHttp'), startHttpEverything('sse')]);
  http.push(streamable, sse);
  streamableUrl = streamable.url;
  sseUrl = sse.url;
  app = await startServices(
    {
      tools: { approval: 'auto' },
      mcp: {
        servers: {
          fs: filesystem(),
          web: { url: streamableUrl },
          old: { url: sseUrl },
          boxed: { command: process.execPath, args: [FILESYSTEM, workspace], sandbox: true, network: false },
        },
      },
    },
    { workspace },
  );
  await Promise.all(['fs', 'web', 'old'].map((name) => serverStatus(app.services, name)));
}, 40_000);

afterAll(async () => {
  await app?.stop();
  for (const server of http) server.stop();
  rmSync(root, { recursive: true, force: true });
});

async function callTool(step: string): Promise<string | null> {
  app.sim.clearRequests();
  app.sim.setScript(`${step}, ok`);
  await app.services.session.prompt('go');
  return app.sim.requests[1]?.lastToolResult ?? null;
}

describe('transports', () => {
  it('server-filesystem over stdio reads a file of the workspace', async () => {
    const path = JSON.stringify(join(workspace, 'note.txt'));
    expect(await callTool(`tool:mcp__fs__read_text_file:{"path":${path}}`)).toBe('a note in the workspace\n');
  });

  it('server-filesystem writes in the workspace, and refuses a path outside it as a result', async () => {
    const inside = JSON.stringify(join(workspace, 'made.txt'));
    await callTool(`tool:mcp__fs__write_file:{"path":${inside},"content":"made by mcp"}`);
    expect(readFileSync(join(workspace, 'made.txt'), 'utf8')).toBe('made by mcp');
    const outside = JSON.stringify(join(root, 'outside.txt'));
    expect(await callTool(`tool:mcp__fs__write_file:{"path":${outside},"content":"no"}`)).toMatch(
      /Access denied|outside allowed/i,
    );
  });

  it('server-everything over Streamable HTTP', async () => {
    expect(await callTool('tool:mcp__web__echo:{"message":"over http"}')).toBe('Echo: over http');
  });

  it('server-everything over SSE, reached by the fallback from Streamable HTTP', async () => {
    expect(await callTool('tool:mcp__old__echo:{"message":"over sse"}')).toBe('Echo: over sse');
  });

  it('a sandboxed server runs inside bubblewrap and works in the workspace', async () => {
    await serverStatus(app.services, 'boxed');
    const note = JSON.stringify(join(workspace, 'note.txt'));
    expect(await callTool(`tool:mcp__boxed__read_text_file:{"path":${note}}`)).toBe('a note in the workspace\n');
    const log = readFileSync(join(app.dataDir, 'logs', 'mcp', 'boxed.log'), 'utf8');
    expect(log).toMatch(/starting .*\/bwrap /);
  });
});

describe('approvals', () => {
  /** Answer the next approval request with `choice`; returns it. */
  function answerNext(choice: 'once' | 'deny'): Promise<ApprovalRequest> {
    return new Promise((resolve) => {
      const from = app.events.length;
      const timer = setInterval(() => {
        const event = app.events.slice(from).find((e) => e.type === 'tool_approval_request');
        if (event?.type !== 'tool_approval_request') return;
        clearInterval(timer);
        app.services.session.tools!.approvals.answer(event.request.id, choice);
        resolve(event.request);
      }, 5);
    });
  }

  it('an MCP tool asks first, with its arguments; Deny tells the model and nothing runs', async () => {
    await app.services.domains.settings.update({ tools: { approval: 'ask' } });
    const asked = answerNext('deny');
    const result = await callTool('tool:mcp__web__echo:{"message":"may I"}');
    const request = await asked;
    expect(request).toMatchObject({ toolName: 'mcp__web__echo', preview: { kind: 'arguments' } });
    expect(request.preview.kind === 'arguments' && request.preview.arguments).toContain('"message": "may I"');
    expect(result).toMatch(/user denied this tool call/);
  });

  it('always allowed for the configuration it was given; a changed configuration asks again', async () => {
    const config = filesystem();
    await app.services.domains.settings.update({
      tools: { approval: 'ask' },
      mcp: { allowed: { fs: { config: mcpConfigHash(config), tools: ['list_directory'] } } },
    });
    const path = JSON.stringify(workspace);
    expect(await callTool(`tool:mcp__fs__list_directory:{"path":${path}}`)).toMatch(/note\.txt/);
    expect(app.events.filter((e) => e.type === 'tool_approval_request').length).toBe(1);
    await app.services.domains.settings.update({
      mcp: { servers: { fs: { ...config, args: [FILESYSTEM, workspace, root] } } },
    });
    await serverStatus(app.services, 'fs');
    const asked = answerNext('once');
    expect(await callTool(`tool:mcp__fs__list_directory:{"path":${path}}`)).toMatch(/note\.txt/);
    expect((await asked).toolName).toBe('mcp__fs__list_directory');
  });
});

// MCP tools in RPC mode, through the BUILT CLI and RpcClient against the simulator over HTTP:
// `--set 'mcp.servers={…}'` starts server-everything in the background, a prompt does not wait for
// a server that never answers (its status says so), the MCP tool's call emits pi's
// tool_execution_start / end, and its approval is pi's extension_ui_request confirm.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RpcClient } from '../fixtures/rpc-client';
import type { RpcEvent, RpcExtensionUIRequest } from '../../src/main/modes/rpc/rpc-types';
import { simulatorForCli, startRpc } from './fixtures/built-cli';
import { EVERYTHING } from './fixtures/mcp-servers';

const { sim, url: simUrl } = simulatorForCli();
let root = '';
let client: RpcClient | null = null;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'resolute-rpc-mcp-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(async () => {
  await client?.stop();
  client = null;
});

const servers = JSON.stringify({
  everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
  // Never answers `initialize`: it stays "starting" for the whole test.
  silent: { command: '/bin/sh', args: ['-c', 'sleep 60'] },
});

async function start(): Promise<RpcEvent[]> {
  const started = await startRpc(simUrl(), root, ['--set', `mcp.servers=${servers}`]);
  client = started.client;
  return started.events;
}

describe('MCP tools over RPC', () => {
  it('a silent server holds no prompt; the tool asks by confirm and streams pi’s events', async () => {
    const events = await start();
    const rpc = client!;
    // A prompt does not wait for servers still starting: the tool is there once everything is up.
    const up = /"name":"everything","state":"connected"/;
    await expect.poll(() => events.some((e) => up.test(JSON.stringify(e))), { timeout: 30_000 }).toBe(true);
    rpc.onEvent((event) => {
      if (event.type === 'extension_ui_request') rpc.respondToUi(event.id, true);
    });
    sim.clearRequests();
    sim.setScript('tool:mcp__everything__echo:{"message":"over rpc"}, ok');
    // The silent server never answers: a first prompt that waited for it would never end.
    await rpc.promptAndWait('echo it');

    const confirm = events.find((e): e is RpcExtensionUIRequest => e.type === 'extension_ui_request');
    expect(confirm).toMatchObject({ method: 'confirm', title: 'Allow mcp__everything__echo?' });
    expect(confirm?.message).toContain('"message": "over rpc"');
    expect(events.find((e) => e.type === 'tool_execution_start')).toMatchObject({
      toolName: 'mcp__everything__echo',
      args: { message: 'over rpc' },
    });
    expect(events.find((e) => e.type === 'tool_execution_end')).toMatchObject({
      toolName: 'mcp__everything__echo',
      isError: false,
      result: { content: [{ type: 'text', text: 'Echo: over rpc' }] },
    });
    expect(sim.requests[1].lastToolResult).toBe('Echo: over rpc');
    const statuses = events.filter((e) => (e.type as string) === 'mcp_status');
    expect(JSON.stringify(statuses.at(-1))).toMatch(/"name":"silent","state":"(starting|failed)"/);
  });
});

// The file history in RPC mode, through the BUILT CLI (out/main/cli.js) and RpcClient against the
// simulator over real HTTP: get_file_changes lists what a scripted write did, and undo_changes
// previews, undoes and redoes it (docs/rpc-protocol.md, "File history").
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RpcClient } from '../fixtures/rpc-client';
import { SimulatorServer } from '../../src/main/node/simulator/simulator-server';
import { BUILD_TIMEOUT_MS, CLI, ensureBuiltCli } from './fixtures/built-cli';

const sim = new SimulatorServer({ chunkDelayMs: 1 });
let simUrl = '';
const root = mkdtempSync(join(tmpdir(), 'resolute-rpc-files-'));
const workspace = join(root, 'ws');

beforeAll(async () => {
  ensureBuiltCli();
  simUrl = await sim.start();
}, BUILD_TIMEOUT_MS);
afterAll(async () => {
  await sim.stop();
  rmSync(root, { recursive: true, force: true });
});

it('get_file_changes and undo_changes: preview, undo, redo', async () => {
  const client = new RpcClient({
    cliPath: CLI,
    args: [
      '--base-url',
      simUrl,
      '--model',
      'resolute-sim-1',
      '--data-dir',
      join(root, 'data'),
      '--workspace',
      workspace,
    ].concat(['--set', 'tools.approval=auto']),
    env: { OPENAI_LOG: 'off' },
  });
  await client.start();
  try {
    sim.setScript('tool:write:{"path":"made.txt","content":"made\\n"}, ok');
    await client.promptAndWait('make a file');
    const listed = await client.call({ type: 'get_file_changes' });
    expect(listed.changes.map((c) => [c.toolName, c.path, c.kind, c.state])).toEqual([
      ['write', 'made.txt', 'created', 'applied'],
    ]);
    const turnId = listed.changes[0].userTurnId!;
    const preview = await client.call({ type: 'undo_changes', turnId, preview: true });
    expect(preview).toMatchObject({ status: 'preview', files: [{ path: 'made.txt', action: 'remove' }] });
    expect(existsSync(join(workspace, 'made.txt'))).toBe(true);
    expect((await client.call({ type: 'undo_changes', turnId })).status).toBe('done');
    expect(existsSync(join(workspace, 'made.txt'))).toBe(false);
    expect((await client.call({ type: 'undo_changes', turnId, redo: true })).status).toBe('done');
    expect(readFileSync(join(workspace, 'made.txt'), 'utf8')).toBe('made\n');
    const after = await client.call({ type: 'get_file_changes' });
    expect(after.undos.map((u) => u.action)).toEqual(['undo', 'redo']);
  } finally {
    await client.stop();
  }
});

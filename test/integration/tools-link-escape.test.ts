// The link escape of issue-level severity, end to end through the BUILT CLI in RPC mode against the
// simulator over real HTTP: the model builds a 41-link chain to $HOME with the sandboxed `bash`
// (exactly the attack that once read ~/.ssh), then asks `read` — which needs no approval — for a
// private key through it. The call must end the turn as `sandbox_security`, the key must never
// reach the model (the simulator's request log) or the events, and nothing is written outside.
import { existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RpcClient } from '../fixtures/rpc-client';
import type { RpcEvent } from '../../src/main/modes/rpc/rpc-types';
import { simulatorForCli, startRpc } from './fixtures/built-cli';

const { sim, url: simUrl } = simulatorForCli();
const KEY = 'PRIVATE-KEY-8f3a';
let root = '';
let client: RpcClient | null = null;

beforeEach(() => {
  sim.clearRequests();
  root = mkdtempSync(join(tmpdir(), 'resolute-link-escape-'));
  mkdirSync(join(root, 'home', '.ssh'), { recursive: true });
  mkdirSync(join(root, 'home', '.config'), { recursive: true }); // no autostart yet: `a` dangles
  writeFileSync(join(root, 'home', '.ssh', 'id_ed25519'), KEY);
});
afterEach(async () => {
  await client?.stop();
  client = null;
  rmSync(root, { recursive: true, force: true });
});

async function start(): Promise<RpcEvent[]> {
  const started = await startRpc(simUrl(), root, ['--set', 'tools.approval=auto'], { HOME: join(root, 'home') });
  client = started.client;
  return started.events;
}

const chain = 'ln -s $HOME h1; for i in $(seq 2 40); do ln -s h$((i-1)) h$i; done; ln -s h40 b';

describe('a link chain longer than the kernel follows', () => {
  it('read through it ends the turn as sandbox_security and the key never leaves', async () => {
    const events = await start();
    sim.setScript(`tool:bash:${JSON.stringify({ command: chain })}, tool:read:{"path":"b/.ssh/id_ed25519"}, ok`);
    await client!.promptAndWait('look around');
    expect(lstatSync(join(root, 'ws', 'b')).isSymbolicLink()).toBe(true); // the chain was really built
    const end = events.filter((e) => e.type === 'tool_execution_end').at(-1);
    expect(end).toMatchObject({ toolName: 'read', isError: true });
    expect(JSON.stringify(events)).not.toContain(KEY);
    expect(JSON.stringify(sim.requests)).not.toContain(KEY);
    const last = (await client!.getMessages()).at(-1) as { errorMessage?: string; stopReason?: string };
    expect(last.stopReason).toBe('error');
    expect(last.errorMessage).toMatch(/Refused: .*symbolic link/);
  });

  it('a dangling link through a link outside creates nothing outside', async () => {
    await start();
    sim.setScript(
      'tool:bash:{"command":"ln -s $HOME evil; ln -s evil/.config/autostart a"}, ' +
        'tool:write:{"path":"a/pwn.desktop","content":"[Desktop Entry]"}, ok',
    );
    await client!.promptAndWait('set it up');
    expect(existsSync(join(root, 'home', '.config', 'autostart'))).toBe(false);
  });
});

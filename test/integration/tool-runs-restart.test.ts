// A tool call in flight when the app goes (docs/tools.md, "Runs cut by a quit or a crash"): the
// built CLI in RPC mode runs a bash command that counts its runs in a file, prints, and waits; it is
// killed (SIGTERM, SIGKILL) mid-command. The next start on the same data folder shows the call with
// what it printed, read as interrupted; Continue tells the model it was cut off, and the command has
// run once in all. An MCP call cut the same way reads "result unknown" and is not called again.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SimulatorServer } from '../../src/main/node/simulator/simulator-server';
import { toolDetailsOf } from '../../src/shared/tools';
import type { TurnRecord } from '../../src/shared/history';
import { BUILD_TIMEOUT_MS, CLI, ensureBuiltCli } from './fixtures/built-cli';
import { FIXTURES } from './fixtures/mcp-servers';
import { startServices, type Started } from './fixtures/services';

const sim = new SimulatorServer({ chunkDelayMs: 1 });
let simUrl = '';
let root: string;
const apps: Started[] = [];

beforeAll(async () => {
  ensureBuiltCli();
  simUrl = await sim.start();
}, BUILD_TIMEOUT_MS);
afterAll(() => sim.stop());
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'resolute-tool-runs-'));
  mkdirSync(join(root, 'ws'));
  sim.clearRequests();
});
afterEach(async () => {
  for (const app of apps.splice(0)) await app.stop({ keepData: true });
  rmSync(root, { recursive: true, force: true });
});

const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : []);
const COUNTING_COMMAND = 'echo run >> count.txt; echo "started $(wc -l < count.txt)"; sleep 120';
const counter = () => ({
  command: process.execPath,
  args: [join(FIXTURES, 'mcp-counting-server.mjs')],
  env: { COUNT_FILE: join(root, 'mcp-calls.txt') },
});

interface Run {
  /** Before the prompt is sent (an MCP server connected). */
  startWhen?: (out: string) => boolean;
  /** Once this holds, the CLI is killed. */
  killWhen: (out: string) => boolean;
  sets?: string[];
}

/** The CLI runs `script`'s tool call, and is killed by `signal` while it runs. */
async function runAndKill(
  script: string,
  signal: NodeJS.Signals,
  { startWhen, killWhen, sets = [] }: Run,
): Promise<void> {
  sim.setScript(script);
  const args = ['--mode', 'rpc', '--base-url', simUrl, '--model', 'resolute-sim-1', '--data-dir', join(root, 'data')];
  const all = ['tools.approval=auto', ...sets].flatMap((s) => ['--set', s]);
  const child = spawn(process.execPath, [CLI, ...args, '--workspace', join(root, 'ws'), ...all], {
    env: { ...process.env, OPENAI_LOG: 'off' },
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
  const exited = new Promise((done) => child.once('exit', done));
  if (startWhen) await expect.poll(() => startWhen(out), { timeout: 30_000 }).toBe(true);
  child.stdin.write(`${JSON.stringify({ type: 'prompt', message: 'run it' })}\n`);
  await expect.poll(() => killWhen(out), { timeout: 30_000 }).toBe(true);
  child.kill(signal);
  await exited;
}

async function reopen(overlay: Record<string, unknown> = {}): Promise<Started> {
  const provider = { id: 'openai-compatible', model: 'resolute-sim-1', baseUrl: simUrl };
  const app = await startServices(
    { provider, tools: { approval: 'auto' }, ...overlay },
    { workspace: join(root, 'ws'), dataDir: join(root, 'data'), host: 'browser' },
  );
  apps.push(app);
  return app;
}

const resultOf = (turns: TurnRecord[], toolName: string) =>
  turns.find((t) => t.message.role === 'toolResult' && t.message.toolName === toolName);
const textOf = (turn: TurnRecord | undefined) => (turn?.message.role === 'toolResult' ? turn.text : '');

describe('a bash call cut off by the app going', () => {
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    it(`after a ${signal}: its output is kept, it reads interrupted, Continue goes on and it is not run again`, async () => {
      const count = join(root, 'ws', 'count.txt');
      await runAndKill(`tool:bash:${JSON.stringify({ command: COUNTING_COMMAND })}, ok`, signal, {
        killWhen: (out) => out.includes('started 1'),
      });
      expect(lines(count)).toEqual(['run']);

      const next = await reopen();
      const [row] = next.services.history.listSessions();
      // A window opens on the chat whose call a crash cut (a quit stored its result itself).
      if (signal === 'SIGKILL') expect(next.services.session.sessionId).toBe(row.id);
      next.services.domains.session.resumeSession(row.id);
      const turns = next.services.history.getSession(row.id)!.turns;
      const result = resultOf(turns, 'bash');
      expect(toolDetailsOf(result?.message.role === 'toolResult' ? result.message.details : null)).toMatchObject({
        interrupted: true,
      });
      expect(textOf(result)).toContain('started 1');
      expect(textOf(result)).toContain('Interrupted when Resolute stopped');

      sim.clearRequests();
      sim.setScript('ok');
      await next.services.domains.session.continueTurn();
      expect(sim.requests.map((r) => r.step)).toEqual(['ok']);
      expect(sim.requests[0].lastToolResult).toContain('was not run again');
      expect(lines(count)).toEqual(['run']);
    }, 90_000);
  }
});

describe('an MCP call cut off by a crash', () => {
  it('reads "result unknown", and Continue does not call the server again', async () => {
    const calls = join(root, 'mcp-calls.txt');
    const servers = `mcp.servers=${JSON.stringify({ counter: counter() })}`;
    await runAndKill('tool:mcp__counter__hang:{}, ok', 'SIGKILL', {
      startWhen: (out) => /"name":"counter","state":"connected"/.test(out),
      killWhen: () => lines(calls).includes('hang'),
      sets: [servers],
    });
    expect(lines(calls)).toEqual(['hang']);

    const next = await reopen({ mcp: { servers: { counter: counter() } } });
    const sessionId = next.services.session.sessionId;
    const result = resultOf(next.services.history.getSession(sessionId)!.turns, 'mcp__counter__hang');
    expect(textOf(result)).toContain('its result is unknown');
    sim.clearRequests();
    sim.setScript('ok');
    await next.services.domains.session.continueTurn();
    expect(sim.requests.map((r) => r.step)).toEqual(['ok']);
    expect(lines(calls)).toEqual(['hang']);
  }, 90_000);
});

// A tool call in flight when the app goes (docs/tools.md, "Runs cut by a quit or a crash"): the
// built CLI in RPC mode runs a bash command that counts its runs in a file, prints, and waits; it is
// killed (SIGTERM, SIGKILL) mid-command. The next start on the same data folder shows the call with
// what it printed, read as interrupted; Continue tells the model it was cut off, and the command has
// run once in all. An MCP call cut the same way reads "result unknown" and is not called again.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolDetailsOf } from '../../src/shared/tools';
import type { TurnRecord } from '../../src/shared/history';
import { FIXTURES } from './fixtures/mcp-servers';
import { restartRoom } from './fixtures/restart-room';
import type { Started } from './fixtures/services';

const room = restartRoom('resolute-tool-runs-');
const { sim } = room;

const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : []);
const COUNTING_COMMAND = 'echo run >> count.txt; echo "started $(wc -l < count.txt)"; sleep 120';
const counter = () => ({
  command: process.execPath,
  args: [join(FIXTURES, 'mcp-counting-server.mjs')],
  env: { COUNT_FILE: join(room.root(), 'mcp-calls.txt') },
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
  const cli = room.cli(['tools.approval=auto', ...sets]);
  if (startWhen) await expect.poll(() => startWhen(cli.out()), { timeout: 30_000 }).toBe(true);
  cli.send({ type: 'prompt', message: 'run it' });
  await expect.poll(() => killWhen(cli.out()), { timeout: 30_000 }).toBe(true);
  await cli.kill(signal);
}

function reopen(overlay: Record<string, unknown> = {}): Promise<Started> {
  return room.open({ tools: { approval: 'auto' }, ...overlay });
}

const resultOf = (turns: TurnRecord[], toolName: string) =>
  turns.find((t) => t.message.role === 'toolResult' && t.message.toolName === toolName);
const textOf = (turn: TurnRecord | undefined) => (turn?.message.role === 'toolResult' ? turn.text : '');

describe('a bash call cut off by the app going', () => {
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    it(`after a ${signal}: its output is kept, it reads interrupted, Continue goes on and it is not run again`, async () => {
      const count = join(room.root(), 'ws', 'count.txt');
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
    const calls = join(room.root(), 'mcp-calls.txt');
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

// An approval asked and not answered survives a restart (docs/tools.md, "Approvals"): the app goes
// while the card waits — a quit (AppServices disposed) or the built CLI killed with SIGTERM or
// SIGKILL — and the next start shows the card again in its chat and on its sidebar row; answering
// it runs the command once and the model goes on from its result. A denial goes back as a denial,
// and so does a new message sent instead of an answer.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DENIED_RESULT } from '../../src/shared/tools';
import { restartRoom } from './fixtures/restart-room';
import type { Started } from './fixtures/services';

const room = restartRoom('resolute-approval-restart-');
const { sim } = room;

const COMMAND = 'echo run >> count.txt; echo "ran $(wc -l < count.txt)"';
const SCRIPT = `tool:bash:${JSON.stringify({ command: COMMAND })}, ok`;
const runs = () => {
  const file = join(room.root(), 'ws', 'count.txt');
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];
};

const open = (): Promise<Started> => room.open({ tools: { approval: 'ask' } });

/** The first start asks for approval of the command; a quit ends it without an answer. */
async function askThenQuit(): Promise<void> {
  sim.setScript(SCRIPT);
  const first = await open();
  void first.services.session.prompt('count');
  await first.next('tool_approval_request');
  await room.quit(first);
}

/** The built CLI asks for approval of the command and is killed by `signal` before an answer. */
async function askThenKill(signal: NodeJS.Signals): Promise<void> {
  sim.setScript(SCRIPT);
  const cli = room.cli([]);
  cli.send({ type: 'prompt', message: 'count' });
  await expect.poll(() => cli.out().includes('"extension_ui_request"'), { timeout: 30_000 }).toBe(true);
  await cli.kill(signal);
}

describe('an approval left waiting', () => {
  for (const [how, leave] of [
    ['a quit', askThenQuit],
    ['a SIGTERM of the CLI', () => askThenKill('SIGTERM')],
    ['a SIGKILL of the CLI', () => askThenKill('SIGKILL')],
  ] as const) {
    it(`after ${how}: the card is back in its chat and on its row; Allow runs the command once and the run goes on`, async () => {
      await leave();
      expect(runs()).toEqual([]);
      const next = await open();
      const { session } = next.services.domains;
      // The start opens the chat whose question waits.
      const snapshot = session.snapshot();
      expect(snapshot.pendingApprovals).toEqual([expect.objectContaining({ toolName: 'bash' })]);
      expect(snapshot.activity).toContainEqual(
        expect.objectContaining({ sessionId: snapshot.sessionId, state: 'approval' }),
      );
      const [request] = snapshot.pendingApprovals;

      sim.clearRequests();
      sim.setScript('ok');
      expect(next.services.session.answerApproval(request.id, 'once')).toBe(true);
      await expect.poll(() => sim.requests.length, { timeout: 20_000 }).toBe(1);
      await next.services.session.settled();
      expect(sim.requests[0].lastToolResult).toContain('ran 1');
      expect(runs()).toEqual(['run']);
      const turns = next.services.history.getSession(snapshot.sessionId)!.turns;
      expect(turns.map((t) => t.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant']);
      expect(session.snapshot().pendingApprovals).toEqual([]);
      expect(next.services.history.toolRuns.chatsWaiting()).toEqual([]);
    }, 90_000);
  }

  it('shows on its sidebar row while another chat is shown; Deny tells the model, nothing runs', async () => {
    await askThenQuit();
    const next = await open();
    const { session } = next.services.domains;
    const waiting = session.snapshot().sessionId;
    session.newSession();
    expect(session.snapshot().activity).toContainEqual(
      expect.objectContaining({ sessionId: waiting, state: 'approval', attention: 'approval' }),
    );
    session.resumeSession(waiting);
    const [request] = session.snapshot().pendingApprovals;
    sim.clearRequests();
    sim.setScript('ok');
    expect(next.services.session.answerApproval(request.id, 'deny')).toBe(true);
    await expect.poll(() => sim.requests.length, { timeout: 20_000 }).toBe(1);
    await next.services.session.settled();
    expect(sim.requests[0].lastToolResult).toBe(DENIED_RESULT);
    expect(runs()).toEqual([]);
  }, 60_000);

  it('a new message instead of an answer counts as Deny: the card ends, the call is given the denial', async () => {
    await askThenQuit();
    const next = await open();
    const { session } = next.services.domains;
    const sessionId = session.snapshot().sessionId;
    expect(session.snapshot().pendingApprovals).toHaveLength(1);
    sim.clearRequests();
    sim.setScript('ok');
    await next.services.session.prompt('never mind');
    expect(sim.requests).toHaveLength(1);
    expect(session.snapshot().pendingApprovals).toEqual([]);
    const turns = next.services.history.getSession(sessionId)!.turns;
    expect(turns.map((t) => t.role)).toEqual(['user', 'assistant', 'toolResult', 'user', 'assistant']);
    expect(turns[2].text).toBe(DENIED_RESULT);
    expect(next.services.history.toolRuns.chatsWaiting()).toEqual([]);
    expect(runs()).toEqual([]);
  }, 60_000);
});

// The spending cap's question survives a restart (docs/tools.md, "The spending cap"): the built CLI
// asks it (RPC's confirm) and is stopped with SIGTERM, or the app quits, before an answer; the next
// start on the same data folder shows it again in its chat and on its sidebar row. Raise sends the
// request it held (the simulator sees it), Stop ends the turn as a stop with nothing sent.
import { describe, expect, it } from 'vitest';
import { STOPPED_AT_CAP } from '../../src/main/core/session/spending-cap';
import { restartRoom } from './fixtures/restart-room';
import type { Started } from './fixtures/services';

const room = restartRoom('resolute-cap-restart-');
const { sim } = room;

const CAP = { tokens: 1000 };
// About 1,250 tokens at four characters a token: past the cap on its own.
const LONG = `Summarise this: ${'word '.repeat(1000)}`;

const open = (): Promise<Started> => room.open({ agent: { budget: CAP } });

/** The built CLI asks the cap's question and is stopped with SIGTERM before an answer. */
async function askThenTerm(): Promise<void> {
  const cli = room.cli([`agent.budget=${JSON.stringify(CAP)}`]);
  cli.send({ type: 'prompt', message: LONG });
  await expect.poll(() => cli.out().includes('"extension_ui_request"'), { timeout: 30_000 }).toBe(true);
  await cli.kill('SIGTERM');
}

/** The app asks the cap's question and quits before an answer. */
async function askThenQuit(): Promise<void> {
  const first = await open();
  void first.services.session.prompt(LONG);
  await first.next('spending_cap_request');
  await room.quit(first);
}

describe("the spending cap's question left waiting", () => {
  for (const [how, leave] of [
    ['a SIGTERM of the CLI', askThenTerm],
    ['a quit', askThenQuit],
  ] as const) {
    it(`after ${how}: the question is back in its chat and on its row; Raise sends the request`, async () => {
      await leave();
      expect(sim.requests).toEqual([]);
      const next = await open();
      const { session } = next.services.domains;
      // The start opens the chat whose question waits.
      const snapshot = session.snapshot();
      expect(snapshot.spendingCap).toMatchObject({ sessionId: snapshot.sessionId, cap: CAP });
      expect(snapshot.activity).toContainEqual(
        expect.objectContaining({ sessionId: snapshot.sessionId, state: 'approval' }),
      );
      const turns = () => next.services.history.getSession(snapshot.sessionId)!.turns;
      expect(turns().map((t) => t.role)).toEqual(['user']);

      expect(next.services.session.answerSpendingCap(snapshot.spendingCap!.id, 'raise')).toBe(true);
      await expect.poll(() => sim.requests.length, { timeout: 20_000 }).toBe(1);
      await next.services.session.settled();
      expect(sim.requests[0].lastUserText).toContain('Summarise this');
      expect(turns().map((t) => t.role)).toEqual(['user', 'assistant']);
      expect(turns()[1]).toMatchObject({ stopReason: 'stop' });
      expect(next.services.history.sessionBudget(snapshot.sessionId)).toEqual(snapshot.spendingCap!.raiseTo);
      expect(session.snapshot().spendingCap).toBeNull();
      expect(next.services.history.spendingCapQuestion(snapshot.sessionId)).toBeNull();
      expect(next.services.history.toolRuns.chatsWaiting()).toEqual([]);
    }, 90_000);
  }

  it('Stop after the restart ends the turn as a stop, with nothing sent', async () => {
    await askThenTerm();
    const next = await open();
    const { session } = next.services.domains;
    const snapshot = session.snapshot();
    expect(snapshot.spendingCap).not.toBeNull();
    expect(next.services.session.answerSpendingCap(snapshot.spendingCap!.id, 'stop')).toBe(true);
    await expect
      .poll(() => next.services.history.getSession(snapshot.sessionId)!.turns.length, { timeout: 20_000 })
      .toBe(2);
    await next.services.session.settled();
    expect(sim.requests).toEqual([]);
    expect(next.services.session.isBusy).toBe(false);
    expect(next.services.history.getSession(snapshot.sessionId)!.turns.at(-1)).toMatchObject({
      role: 'assistant',
      stopReason: 'aborted',
      errorMessage: STOPPED_AT_CAP,
    });
    expect(session.snapshot().spendingCap).toBeNull();
    expect(next.services.history.toolRuns.chatsWaiting()).toEqual([]);
    // The chat goes on as any: the next prompt is held against the cap Stop left.
    const from = next.events.length;
    void next.services.session.prompt(LONG);
    await next.next('spending_cap_request', from);
    expect(sim.requests).toEqual([]);
  }, 90_000);
});

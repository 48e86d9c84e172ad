// The spending cap over real HTTP (docs/tools.md, "The spending cap"): a request that would pass
// the chat's cap is not sent — the simulator never sees it — until the person raises the cap; Stop
// ends the turn as a stop; a failed attempt's tokens count, so the cap can stop a retry. The day
// cap counts every chat's attempts since local midnight.
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicThroughSimulator, startServices, type Started } from './fixtures/services';
import { STOPPED_AT_CAP } from '../../src/main/core/session/spending-cap';

let app: Started;
afterEach(async () => {
  await app.stop();
});

/** What the shown chat has used, as the history totals it. */
const spentTokens = (app: Started): number =>
  app.services.history.sessionSummary(app.services.session.sessionId)?.usage?.tokens ?? 0;

describe('the spending cap', () => {
  it('pauses before the request that would pass it; Stop ends the turn, Raise sends it', async () => {
    app = await startServices();
    const { session } = app.services;
    await session.prompt('first');
    expect(app.sim.requests).toHaveLength(1);
    const spent = spentTokens(app);
    expect(spent).toBeGreaterThan(0);
    await app.services.commands['session.setBudget']({ budget: { tokens: spent + 1 } });
    expect(app.services.history.sessionBudget(session.sessionId)).toEqual({ tokens: spent + 1 });

    let from = app.events.length;
    const stopped = session.prompt('second');
    const asked = await app.next('spending_cap_request', from);
    expect(app.sim.requests).toHaveLength(1);
    expect(asked.request).toMatchObject({ spent: { tokens: spent }, cap: { tokens: spent + 1 } });
    expect(asked.request.estimate.costUsd).toBeNull();
    expect(session.snapshot({ turns: [], chains: [], decisions: [], hasOlderTurns: false }).spendingCap).toEqual(
      asked.request,
    );
    expect(app.services.commands['session.answerSpendingCap']({ id: asked.request.id, choice: 'stop' })).toEqual({
      answered: true,
    });
    await stopped;
    expect(app.sim.requests).toHaveLength(1);
    expect(session.isBusy).toBe(false);
    const last = app.services.history.getSession(session.sessionId)!.turns.at(-1)!;
    expect(last).toMatchObject({ role: 'assistant', stopReason: 'aborted', errorMessage: STOPPED_AT_CAP });
    expect(app.events.slice(from).filter((e) => e.type === 'auto_retry_start')).toEqual([]);

    from = app.events.length;
    const raised = session.prompt('third');
    const again = await app.next('spending_cap_request', from);
    expect(app.sim.requests).toHaveLength(1);
    session.answerSpendingCap(again.request.id, 'raise');
    await raised;
    expect(app.sim.requests).toHaveLength(2);
    expect(again.request.raiseTo.tokens).toBeGreaterThanOrEqual(2 * (spent + 1));
    expect(app.services.history.sessionBudget(session.sessionId)).toEqual(again.request.raiseTo);
    expect(app.events.slice(from)).toContainEqual({
      type: 'chat_budget_changed',
      sessionId: session.sessionId,
      budget: again.request.raiseTo,
    });
    const reply = app.services.history.getSession(session.sessionId)!.turns.at(-1)!;
    expect(reply).toMatchObject({ role: 'assistant', stopReason: 'stop' });
  });

  it('counts a failed attempt: the retry that would pass the cap waits, Raise sends it', async () => {
    // A long backoff, so the cap can be set while the retry waits; Retry now sends it.
    app = await startServices({ retry: { maxRetries: 2, baseDelayMs: 600_000 } });
    await anthropicThroughSimulator(app.services);
    const { session } = app.services;
    app.sim.setScript('stream_error, ok');
    let from = app.events.length;
    const run = session.prompt('count my tokens');
    await app.next('auto_retry_start', from);
    expect(app.sim.requests).toHaveLength(1);
    const paid = app.services.history.sessionSummary(session.sessionId)!.usage!;
    expect(paid.tokens).toBeGreaterThan(0);
    expect(paid.costUsd).toBeGreaterThan(0);
    await app.services.commands['session.setBudget']({ budget: { tokens: paid.tokens + 1 } });

    from = app.events.length;
    expect(session.retryNow()).toBe(true);
    const asked = await app.next('spending_cap_request', from);
    expect(app.sim.requests).toHaveLength(1);
    expect(asked.request.spent).toEqual({ tokens: paid.tokens, costUsd: paid.costUsd });
    expect(asked.request.estimate.costUsd).toBeGreaterThan(0);
    session.answerSpendingCap(asked.request.id, 'raise');
    await run;
    expect(app.sim.requests).toHaveLength(2);
    expect(app.services.history.getSession(session.sessionId)!.turns.at(-1)).toMatchObject({ stopReason: 'stop' });
  });

  it("counts every chat's spending today against the day cap; the question says so, Raise raises the day cap", async () => {
    app = await startServices();
    const { session, domains } = app.services;
    await session.prompt(`first chat: ${'word '.repeat(1000)}`);
    const first = spentTokens(app);
    domains.session.newSession();
    await session.prompt(`second chat: ${'word '.repeat(1000)}`);
    expect(app.sim.requests).toHaveLength(2);
    const today = app.services.history.spentSince(0).tokens;
    expect(today).toBe(first + spentTokens(app));
    // Each chat alone is far under the day cap; together they reach it.
    await domains.settings.update({ agent: { budget: { tokens: 100_000, perDay: { tokens: today + 1 } } } });

    domains.session.newSession();
    const from = app.events.length;
    const run = session.prompt('third chat');
    const asked = await app.next('spending_cap_request', from);
    expect(app.sim.requests).toHaveLength(2);
    expect(asked.request).toMatchObject({ scope: 'day', spent: { tokens: today }, cap: { tokens: today + 1 } });
    session.answerSpendingCap(asked.request.id, 'raise');
    await run;
    expect(app.sim.requests).toHaveLength(3);
    expect(app.services.settings.get().agent.budget).toEqual({ tokens: 100_000, perDay: asked.request.raiseTo });
    // The day's raise is the app's, not this chat's own cap.
    expect(app.services.history.sessionBudget(session.sessionId)).toBeNull();
    // Nothing counts from before local midnight.
    expect(app.services.history.spentSince(Date.now() + 60_000)).toEqual({ tokens: 0, costUsd: 0 });
  });

  it('refuses a bad cap with a clear error', async () => {
    app = await startServices();
    await expect(app.services.domains.settings.update({ agent: { budget: { usd: -1 } } })).rejects.toThrow(
      'agent.budget.usd: must be at least $0.01',
    );
  });
});

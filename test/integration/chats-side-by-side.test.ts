// Chats side by side over real HTTP (docs/architecture.md, "Chats side by side"): the real
// composition root and its simulator (a 503 with the backoff's first wait set long enough to act in). A chat whose retry waits is left for a new one, which
// answers meanwhile; each keeps its own chain, events and stored turns, and no event of the chat
// left reaches the windows, only its activity (sessions_activity) and its list row. It is shown
// again with its live state, says once that a reply came, shares one provider's rate-limit pacing
// with the others, and a quit keeps every waiting chain for the next start.
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionActivity, SessionEvent } from '../../src/shared/events';
import { messageText } from '../../src/shared/messages';
import { startServices, type Started } from './fixtures/services';

let app: Started | undefined;
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

/** The last activity list the windows were sent. */
function lastActivity(started: Started): SessionActivity[] {
  const events = started.events.filter((e) => e.type === 'sessions_activity');
  return events.at(-1)?.sessions ?? [];
}

/** Wait until `done` holds (a background chat finishes on its own time). */
async function until(done: () => boolean, ms = 15_000): Promise<void> {
  const started = Date.now();
  while (!done()) {
    if (Date.now() - started > ms) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const storedTexts = (started: Started, sessionId: string) =>
  started.services.history
    .getSession(sessionId)!
    .turns.map((t) => `${t.role}:${t.stopReason ?? ''}:${messageText(t.message)}`);

describe('two chats at once', () => {
  it('a chat waiting on a 503 runs on while another answers; each keeps its own chain, events and rows', async () => {
    app = await startServices({ retry: { baseDelayMs: 1500 } }, { host: 'browser' });
    app.sim.setScript('503,ok,ok');
    const first = app.services.session;
    const firstTurn = first.prompt('first chat');
    const start = await app.next('auto_retry_start');
    const firstId = first.sessionId;

    const switchedAt = app.events.length;
    const secondId = app.services.domains.session.newSession();
    expect(secondId).not.toBe(firstId);
    expect(app.services.session).not.toBe(first);
    expect(first.isRetrying).toBe(true);
    expect(app.services.domains.session.snapshot().activity).toContainEqual({
      sessionId: firstId,
      title: 'first chat',
      state: 'retrying',
      until: start.retryAt,
    });

    await app.services.session.prompt('second chat');
    await firstTurn;
    await until(() => app!.services.sessions.backgroundCount === 0);

    // Nothing of the first chat's run reached the windows after the switch but its list row and activity.
    const shownAfter = app.events.slice(switchedAt);
    const leaked = shownAfter.filter(
      (e: SessionEvent) =>
        (e.type === 'auto_retry_end' && e.chainId === start.chainId) ||
        (e.type === 'turn_persisted' && e.turn.sessionId === firstId) ||
        (e.type === 'message_end' && messageText(e.message).includes('first chat')),
    );
    expect(leaked).toEqual([]);
    expect(shownAfter.some((e) => e.type === 'history_changed' && e.sessionId === firstId)).toBe(true);

    expect(storedTexts(app, firstId)).toEqual([
      'user::first chat',
      expect.stringMatching(/^assistant:error:/),
      expect.stringMatching(/^assistant:stop:.*first chat/),
    ]);
    expect(storedTexts(app, secondId)).toEqual([
      'user::second chat',
      expect.stringMatching(/^assistant:stop:.*second chat/),
    ]);
    expect(app.services.history.getSession(firstId)!.chains).toEqual([
      expect.objectContaining({ id: start.chainId, outcome: 'recovered' }),
    ]);
    expect(app.services.history.getSession(secondId)!.chains).toEqual([]);

    // The reply that came while it was not shown is signalled once, until the chat is opened.
    expect(lastActivity(app)).toContainEqual({
      sessionId: firstId,
      title: 'first chat',
      state: 'idle',
      attention: 'reply',
    });
    app.services.domains.session.resumeSession(firstId);
    expect(lastActivity(app).find((a) => a.sessionId === firstId && a.attention)).toBeUndefined();
  });

  it('a chat left while it waits comes back with its banner, and its events reach the windows again', async () => {
    app = await startServices({ retry: { baseDelayMs: 2000 } }, { host: 'browser' });
    app.sim.setScript('503,ok,ok');
    const first = app.services.session;
    const firstTurn = first.prompt('come back to me');
    const start = await app.next('auto_retry_start');
    const firstId = first.sessionId;
    app.services.domains.session.newSession();

    const back = app.events.length;
    app.services.domains.session.resumeSession(firstId);
    expect(app.services.session).toBe(first);
    const changed = app.events.slice(back).find((e) => e.type === 'session_changed');
    expect(changed?.type === 'session_changed' && changed.snapshot).toMatchObject({
      sessionId: firstId,
      isRetrying: true,
      pendingRetry: { chainId: start.chainId, retryAt: start.retryAt },
    });
    await firstTurn;
    expect(app.events.slice(back)).toContainEqual(
      expect.objectContaining({ type: 'auto_retry_end', chainId: start.chainId, success: true }),
    );
    // The new chat left idle was let go; nothing works in the background.
    expect(app.services.sessions.backgroundCount).toBe(0);
  });

  it('a limit one chat hit holds the next prompt of another chat to the same model', async () => {
    app = await startServices({}, { host: 'browser' });
    app.sim.setScript('ok_limited:1.5');
    await app.services.session.prompt('uses the last request');
    // Its next prompt is held: the chat works, so the new chat gets an agent of its own.
    const firstHeld = app.services.session.prompt('held in the first chat');
    await app.next('rate_limit_wait');
    const first = app.services.session;
    app.services.domains.session.newSession();
    expect(app.services.session).not.toBe(first);
    const from = app.events.length;
    const second = app.services.session.prompt('waits in another chat');
    expect(await app.next('rate_limit_wait', from)).toMatchObject({
      provider: 'simulator',
      text: 'waits in another chat',
    });
    expect(app.sim.requests).toHaveLength(1);
    await Promise.all([firstHeld, second]);
    expect(app.sim.requests).toHaveLength(3);
  });

  it('a quit counts the waiting chains and keeps each for the next start', async () => {
    app = await startServices({ retry: { baseDelayMs: 30_000 } }, { host: 'browser' });
    app.sim.setScript('503,503');
    void app.services.session.prompt('one');
    await app.next('auto_retry_start');
    const oneId = app.services.session.sessionId;
    app.services.domains.session.newSession();
    const from = app.events.length;
    void app.services.session.prompt('two');
    await app.next('sessions_activity', from);
    await until(() => app!.services.session.isRetrying);
    expect(app.services.sessions.waitingChains()).toBe(2);
    const twoId = app.services.session.sessionId;
    const { dataDir } = app;
    await app.stop({ keepData: true });

    app = await startServices({}, { host: 'browser', dataDir });
    for (const sessionId of [oneId, twoId]) {
      const chains = app.services.history.getSession(sessionId)!.chains;
      expect(chains).toEqual([expect.objectContaining({ outcome: 'interrupted' })]);
    }
  });

  it('schedules a quit left in two chats are both taken up at the next start: the soonest shown, the other in the background', async () => {
    app = await startServices({ retry: { scheduleLongWaits: true } }, { host: 'browser' });
    app.sim.setScript('429:7200,429:3600');
    void app.services.session.prompt('in two hours');
    await app.next('auto_retry_start');
    const laterId = app.services.session.sessionId;
    app.services.domains.session.newSession();
    const from = app.events.length;
    void app.services.session.prompt('in one hour');
    // The first chat's 429 holds prompts to this model for two hours in every chat: sent anyway.
    await app.next('rate_limit_wait', from);
    expect(app.services.session.sendAnyway()).toBe(true);
    const soonest = await app.next('auto_retry_start', from);
    const soonestId = app.services.session.sessionId;
    const { dataDir } = app;
    await app.stop({ keepData: true });

    app = await startServices({ retry: { scheduleLongWaits: true } }, { host: 'browser', dataDir });
    expect(app.services.session.sessionId).toBe(soonestId);
    expect(app.services.session.pendingRetry).toMatchObject({ scheduled: true, retryAt: soonest.retryAt });
    expect(app.services.sessions.backgroundCount).toBe(1);
    expect(app.services.sessions.find(laterId)?.pendingRetry).toMatchObject({ scheduled: true });
    expect(app.services.domains.session.snapshot().activity).toEqual([
      expect.objectContaining({ sessionId: soonestId, state: 'scheduled', until: soonest.retryAt }),
      expect.objectContaining({ sessionId: laterId, state: 'scheduled', title: 'in two hours' }),
    ]);
  });

  it('an approval asked in a chat not shown is on its row; opened again, the card is there to answer', async () => {
    app = await startServices({ tools: { approval: 'ask' } }, { host: 'browser' });
    app.sim.setScript('tool:bash:{"command":"echo side-by-side"},ok');
    const first = app.services.session;
    const turn = first.prompt('run a command');
    const asked = await app.next('tool_approval_request');
    const firstId = first.sessionId;
    app.services.domains.session.newSession();
    expect(app.services.domains.session.snapshot().activity).toContainEqual({
      sessionId: firstId,
      title: 'run a command',
      state: 'approval',
      attention: 'approval',
    });

    app.services.domains.session.resumeSession(firstId);
    const shown = app.services.domains.session.snapshot();
    expect(shown.pendingApprovals).toEqual([expect.objectContaining({ id: asked.request.id })]);
    expect(shown.activity.find((a) => a.sessionId === firstId)).toMatchObject({ state: 'approval' });
    expect(shown.activity.find((a) => a.sessionId === firstId)?.attention).toBeUndefined();
    expect(app.services.commands['session.approveTool']({ id: asked.request.id, choice: 'once' })).toEqual({
      answered: true,
    });
    await turn;
    expect(storedTexts(app, firstId).at(-1)).toMatch(/^assistant:stop:/);
  });
});

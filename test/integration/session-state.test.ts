// One path for session state, through the real composition root and command router over real
// HTTP to the simulator: a resumed (or new) session reaches clients once, as session_changed, with
// its stored chains and decisions; history_changed carries the changed row (or the deletion); and
// auto-retry has one home, the settings, that session.getState does not duplicate.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandRouter } from '../../src/main/router/command-router';
import { AppServices } from '../../src/main/node/app-services';
import type { HistoryChangedEvent, SessionEvent, SessionSnapshot } from '../../src/shared/events';
import type { ResponseFrame } from '../../src/shared/wire';

let services: AppServices;
let router: CommandRouter;
let dataDir: string;
const events: SessionEvent[] = [];
let nextId = 1;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'resolute-state-'));
  services = await AppServices.create({
    host: 'rpc',
    version: 'test',
    dataDir,
    overlay: { retry: { baseDelayMs: 1, jitterMaxMs: 0 } },
    publish: (event) => events.push(event),
  });
  router = new CommandRouter(services.commands);
});

afterAll(async () => {
  await services.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});

async function call(method: string, params: object = {}): Promise<unknown> {
  const reply: ResponseFrame = await router.dispatch({ kind: 'request', id: nextId++, method, params });
  if (!reply.ok) throw new Error(`${reply.error.code}: ${reply.error.message}`);
  return reply.result;
}

/** Events published while `work` runs. */
async function during(work: () => Promise<unknown>): Promise<SessionEvent[]> {
  const from = events.length;
  await work();
  return events.slice(from);
}

const snapshots = (seen: SessionEvent[]): SessionSnapshot[] =>
  seen.flatMap((e) => (e.type === 'session_changed' ? [e.snapshot] : []));
const historyChanges = (seen: SessionEvent[]): HistoryChangedEvent[] =>
  seen.filter((e): e is HistoryChangedEvent => e.type === 'history_changed');

describe('one path for session state', () => {
  let firstId = '';

  it('every stored turn and closed chain is followed by history_changed carrying its session row as the list shows it', async () => {
    services.simulator!.setScript('503,ok');
    const seen = await during(() => services.session.prompt('remember the lighthouse'));
    firstId = services.session.sessionId;
    const persisted = seen.filter((e) => e.type === 'turn_persisted');
    const closed = seen.filter((e) => e.type === 'retry_chain_closed');
    const changes = historyChanges(seen);
    expect(persisted).toHaveLength(3);
    expect(closed).toHaveLength(1);
    expect(changes).toHaveLength(4);
    // Each change comes right after the turn or the chain end it follows.
    for (const change of changes)
      expect(seen[seen.indexOf(change) - 1].type).toMatch(/^(turn_persisted|retry_chain_closed)$/);
    expect(changes.at(-1)).toEqual({
      type: 'history_changed',
      sessionId: firstId,
      session: services.history.listSessions()[0],
    });
    // One exchange, which recovered: none ended in an error.
    expect(changes.at(-1)?.session).toMatchObject({
      title: 'remember the lighthouse',
      turnCount: 1,
      erroredTurnCount: 0,
    });
  });

  it('session.new answers with the id; the snapshot arrives once, as session_changed', async () => {
    let result: unknown;
    const seen = await during(async () => (result = await call('session.new')));
    expect(result).toEqual({ sessionId: services.session.sessionId });
    expect(snapshots(seen)).toEqual([expect.objectContaining({ sessionId: services.session.sessionId, turns: [] })]);
  });

  it('session.resume answers with the id; the one session_changed brings the turns, chains and decisions', async () => {
    let result: unknown;
    const seen = await during(async () => (result = await call('session.resume', { sessionId: firstId })));
    expect(result).toEqual({ sessionId: firstId });
    const [snapshot, ...more] = snapshots(seen);
    expect(more).toEqual([]);
    expect(snapshot.turns.map((t) => [t.role, t.stopReason])).toEqual([
      ['user', null],
      ['assistant', 'error'],
      ['assistant', 'stop'],
    ]);
    expect(snapshot.chains.map((c) => [c.outcome, c.attempts])).toEqual([['recovered', 1]]);
    expect(snapshot.decisions.map((d) => d.finalDecision)).toEqual([null, 'success']);
    expect(snapshot.turns[1].chainId).toBe(snapshot.chains[0].id);
  });

  it('session.getState holds the same stored records, and no copy of the auto-retry setting', async () => {
    const state = (await call('session.getState')) as SessionSnapshot & Record<string, unknown>;
    expect(state.chains).toHaveLength(1);
    expect(state.decisions).toHaveLength(2);
    expect(state).not.toHaveProperty('autoRetryEnabled');
    await call('settings.update', { patch: { retry: { enabled: false } } });
    expect(services.session.autoRetryEnabled).toBe(false);
    await expect(call('session.setAutoRetry', { enabled: true })).rejects.toThrow(/unknown_command/);
    await call('settings.update', { patch: { retry: { enabled: true } } });
  });

  it('deleting the current session says so with a null row, then starts a new session', async () => {
    const seen = await during(() => call('history.delete', { sessionId: firstId }));
    expect(historyChanges(seen)).toEqual([{ type: 'history_changed', sessionId: firstId, session: null }]);
    expect(snapshots(seen)).toEqual([expect.objectContaining({ turns: [], chains: [], decisions: [] })]);
    expect(services.session.sessionId).not.toBe(firstId);
  });
});

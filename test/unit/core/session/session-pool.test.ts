// The session pool's rules (docs/architecture.md, "Chats side by side") on small fake sessions: an
// idle chat is reused for the next one, a working one goes on in the background; events say whether
// their chat is shown; a background chat is let go once its work ends, with how it ended on its row
// until it is opened; one shown again comes back whole; a quit counts the waiting chains. The real
// sessions over HTTP are test/integration/chats-side-by-side.test.ts.
import { describe, expect, it } from 'vitest';
import type { AgentSession } from '../../../../src/main/core/session/agent-session';
import { activityOf, endOfRun } from '../../../../src/main/core/session/session-activity';
import { SessionPool } from '../../../../src/main/core/session/session-pool';
import type { SessionActivity, SessionEvent, SessionEventListener } from '../../../../src/shared/events';
import type { ChatMessage } from '../../../../src/shared/messages';

/** The members of AgentSession the pool and activityOf read, driven by hand. */
class FakeSession {
  sessionId: string;
  title = '';
  isBusy = false;
  isRetrying = false;
  isCompacting = false;
  pendingApprovalCount = 0;
  pendingRetry: AgentSession['pendingRetry'] = null;
  pacingWait: AgentSession['pacingWait'] = null;
  disposed = false;
  private listeners = new Set<SessionEventListener>();
  private done: () => void = () => undefined;
  private work: Promise<void> = Promise.resolve();

  constructor(id: string) {
    this.sessionId = id;
  }
  get isWorking(): boolean {
    return this.isBusy;
  }
  startWork(): void {
    this.isBusy = true;
    this.work = new Promise((resolve) => (this.done = resolve));
  }
  finishWork(): void {
    this.isBusy = false;
    this.isRetrying = false;
    this.pendingRetry = null;
    this.done();
  }
  settled(): Promise<void> {
    return this.work;
  }
  subscribe(listener: SessionEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  emit(event: SessionEvent): void {
    for (const listener of this.listeners) listener(event);
  }
  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
  }
  async shutdown(): Promise<void> {
    this.isRetrying = false;
  }
}

function pool() {
  const made: FakeSession[] = [];
  const events: { event: SessionEvent; id: string; isShown: boolean }[] = [];
  const lists: SessionActivity[][] = [];
  const sessions = new SessionPool({
    create: () => {
      const session = new FakeSession(`s${made.length + 1}`);
      made.push(session);
      return session as unknown as AgentSession;
    },
    onEvent: (event, session, isShown) => events.push({ event, id: session.sessionId, isShown }),
    onActivity: (list) => lists.push(list),
  });
  const fake = (session: AgentSession) => session as unknown as FakeSession;
  return { sessions, made, events, lists, fake };
}

const reply = (stopReason: 'stop' | 'error' | 'aborted'): SessionEvent => ({
  type: 'message_end',
  message: { role: 'assistant', content: [], stopReason, timestamp: 1 } as unknown as ChatMessage,
});

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('SessionPool', () => {
  it('reuses an idle chat for the next one, and keeps a working one running in the background', () => {
    const { sessions, made } = pool();
    const first = sessions.current;
    expect(sessions.vacate()).toBe(first);
    made[0].startWork();
    const second = sessions.vacate();
    expect(second).not.toBe(first);
    expect(sessions.current).toBe(second);
    expect(sessions.backgroundCount).toBe(1);
    expect(sessions.find('s1')).toBe(first);
  });

  it('tells whether each event comes from the shown chat', () => {
    const { sessions, made, events } = pool();
    made[0].startWork();
    sessions.vacate();
    made[0].emit({ type: 'agent_start' });
    made[1].emit({ type: 'agent_start' });
    expect(events.map(({ id, isShown }) => [id, isShown])).toEqual([
      ['s1', false],
      ['s2', true],
    ]);
  });

  it('lets a background chat go once its work ends, and says on its row how it ended until it is opened', async () => {
    const { sessions, made, lists } = pool();
    made[0].title = 'Plan';
    made[0].startWork();
    sessions.vacate();
    made[0].emit(reply('error'));
    made[0].emit(reply('stop'));
    made[0].finishWork();
    await tick();
    expect(sessions.backgroundCount).toBe(0);
    expect(made[0].disposed).toBe(true);
    expect(lists.at(-1)).toContainEqual({ sessionId: 's1', title: 'Plan', state: 'idle', attention: 'reply' });
    sessions.seen('s1');
    expect(sessions.activity().some((a) => a.sessionId === 's1')).toBe(false);
  });

  it('a failure is what a background chat whose last reply failed says', async () => {
    const { sessions, made } = pool();
    made[0].startWork();
    sessions.vacate();
    made[0].emit(reply('stop'));
    made[0].emit(reply('error'));
    made[0].finishWork();
    await tick();
    expect(sessions.activity()).toContainEqual(expect.objectContaining({ sessionId: 's1', attention: 'failed' }));
  });

  it('shows a background chat again whole; the idle chat it replaces is let go, a working one goes back', () => {
    const { sessions, made } = pool();
    made[0].startWork();
    sessions.vacate();
    expect(sessions.bringForward('s1')).toBe(true);
    expect(sessions.current).toBe(made[0] as unknown as AgentSession);
    expect(made[1].disposed).toBe(true);
    made[0].startWork();
    sessions.vacate();
    made[2].startWork();
    expect(sessions.bringForward('s1')).toBe(true);
    expect(sessions.find('s3')).toBe(made[2] as unknown as AgentSession);
    expect(sessions.bringForward('nope')).toBe(false);
  });

  it('marks an approval asked in a chat not shown, and counts the waiting chains for a quit', () => {
    const { sessions, made } = pool();
    made[0].startWork();
    made[0].pendingApprovalCount = 1;
    sessions.vacate();
    made[1].startWork();
    made[1].isRetrying = true;
    made[1].pendingRetry = { retryAt: 5000 } as AgentSession['pendingRetry'];
    expect(sessions.activity()).toEqual([
      { sessionId: 's2', title: '', state: 'retrying', until: 5000 },
      { sessionId: 's1', title: '', state: 'approval', attention: 'approval' },
    ]);
    expect(sessions.waitingChains()).toBe(1);
  });
});

describe('activityOf and endOfRun', () => {
  it('reads a held prompt, an offline pause, a schedule and a summary', () => {
    const session = new FakeSession('a');
    session.pacingWait = { provider: 'p', model: 'm', text: 'first words', until: 9, waitMs: 1 };
    expect(activityOf(session as unknown as AgentSession)).toEqual({
      sessionId: 'a',
      title: 'first words',
      state: 'pacing',
      until: 9,
    });
    session.pendingRetry = { offline: true } as AgentSession['pendingRetry'];
    expect(activityOf(session as unknown as AgentSession).state).toBe('offline');
    session.pendingRetry = { scheduled: true, retryAt: 7 } as AgentSession['pendingRetry'];
    expect(activityOf(session as unknown as AgentSession)).toMatchObject({ state: 'scheduled', until: 7 });
    session.pendingRetry = null;
    session.pacingWait = null;
    session.isCompacting = true;
    expect(activityOf(session as unknown as AgentSession).state).toBe('compacting');
  });

  it('a stopped reply says nothing; a chain that gave up is a failure, a cancelled one is not', () => {
    expect(endOfRun(reply('aborted'))).toBeNull();
    const end = (outcome: 'exhausted' | 'cancelled'): SessionEvent => ({
      type: 'auto_retry_end',
      success: false,
      attempt: 3,
      outcome,
      chainId: 'c',
    });
    expect(endOfRun(end('exhausted'))).toBe('failed');
    expect(endOfRun(end('cancelled'))).toBeNull();
  });
});

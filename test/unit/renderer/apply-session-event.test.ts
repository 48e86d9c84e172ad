// applySessionEvent: the renderer store's one reducer, event type by event type, plus the snapshot
// and history merges. Every state passed in is deep-frozen, so any mutation throws.
import { describe, expect, it } from 'vitest';
import type { SessionEvent, SessionEventType } from '../../../src/shared/events';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { applySessionEvent, applySnapshot } from '../../../src/renderer/src/store/apply-session-event';
import { initialState, MAX_NOTICES, SESSION_LIST_LIMIT, type AppState } from '../../../src/renderer/src/store/state';
import {
  OFFLINE_PAUSE,
  SESSION_ID,
  assistantMessage,
  chain,
  decision,
  erroredMessage,
  snapshot,
  summary,
  turn,
  userMessage,
} from './fixtures';
import { bashApproval } from '../../fixtures/approval-request';

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

const connected = (extra = {}): AppState => deepFreeze(applySnapshot(initialState(), snapshot(extra)));
const apply = (state: AppState, ...events: SessionEvent[]): AppState =>
  events.reduce((s, e) => applySessionEvent(deepFreeze(s), e), state);

const retryStart = (attempt = 1, extra = {}): SessionEvent => ({
  type: 'auto_retry_start',
  attempt,
  maxAttempts: 3,
  delayMs: 2000,
  errorMessage: '503 Service Unavailable',
  category: 'server_error',
  retryAt: 10_000,
  chainId: 'c1',
  ...extra,
});

/** One sample per event type: the mapped type makes the compiler demand every member of the union. */
const SAMPLES: { [K in SessionEventType]: Extract<SessionEvent, { type: K }> } = {
  agent_start: { type: 'agent_start' },
  agent_end: { type: 'agent_end', messages: [] },
  turn_start: { type: 'turn_start' },
  turn_end: { type: 'turn_end', message: assistantMessage('hi'), toolResults: [] },
  message_start: { type: 'message_start', message: assistantMessage('') },
  message_update: {
    type: 'message_update',
    message: assistantMessage('he'),
    assistantMessageEvent: { type: 'text_delta', delta: 'he' },
  },
  message_end: { type: 'message_end', message: assistantMessage('hello') },
  tool_execution_start: { type: 'tool_execution_start', toolCallId: 'x', toolName: 'read', args: {} },
  tool_execution_update: {
    type: 'tool_execution_update',
    toolCallId: 'x',
    toolName: 'read',
    args: {},
    partialResult: null,
  },
  tool_execution_end: { type: 'tool_execution_end', toolCallId: 'x', toolName: 'read', result: null, isError: false },
  auto_retry_start: retryStart() as Extract<SessionEvent, { type: 'auto_retry_start' }>,
  auto_retry_end: { type: 'auto_retry_end', success: true, attempt: 1, outcome: 'recovered', chainId: 'c1' },
  auto_retry_paused: OFFLINE_PAUSE,
  rate_limit_wait: {
    type: 'rate_limit_wait',
    provider: 'openai',
    model: 'gpt-4o',
    text: 'hi',
    until: 12_000,
    waitMs: 12_000,
  },
  rate_limit_wait_end: { type: 'rate_limit_wait_end', provider: 'openai', outcome: 'reset' },
  prompt_processing_start: { type: 'prompt_processing_start', startedAt: 1000 },
  prompt_processing_progress: { type: 'prompt_processing_progress', processed: 512, total: 2048 },
  prompt_processing_end: { type: 'prompt_processing_end' },
  auto_compaction_start: { type: 'auto_compaction_start', reason: 'overflow' },
  auto_compaction_end: { type: 'auto_compaction_end', aborted: false, willRetry: true },
  turn_persisted: { type: 'turn_persisted', turn: turn(1, userMessage('hi')) },
  retry_chain_closed: {
    type: 'retry_chain_closed',
    sessionId: SESSION_ID,
    chainId: 'c9',
    outcome: 'disabled',
    attempts: 0,
    finalError: '503',
  },
  retry_decision: { type: 'retry_decision', decision: decision('d1', 1) },
  session_changed: { type: 'session_changed', snapshot: snapshot() },
  settings_changed: { type: 'settings_changed', settings: DEFAULT_SETTINGS },
  mcp_status: { type: 'mcp_status', servers: [{ name: 'fs', state: 'starting' }] },
  update_status: {
    type: 'update_status',
    status: { version: '0.1.0', channel: 'latest', update: { state: 'ready', version: '0.2.0' } },
  },
  simulator_script: { type: 'simulator_script', usedUp: true },
  sessions_activity: {
    type: 'sessions_activity',
    sessions: [{ sessionId: 'other', title: 'Other chat', state: 'retrying', until: 5000 }],
  },
  history_changed: { type: 'history_changed', sessionId: SESSION_ID, session: summary(SESSION_ID, 5) },
  model_changed: {
    type: 'model_changed',
    model: { provider: 'simulator', id: 'resolute-sim-2', label: 'Simulator', isSimulator: true },
  },
  notice: { type: 'notice', level: 'info', message: 'hello' },
  tool_approval_request: {
    type: 'tool_approval_request',
    request: bashApproval({ toolCallId: 'x' }),
  },
  tool_approval_end: { type: 'tool_approval_end', id: 'a1', choice: 'once' },
  spending_cap_request: {
    type: 'spending_cap_request',
    request: {
      id: 'b1',
      sessionId: 's1',
      requestedAt: 1,
      spent: { tokens: 900, costUsd: 4.9 },
      estimate: { tokens: 100, costUsd: 0.2 },
      cap: { usd: 5 },
      raiseTo: { usd: 10 },
    },
  },
  spending_cap_end: { type: 'spending_cap_end', id: 'b1', choice: 'raise' },
  chat_budget_changed: { type: 'chat_budget_changed', sessionId: 's1', budget: { usd: 10 } },
};

describe('applySessionEvent', () => {
  it.each(Object.values(SAMPLES))('handles $type without mutating the state', (event) => {
    expect(() => apply(connected(), event)).not.toThrow();
  });

  it('ignores an event type it does not know (a newer main process)', () => {
    const state = connected();
    expect(applySessionEvent(state, { type: 'future_event' } as unknown as SessionEvent)).toBe(state);
  });

  it('agent_start / agent_end toggle streaming and clear the live message and tool', () => {
    let s = apply(connected(), SAMPLES.agent_start, SAMPLES.message_start, SAMPLES.tool_execution_start);
    expect(s.session.isStreaming).toBe(true);
    expect(s.session.streamingMessage).not.toBeNull();
    s = apply(s, SAMPLES.agent_end);
    expect(s.session).toMatchObject({ isStreaming: false, streamingMessage: null, activeToolName: null });
  });

  it('turn_start, turn_end and tool_execution_update leave the state as it is', () => {
    const s = connected();
    expect(apply(s, SAMPLES.turn_start)).toBe(s);
    expect(apply(s, SAMPLES.turn_end)).toBe(s);
    expect(apply(s, SAMPLES.tool_execution_update)).toBe(s);
  });

  it('message_start / message_update stream the assistant message; message_end parks it until persisted', () => {
    let s = apply(connected(), SAMPLES.message_start, SAMPLES.message_update);
    expect(s.session.streamingMessage).toEqual(SAMPLES.message_update.message);
    s = apply(s, SAMPLES.message_end);
    expect(s.session.streamingMessage).toBeNull();
    expect(s.session.pendingMessages).toEqual([SAMPLES.message_end.message]);
  });

  it('a user message shows at once (pending) and is replaced by its persisted turn', () => {
    const message = userMessage('hi', 1234);
    let s = apply(connected(), { type: 'message_start', message }, { type: 'message_end', message });
    expect(s.session.pendingMessages).toEqual([message]);
    s = apply(s, { type: 'turn_persisted', turn: turn(1, message) });
    expect(s.session.pendingMessages).toEqual([]);
    expect(s.session.turns.map((t) => t.id)).toEqual(['t1']);
  });

  it('turn_persisted matches by text when the store re-stamped the message, but not an older turn', () => {
    const message = userMessage('again', 5000);
    const s = apply(connected(), { type: 'message_start', message });
    const restamped = turn(2, { ...message, timestamp: 5001 }, { createdAt: 5001 });
    expect(apply(s, { type: 'turn_persisted', turn: restamped }).session.pendingMessages).toEqual([]);
    const older = turn(1, { ...message, timestamp: 10 }, { createdAt: 10 });
    expect(apply(s, { type: 'turn_persisted', turn: older }).session.pendingMessages).toEqual([message]);
  });

  it('turn_persisted keeps turns ordered by seq, replaces a turn with the same id and ignores other sessions', () => {
    let s = apply(
      connected(),
      { type: 'turn_persisted', turn: turn(2, assistantMessage('b')) },
      { type: 'turn_persisted', turn: turn(1, userMessage('a')) },
    );
    expect(s.session.turns.map((t) => t.seq)).toEqual([1, 2]);
    s = apply(s, { type: 'turn_persisted', turn: turn(2, assistantMessage('b2')) });
    expect(s.session.turns.map((t) => t.text)).toEqual(['a', 'b2']);
    const other = apply(s, { type: 'turn_persisted', turn: turn(3, userMessage('x'), { sessionId: 'other' }) });
    expect(other).toBe(s);
  });

  it('tool_execution_start / _end set and clear the running tool', () => {
    const s = apply(connected(), SAMPLES.tool_execution_start);
    expect(s.session.activeToolName).toBe('read');
    expect(apply(s, SAMPLES.tool_execution_end).session.activeToolName).toBeNull();
  });

  it('auto_retry_start shows the pending banner with the countdown target and marks the chain pending', () => {
    const s = apply(connected(), retryStart(2));
    expect(s.retry.banner).toEqual({
      kind: 'pending',
      attempt: 2,
      maxAttempts: 3,
      delayMs: 2000,
      errorMessage: '503 Service Unavailable',
      category: 'server_error',
      retryAt: 10_000,
      chainId: 'c1',
    });
    expect(s.session).toMatchObject({ isRetrying: true, retryAttempt: 2 });
    expect(s.session.chains.c1).toEqual({ outcome: 'pending', attempts: 2, finalError: null });
  });

  it('auto_retry_end success clears the banner and records the recovery', () => {
    const s = apply(connected(), retryStart(1), SAMPLES.auto_retry_end);
    expect(s.retry.banner).toBeNull();
    expect(s.session).toMatchObject({ isRetrying: false, retryAttempt: 0 });
    expect(s.session.chains.c1.outcome).toBe('recovered');
  });

  it('auto_retry_end failure leaves "failed" with the retries made and the final error until dismissed', () => {
    const s = apply(connected(), retryStart(3), {
      type: 'auto_retry_end',
      success: false,
      attempt: 3,
      finalError: '503 Service Unavailable',
      outcome: 'exhausted',
      chainId: 'c1',
    });
    expect(s.retry.banner).toEqual({
      kind: 'failed',
      retries: 3,
      outcome: 'exhausted',
      finalError: '503 Service Unavailable',
      chainId: 'c1',
    });
    expect(s.session.chains.c1).toEqual({ outcome: 'exhausted', attempts: 3, finalError: '503 Service Unavailable' });
  });

  it('a cancelled chain ends in the failed banner with "Retry cancelled"', () => {
    const s = apply(connected(), retryStart(1), {
      type: 'auto_retry_end',
      success: false,
      attempt: 1,
      finalError: 'Retry cancelled',
      outcome: 'cancelled',
      chainId: 'c1',
    });
    expect(s.retry.banner).toMatchObject({ kind: 'failed', outcome: 'cancelled', finalError: 'Retry cancelled' });
  });

  it('counts the banner retries from the chain failed turns, as the card does', () => {
    const failed = (seq: number) =>
      ({ type: 'turn_persisted', turn: turn(seq, erroredMessage(`503 #${seq}`, seq), { chainId: 'c1' }) }) as const;
    const s = apply(connected(), failed(1), failed(2), retryStart(1), {
      type: 'auto_retry_end',
      success: false,
      attempt: 7,
      finalError: '503 #2',
      outcome: 'exhausted',
      chainId: 'c1',
    });
    expect(s.retry.banner).toMatchObject({ retries: 1 });
  });

  it('settings_changed moves the shown model to the settings provider and model', () => {
    const provider = { ...DEFAULT_SETTINGS.provider, id: 'openai-compatible' as const, model: 'llama3.2' };
    const s = apply(connected(), { type: 'settings_changed', settings: { ...DEFAULT_SETTINGS, provider } });
    expect(s.session.model).toMatchObject({ provider: 'openai-compatible', id: 'llama3.2', isSimulator: false });
  });

  it('retry_chain_closed gives a chain of this session its stored outcome; another session is ignored', () => {
    const closed = { ...SAMPLES.retry_chain_closed };
    const s = apply(connected(), closed, { ...closed, sessionId: 'other', chainId: 'c10' });
    expect(s.session.chains).toEqual({ c9: { outcome: 'disabled', attempts: 0, finalError: '503' } });
  });

  it('keeps a divider per compaction with its summary, or its failure', () => {
    const s = apply(
      connected(),
      { type: 'auto_compaction_start', reason: 'overflow' },
      { type: 'auto_compaction_end', result: { summary: 'short', tokensBefore: 9 }, aborted: false, willRetry: true },
      { type: 'auto_compaction_start', reason: 'manual' },
      { type: 'auto_compaction_end', aborted: false, willRetry: false, errorMessage: 'no model' },
    );
    expect(s.session.compactions.map((c) => [c.status, c.summary, c.error])).toEqual([
      ['done', 'short', null],
      ['failed', null, 'no model'],
    ]);
  });

  it('auto_compaction_start / _end toggle compaction; an error becomes a notice', () => {
    const s = apply(connected(), SAMPLES.auto_compaction_start);
    expect(s.session.isCompacting).toBe(true);
    const failed = apply(s, {
      type: 'auto_compaction_end',
      aborted: false,
      willRetry: false,
      errorMessage: 'still too long',
    });
    expect(failed.session.isCompacting).toBe(false);
    expect(failed.ui.notices).toEqual([{ id: 1, level: 'error', message: 'still too long' }]);
    expect(apply(s, SAMPLES.auto_compaction_end).ui.notices).toEqual([]);
  });

  it('retry_decision appends once per id, sorted, and only for the current session', () => {
    let s = apply(
      connected(),
      { type: 'retry_decision', decision: decision('d2', 2) },
      { type: 'retry_decision', decision: decision('d1', 1) },
    );
    s = apply(s, { type: 'retry_decision', decision: decision('d1', 1) });
    expect(s.session.decisions.map((d) => d.id)).toEqual(['d1', 'd2']);
    const foreign = decision('d3', 1, { context: { ...decision('x', 1).context, sessionId: 'other' } });
    expect(apply(s, { type: 'retry_decision', decision: foreign })).toBe(s);
  });

  it('retry_decision links the errored turn it names to its chain (the turn was stored before the chain opened)', () => {
    const errored = turn(2, erroredMessage('503', 20));
    const named = decision('d1', 1, { chainId: 'c7', context: { ...decision('x', 1).context, turnId: 't2' } });
    const s = apply(
      connected(),
      { type: 'turn_persisted', turn: errored },
      { type: 'retry_decision', decision: named },
    );
    expect(s.session.turns[0].chainId).toBe('c7');
    const other = decision('d2', 2, { chainId: 'c8', context: { ...decision('x', 1).context, turnId: 't2' } });
    expect(apply(s, { type: 'retry_decision', decision: other }).session.turns[0].chainId).toBe('c7');
  });

  it('session_changed to another session resets the chat; a pending retry in the snapshot shows the banner', () => {
    const before = apply(connected(), retryStart(1), { type: 'retry_decision', decision: decision('d1', 1) });
    const pendingRetry = {
      attempt: 2,
      maxAttempts: 3,
      delayMs: 4000,
      errorMessage: 'e',
      category: 'rate_limit' as const,
      retryAt: 99,
      chainId: 'c9',
    };
    const s = apply(before, {
      type: 'session_changed',
      snapshot: snapshot({ sessionId: 's2', title: 'Other', pendingRetry }),
    });
    expect(s.session).toMatchObject({ sessionId: 's2', title: 'Other', chains: {}, decisions: [] });
    expect(s.retry.banner).toEqual({ kind: 'pending', ...pendingRetry });
  });

  it('session_changed for the same session keeps chains, unpersisted messages and a failed banner', () => {
    const message = userMessage('hi', 1234);
    const failed: SessionEvent = {
      type: 'auto_retry_end',
      success: false,
      attempt: 1,
      finalError: 'x',
      outcome: 'exhausted',
      chainId: 'c1',
    };
    const before = apply(connected(), retryStart(1), failed, { type: 'message_start', message });
    const s = apply(before, { type: 'session_changed', snapshot: snapshot({ title: 'Renamed' }) });
    expect(s.session.title).toBe('Renamed');
    expect(s.session.chains.c1.outcome).toBe('exhausted');
    expect(s.session.pendingMessages).toEqual([message]);
    expect(s.retry.banner?.kind).toBe('failed');
  });

  it('settings_changed stores the settings (auto-retry included) and leaves the session alone', () => {
    const settings = { ...DEFAULT_SETTINGS, retry: { ...DEFAULT_SETTINGS.retry, enabled: false } };
    const before = connected();
    const s = apply(before, { type: 'settings_changed', settings });
    expect(s.settings.values).toBe(settings);
    expect(s.session).toBe(before.session);
  });

  it('history_changed bumps the revision the history views refetch on', () => {
    expect(apply(connected(), SAMPLES.history_changed, SAMPLES.history_changed).history.revision).toBe(2);
  });

  it('history_changed updates one row of the session list in place, newest first, without re-listing', () => {
    const listed = deepFreeze({
      ...connected(),
      history: { sessions: [summary('b', 30), summary('a', 20), summary('c', 10)], revision: 0, activity: [] },
    });
    const changed = (id: string, session: ReturnType<typeof summary> | null): SessionEvent => ({
      type: 'history_changed',
      sessionId: id,
      session,
    });
    const touched = apply(listed, changed('c', summary('c', 40, { turnCount: 2, erroredTurnCount: 1 })));
    expect(touched.history.sessions.map((s) => [s.id, s.turnCount, s.erroredTurnCount])).toEqual([
      ['c', 2, 1],
      ['b', 1, 0],
      ['a', 1, 0],
    ]);
    expect(apply(touched, changed('d', summary('d', 50))).history.sessions.map((s) => s.id)).toEqual([
      'd',
      'c',
      'b',
      'a',
    ]);
    expect(apply(touched, changed('b', null)).history.sessions.map((s) => s.id)).toEqual(['c', 'a']);
  });

  it('history_changed keeps the list at its limit', () => {
    const sessions = Array.from({ length: SESSION_LIST_LIMIT }, (_, i) => summary(`s${i}`, SESSION_LIST_LIMIT - i));
    const full = deepFreeze({ ...connected(), history: { sessions, revision: 0, activity: [] } });
    const s = apply(full, { type: 'history_changed', sessionId: 'new', session: summary('new', 10_000) });
    expect(s.history.sessions).toHaveLength(SESSION_LIST_LIMIT);
    expect(s.history.sessions[0].id).toBe('new');
  });

  it('notice appends with increasing ids and keeps only the newest few', () => {
    const events = Array.from({ length: MAX_NOTICES + 2 }, (_, i): SessionEvent => ({
      type: 'notice',
      level: 'warning',
      message: `n${i}`,
    }));
    const s = apply(connected(), ...events);
    expect(s.ui.notices).toHaveLength(MAX_NOTICES);
    expect(s.ui.notices.at(-1)).toEqual({ id: MAX_NOTICES + 2, level: 'warning', message: `n${MAX_NOTICES + 1}` });
  });
});

describe('applySnapshot: tool calls running as it was taken', () => {
  const running = {
    toolCallId: 'call-1',
    toolName: 'bash',
    args: { command: 'make test' },
    summary: 'make test',
    partialResult: { content: [{ type: 'text', text: 'compiling…\n' }] },
  };

  it('a chat brought forward mid-call shows the card running, with what it printed so far, and the next output carries on', () => {
    const other = apply(connected(), {
      type: 'session_changed',
      snapshot: snapshot({ sessionId: 's2', liveTools: [running] }),
    });
    expect(other.session.toolRuns['call-1']).toMatchObject({
      toolName: 'bash',
      status: 'running',
      output: 'compiling…\n',
      details: { summary: 'make test' },
    });
    expect(other.session.activeToolName).toBe('bash');
    const next = apply(other, {
      type: 'tool_execution_update',
      toolCallId: 'call-1',
      toolName: 'bash',
      args: running.args,
      partialResult: { content: [{ type: 'text', text: 'compiling…\nlinking…\n' }] },
    });
    expect(next.session.toolRuns['call-1']?.output).toBe('compiling…\nlinking…\n');
  });

  it('a call that has printed nothing yet shows running and empty; a snapshot without the field shows none', () => {
    const quiet = apply(connected(), {
      type: 'session_changed',
      snapshot: snapshot({ sessionId: 's2', liveTools: [{ ...running, partialResult: null }] }),
    });
    expect(quiet.session.toolRuns['call-1']).toMatchObject({ status: 'running', output: '' });
    const older = apply(quiet, { type: 'session_changed', snapshot: snapshot({ sessionId: 's3' }) });
    expect(older.session.toolRuns).toEqual({});
  });
});

describe('applySnapshot: the stored chains and decisions arrive with the session', () => {
  it('a resumed session brings its stored chains, decisions and the chain ids of its turns', () => {
    const stored = snapshot({
      sessionId: 's2',
      turns: [turn(1, erroredMessage('503', 10), { sessionId: 's2', chainId: 'c1' })],
      chains: [chain('c1', { sessionId: 's2' })],
      decisions: [decision('d1', 1)],
    });
    const s = apply(connected(), { type: 'session_changed', snapshot: stored });
    expect(s.session.turns[0].chainId).toBe('c1');
    expect(s.session.chains).toEqual({ c1: { outcome: 'recovered', attempts: 1, finalError: null } });
    expect(s.session.decisions.map((d) => d.id)).toEqual(['d1']);
  });

  it('within the same session a stored "pending" row does not overwrite a live outcome, and live decisions stay', () => {
    const live = apply(connected(), retryStart(1), SAMPLES.auto_retry_end, {
      type: 'retry_decision',
      decision: decision('d2', 2),
    });
    const stale = snapshot({
      chains: [chain('c1', { outcome: 'pending', attempts: 0 })],
      decisions: [decision('d1', 1)],
    });
    const s = applySnapshot(live, stale);
    expect(s.session.chains.c1.outcome).toBe('recovered');
    expect(s.session.decisions.map((d) => d.id)).toEqual(['d1', 'd2']);
  });
});

describe("applySnapshot: a local server's prompt processing", () => {
  it('back in a chat whose server still works on the prompt, the notice is there with its share; another chat has none', () => {
    const wait = { startedAt: 1000, processed: 512, total: 2048 };
    const back = apply(connected(), {
      type: 'session_changed',
      snapshot: snapshot({ sessionId: 's2', isStreaming: true, promptWait: wait }),
    });
    expect(back.session.promptWait).toEqual(wait);
    const other = apply(back, { type: 'session_changed', snapshot: snapshot({ sessionId: 's3', isStreaming: true }) });
    expect(other.session.promptWait).toBeNull();
  });
});

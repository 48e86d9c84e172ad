// AgentSession: the ways a retry chain ends midway and what each leaves behind — a retried run
// that fails with an error that never retries or that overflows, continue() refusing to start,
// dispose() while a retry waits, abort() while compaction summarises — and the turn each decision
// record is tied to. The lifecycle is described in docs/retry-policy.md; the LLM is the scripted
// stream of session-fakes.ts, everything else is the real session.
import { describe, expect, it } from 'vitest';
import {
  FIRST_RETRY_CANCELLED,
  harness,
  OVERFLOW_ERROR,
  retryOnly,
  SECOND_PROMPT_OVERFLOWS,
  waitForEvent,
} from '../session-fakes';

/** The fields of a decision record that say what was decided about which attempt of which turn. */
const decisionSummary = (h: ReturnType<typeof harness>) =>
  h.log.records.map((r) => ({
    attempt: r.attempt,
    category: r.category,
    action: r.action,
    finalDecision: r.finalDecision,
    turnId: r.context.turnId,
  }));

describe('AgentSession: decision records and their turns', () => {
  it('ties each decision record to the turn it is about; the success record is the answer, attempt 3', async () => {
    const h = harness([{ error: '503 Service Unavailable' }, { error: '502 Bad gateway' }, { text: 'Hello' }]);
    await h.session.prompt('hi');
    const [, failed1, failed2, answer] = h.history.turns.map((t) => t.id);
    expect(h.history.turns.map((t) => t.stopReason)).toEqual([null, 'error', 'error', 'stop']);
    expect(decisionSummary(h)).toEqual([
      { attempt: 1, category: 'server_error', action: 'retry', finalDecision: null, turnId: failed1 },
      { attempt: 2, category: 'server_error', action: 'retry', finalDecision: null, turnId: failed2 },
      { attempt: 3, category: 'server_error', action: 'retry', finalDecision: 'success', turnId: answer },
    ]);
    const chainId = [...h.history.chains.keys()][0];
    expect(h.log.records.map((r) => r.chainId)).toEqual([chainId, chainId, chainId]);
    expect(h.history.decisions).toEqual(h.log.records);
  });
});

describe('AgentSession: a chain ended midway', () => {
  it('503 then 401: the chain ends not_retryable after 1 retry with the 401, and the abort is attempt 2', async () => {
    const h = harness([{ error: '503 Service Unavailable' }, { error: '401 Incorrect API key provided.' }]);
    await h.session.prompt('hi');
    expect(retryOnly(h.events)).toEqual([
      { type: 'auto_retry_start', attempt: 1, maxAttempts: 3, delayMs: 5, errorMessage: '503 Service Unavailable' },
      { type: 'auto_retry_end', success: false, attempt: 1, finalError: '401 Incorrect API key provided.' },
    ]);
    expect(h.events.find((e) => e.type === 'auto_retry_end')).toMatchObject({ outcome: 'not_retryable' });
    const [, failed1, failed2] = h.history.turns.map((t) => t.id);
    expect(decisionSummary(h)).toEqual([
      { attempt: 1, category: 'server_error', action: 'retry', finalDecision: null, turnId: failed1 },
      { attempt: 2, category: 'auth', action: 'abort', finalDecision: 'abort', turnId: failed2 },
    ]);
    expect(h.log.records.map((r) => r.level)).toEqual(['INFO', 'WARNING']);
    expect([...h.history.chains.values()]).toEqual([
      { outcome: 'not_retryable', attempts: 1, finalError: '401 Incorrect API key provided.' },
    ]);
    expect(h.history.turns.slice(1).map((t) => t.chainId)).toEqual([
      h.log.records[0].chainId,
      h.log.records[0].chainId,
    ]);
    expect(h.stream.calls).toHaveLength(2);
    expect(h.session.isRetrying).toBe(false);
    expect(h.session.retryAttempt).toBe(0);
  });

  it('503 then an overflow: the chain ends as compacted, compaction runs once and the turn is answered', async () => {
    const h = harness([
      { text: 'first answer' },
      { error: '503 Service Unavailable' },
      { error: OVERFLOW_ERROR },
      { text: 'Summary: we talked.' },
      { text: 'second answer' },
    ]);
    await h.session.prompt('first');
    await h.session.prompt('second');
    expect(retryOnly(h.events)).toEqual([
      { type: 'auto_retry_start', attempt: 1, maxAttempts: 3, delayMs: 5, errorMessage: '503 Service Unavailable' },
      { type: 'auto_retry_end', success: false, attempt: 1, finalError: OVERFLOW_ERROR },
    ]);
    expect(h.events.find((e) => e.type === 'auto_retry_end')).toMatchObject({ outcome: 'compacted' });
    // The chain has ended before compaction starts: the two never overlap.
    const types = h.events.map((e) => e.type);
    expect(types.indexOf('auto_retry_end')).toBeLessThan(types.indexOf('auto_compaction_start'));
    expect(h.events.filter((e) => e.type === 'auto_compaction_end')).toEqual([
      expect.objectContaining({ willRetry: true, aborted: false }),
    ]);
    const overflowTurn = h.history.turns.find((t) => t.errorMessage === OVERFLOW_ERROR)!;
    expect(decisionSummary(h)).toEqual([
      expect.objectContaining({ attempt: 1, category: 'server_error', action: 'retry', finalDecision: null }),
      { attempt: 2, category: 'context_overflow', action: 'compact', finalDecision: null, turnId: overflowTurn.id },
    ]);
    expect([...h.history.chains.values()]).toEqual([{ outcome: 'compacted', attempts: 1, finalError: OVERFLOW_ERROR }]);
    expect(h.stream.calls).toHaveLength(5);
    expect(h.session.messages.at(-1)).toMatchObject({ role: 'assistant', stopReason: 'stop' });
  });

  it('continue() refusing to start ends the chain not_retryable with its error, and the session stays usable', async () => {
    const h = harness([{ error: '503 Service Unavailable' }, { text: 'later' }]);
    // The runtime context is emptied during the backoff (as a bug elsewhere might): the real
    // Agent.continue() then refuses with its own error.
    h.session.subscribe((e) => {
      if (e.type === 'auto_retry_start') h.agent.state.messages = [];
    });
    await h.session.prompt('hi');
    expect(retryOnly(h.events).at(-1)).toEqual({
      type: 'auto_retry_end',
      success: false,
      attempt: 1,
      finalError: 'No messages to continue from',
    });
    expect(h.events.find((e) => e.type === 'auto_retry_end')).toMatchObject({ outcome: 'not_retryable' });
    expect([...h.history.chains.values()]).toEqual([
      { outcome: 'not_retryable', attempts: 1, finalError: 'No messages to continue from' },
    ]);
    expect(h.stream.calls).toHaveLength(1);
    expect(h.session.isRetrying).toBe(false);
    await h.session.prompt('again');
    expect(h.stream.calls).toHaveLength(2);
  });
});

describe('AgentSession: dispose() and abort() at awkward moments', () => {
  it('dispose() while a retry waits: the chain ends cancelled, prompt() resolves, nothing more is sent', async () => {
    const backoffMs = 40;
    const h = harness([{ error: '503 Service Unavailable' }], { settings: { retry: { baseDelayMs: backoffMs } } });
    const started = waitForEvent(h, 'auto_retry_start');
    const done = h.session.prompt('hi');
    await started;
    h.session.dispose();
    await done;
    expect(retryOnly(h.events).at(-1)).toEqual(FIRST_RETRY_CANCELLED);
    expect(h.session.isRetrying).toBe(false);
    expect([...h.history.chains.values()]).toEqual([
      { outcome: 'cancelled', attempts: 1, finalError: 'Retry cancelled' },
    ]);
    // The retry would have gone out after backoffMs: wait twice that, then nothing may have arrived.
    const eventsAtDispose = h.events.length;
    await new Promise((resolve) => setTimeout(resolve, 2 * backoffMs));
    expect(h.stream.calls).toHaveLength(1);
    expect(h.events).toHaveLength(eventsAtDispose);
  });

  it('abort() while compaction summarises: compaction ends aborted, no retry of the turn, prompt() resolves', async () => {
    const h = harness([...SECOND_PROMPT_OVERFLOWS, { stall: true }, { text: 'never asked' }]);
    await h.session.prompt('first');
    const done = h.session.prompt('second');
    // The third request is the summary; it stalls until aborted.
    await expect.poll(() => h.stream.calls.length).toBe(3);
    expect(h.session.isCompacting).toBe(true);
    await h.session.abort();
    await done;
    expect(h.events.filter((e) => e.type === 'auto_compaction_end')).toEqual([
      {
        type: 'auto_compaction_end',
        aborted: true,
        willRetry: false,
        errorMessage: 'Compaction failed: Request was aborted',
      },
    ]);
    expect(h.session.isCompacting).toBe(false);
    expect(h.session.isBusy).toBe(false);
    expect(retryOnly(h.events)).toEqual([]);
    expect(h.stream.calls).toHaveLength(3);
    // The overflowing turn is kept in history and out of the runtime context.
    expect(h.history.turns.at(-1)).toMatchObject({ stopReason: 'error', errorCategory: 'context_overflow' });
    expect(h.session.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('Stop pressed as an overflow arrives, before compaction starts: nothing is summarised or retried', async () => {
    const h = harness([...SECOND_PROMPT_OVERFLOWS, { text: 'Summary' }, { text: 'never asked' }]);
    await h.session.prompt('first');
    // Like a click that arrives right after the overflowing run ended (a later task, not inside it).
    h.session.subscribe((e) => {
      if (e.type === 'agent_end' && h.stream.calls.length === 2) setTimeout(() => void h.session.abort(), 0);
    });
    await h.session.prompt('second');
    expect(h.stream.calls).toHaveLength(2);
    expect(h.events.filter((e) => e.type === 'auto_compaction_end')).toEqual([
      expect.objectContaining({ aborted: true, willRetry: false }),
    ]);
    expect(h.session.isBusy).toBe(false);
    expect(h.session.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });
});

// The retry lifecycle of docs/retry-policy.md, event by event, with a scripted stream at the
// LLM boundary: success after failures, exhaustion, cancel and abort during the backoff,
// disabled retry, prompt() waiting for the chain, a fresh chain after a reset, usage limits
// switching credentials, hints above the max delay, mixed categories, the cancel race, timeouts.
import { describe, expect, it } from 'vitest';
import {
  FIRST_RETRY_CANCELLED,
  harness,
  OVERFLOW_ERROR,
  retryOnly,
  SECOND_PROMPT_OVERFLOWS,
  waitForEvent,
} from '../session-fakes';

describe('AgentSession retry lifecycle', () => {
  it('retries twice with 2^n backoff and ends with success; prompt() resolves only after the chain', async () => {
    const h = harness([{ error: '503 Service Unavailable' }, { error: '503 Service Unavailable' }, { text: 'Hello' }]);
    let resolved = false;
    const order: string[] = [];
    h.session.subscribe((e) => {
      if (e.type === 'auto_retry_end') order.push(`end(resolved=${resolved})`);
    });
    await h.session.prompt('hi').then(() => {
      resolved = true;
      order.push('prompt resolved');
    });
    expect(retryOnly(h.events)).toEqual([
      { type: 'auto_retry_start', attempt: 1, maxAttempts: 3, delayMs: 5, errorMessage: '503 Service Unavailable' },
      { type: 'auto_retry_start', attempt: 2, maxAttempts: 3, delayMs: 10, errorMessage: '503 Service Unavailable' },
      { type: 'auto_retry_end', success: true, attempt: 2, finalError: undefined },
    ]);
    expect(order).toEqual(['end(resolved=false)', 'prompt resolved']);
    expect(h.stream.calls).toHaveLength(3);
    // The runtime context holds only the user turn and the answer; history keeps the errored turns.
    expect(h.session.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(h.history.turns.map((t) => [t.role, t.stopReason, t.errorCategory])).toEqual([
      ['user', null, null],
      ['assistant', 'error', 'server_error'],
      ['assistant', 'error', 'server_error'],
      ['assistant', 'stop', null],
    ]);
    // Every assistant turn of the chain carries the one chain id (not null), the id of the stored chain.
    const chainIds = new Set(h.history.turns.slice(1).map((t) => t.chainId));
    expect([...chainIds]).toEqual([...h.history.chains.keys()]);
    expect([...chainIds]).toEqual([expect.any(String)]);
    expect([...h.history.chains.values()]).toEqual([{ outcome: 'recovered', attempts: 2, finalError: null }]);
    expect(h.session.retryAttempt).toBe(0);
    expect(h.session.isRetrying).toBe(false);
  });

  it('stops after maxRetries with attempt = retryAttempt − 1 and the last error', async () => {
    const h = harness(Array.from({ length: 10 }, () => ({ error: '503 Service Unavailable' })));
    await h.session.prompt('hi');
    const events = retryOnly(h.events);
    expect(events.filter((e) => e.type === 'auto_retry_start').map((e) => (e as { delayMs: number }).delayMs)).toEqual([
      5, 10, 20,
    ]);
    expect(events.at(-1)).toEqual({
      type: 'auto_retry_end',
      success: false,
      attempt: 3,
      finalError: '503 Service Unavailable',
    });
    expect(h.stream.calls).toHaveLength(4);
    expect([...h.history.chains.values()][0]).toMatchObject({ outcome: 'exhausted', attempts: 3 });
    const last = h.log.records.at(-1)!;
    expect(last).toMatchObject({ action: 'abort', level: 'WARNING', finalDecision: 'abort', attempt: 4 });
  });

  it('abortRetry() during the backoff cancels with "Retry cancelled" and sends nothing more', async () => {
    const h = harness([{ error: '503 Service Unavailable' }], {
      settings: { retry: { baseDelayMs: 60_000, maxDelayMs: 600_000 } },
    });
    const started = waitForEvent(h, 'auto_retry_start');
    const done = h.session.prompt('hi');
    await started;
    expect(h.session.isRetrying).toBe(true);
    expect(h.session.abortRetry()).toBe(true);
    await done;
    expect(retryOnly(h.events).at(-1)).toEqual(FIRST_RETRY_CANCELLED);
    expect(h.stream.calls).toHaveLength(1);
    expect(h.session.retryAttempt).toBe(0);
    expect(h.session.isRetrying).toBe(false);
    expect([...h.history.chains.values()][0]).toMatchObject({ outcome: 'cancelled' });
  });

  it('abort() during the backoff cancels the retry first', async () => {
    const h = harness([{ error: '429 Rate limit reached for requests' }], {
      settings: { retry: { baseDelayMs: 60_000, maxDelayMs: 600_000 } },
    });
    const started = waitForEvent(h, 'auto_retry_start');
    const done = h.session.prompt('hi');
    await started;
    await h.session.abort();
    await done;
    expect(retryOnly(h.events).at(-1)).toMatchObject({
      type: 'auto_retry_end',
      success: false,
      finalError: 'Retry cancelled',
    });
    expect(h.stream.calls).toHaveLength(1);
  });

  it('does not retry when auto-retry is off, and records the outcome "disabled"', async () => {
    const h = harness([{ error: '503 Service Unavailable' }], { settings: { retry: { enabled: false } } });
    expect(h.session.autoRetryEnabled).toBe(false);
    await h.session.prompt('hi');
    expect(retryOnly(h.events)).toEqual([]);
    expect(h.stream.calls).toHaveLength(1);
    expect([...h.history.chains.values()][0]).toMatchObject({ outcome: 'disabled', attempts: 0 });
    // Clients hear the stored outcome at once (the chat's card says "auto-retry is off").
    expect(h.events.filter((e) => e.type === 'retry_chain_closed')).toEqual([
      expect.objectContaining({ outcome: 'disabled', attempts: 0, finalError: '503 Service Unavailable' }),
    ]);
  });

  it('setAutoRetryEnabled writes retry.enabled', async () => {
    const h = harness([]);
    h.session.setAutoRetryEnabled(false);
    expect(h.settings.get().retry.enabled).toBe(false);
    expect(h.session.autoRetryEnabled).toBe(false);
  });

  it('starts a fresh chain after a reset', async () => {
    const h = harness([
      { error: '503 Service Unavailable' },
      { text: 'one' },
      { error: '502 Bad gateway' },
      { text: 'two' },
    ]);
    await h.session.prompt('first');
    await h.session.prompt('second');
    const starts = h.events.filter((e) => e.type === 'auto_retry_start');
    expect(starts.map((e) => (e as { attempt: number }).attempt)).toEqual([1, 1]);
    expect(h.history.chains.size).toBe(2);
  });

  it('a usage limit switches to the next credential and retries with delay 0', async () => {
    const h = harness([{ error: '429 You have hit your usage limit. Please retry in 30s' }, { text: 'ok' }], {
      keys: ['key-a', 'key-b'],
    });
    await h.session.prompt('hi');
    expect(retryOnly(h.events)[0]).toMatchObject({ type: 'auto_retry_start', attempt: 1, delayMs: 0 });
    expect(h.credentials.marks).toEqual([{ retryAfterMs: 30_000, model: 'scripted-1' }]);
    expect(h.stream.calls.map((c) => c.apiKey)).toEqual(['key-a', 'key-b']);
  });

  it('a retry hint above maxDelayMs ends the chain at once, naming the requested wait', async () => {
    const h = harness([{ error: '429 Rate limit reached. Please retry in 120s' }]);
    await h.session.prompt('hi');
    const events = retryOnly(h.events);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'auto_retry_end', success: false, attempt: 0 });
    expect((events[0] as { finalError: string }).finalError).toMatch(/120 s/);
    expect(h.stream.calls).toHaveLength(1);
  });

  it('keeps one attempt counter across categories, each check using its own row', async () => {
    const h = harness([
      { error: '503 Service Unavailable' },
      { error: 'Connection error.' },
      { error: 'terminated' },
      { text: 'x' },
    ]);
    await h.session.prompt('hi');
    const events = retryOnly(h.events);
    // server_error allows 3 retries; connection's row allows 2, so the third failure (attempt 3) ends it.
    expect(events.map((e) => e.type)).toEqual(['auto_retry_start', 'auto_retry_start', 'auto_retry_end']);
    expect(events[1]).toMatchObject({ attempt: 2, maxAttempts: 2 });
    expect(events[2]).toMatchObject({ success: false, attempt: 2, finalError: 'terminated' });
    expect(h.stream.calls).toHaveLength(3);
  });

  it('never retries a non-retryable error and logs the abort', async () => {
    const h = harness([{ error: '401 Incorrect API key provided.' }]);
    await h.session.prompt('hi');
    expect(retryOnly(h.events)).toEqual([]);
    expect(h.stream.calls).toHaveLength(1);
    expect(h.log.records).toHaveLength(1);
    expect(h.log.records[0]).toMatchObject({
      category: 'auth',
      action: 'abort',
      level: 'WARNING',
      finalDecision: 'abort',
    });
    expect([...h.history.chains.values()][0]).toMatchObject({ outcome: 'not_retryable' });
  });

  it('an unclassifiable error aborts at once', async () => {
    const h = harness([{ error: 'the flux capacitor is misaligned' }]);
    await h.session.prompt('hi');
    expect(retryOnly(h.events)).toEqual([]);
    expect(h.stream.calls).toHaveLength(1);
    expect(h.log.records[0]).toMatchObject({ category: 'unexpected', errorType: 'Unclassifiable', level: 'WARNING' });
  });

  it('a cancel that lands as the backoff ends wins: exactly one outcome, never both', async () => {
    const h = harness([{ error: '503 Service Unavailable' }], {
      settings: { retry: { baseDelayMs: 60_000, maxDelayMs: 600_000 } },
    });
    const started = waitForEvent(h, 'auto_retry_start');
    const done = h.session.prompt('hi');
    await started;
    // The wait ends (as the timer would) and the cancel arrives in the same tick.
    expect(h.session.retryNow()).toBe(true);
    expect(h.session.abortRetry()).toBe(true);
    await done;
    const ends = h.events.filter((e) => e.type === 'auto_retry_end');
    expect(ends).toHaveLength(1);
    expect(ends[0]).toMatchObject({ finalError: 'Retry cancelled' });
    await new Promise((r) => setTimeout(r, 20));
    expect(h.stream.calls).toHaveLength(1);
  });

  it('a cancel after the retried request went out changes nothing: the retry stands', async () => {
    const h = harness([{ error: '503 Service Unavailable' }, { text: 'ok' }]);
    let cancelled: boolean | undefined;
    h.session.subscribe((e) => {
      if (e.type === 'message_start' && e.message.role === 'assistant' && h.session.isRetrying)
        cancelled ??= h.session.abortRetry();
    });
    await h.session.prompt('hi');
    expect(cancelled).toBe(false);
    expect(retryOnly(h.events).at(-1)).toMatchObject({ type: 'auto_retry_end', success: true, attempt: 1 });
    expect(h.stream.calls).toHaveLength(2);
  });

  it('Stop while a retried request streams ends the chain as cancelled, never stuck', async () => {
    const h = harness([{ error: '503 Service Unavailable' }, { stall: true }]);
    h.session.subscribe((e) => {
      if (e.type === 'agent_start' && h.session.isRetrying) setTimeout(() => void h.session.abort(), 5);
    });
    await h.session.prompt('hi');
    expect(retryOnly(h.events).at(-1)).toMatchObject({
      type: 'auto_retry_end',
      success: false,
      finalError: 'Request was aborted',
    });
    expect(h.session.isRetrying).toBe(false);
    expect(h.stream.calls).toHaveLength(2);
  });

  it('"Retry now" skips the rest of the wait', async () => {
    const h = harness([{ error: '503 Service Unavailable' }, { text: 'ok' }], {
      settings: { retry: { baseDelayMs: 60_000, maxDelayMs: 600_000 } },
    });
    const started = waitForEvent(h, 'auto_retry_start');
    const done = h.session.prompt('hi');
    await started;
    h.session.retryNow();
    await done;
    expect(retryOnly(h.events).at(-1)).toMatchObject({ type: 'auto_retry_end', success: true, attempt: 1 });
    expect(h.stream.calls).toHaveLength(2);
  });

  it('a silent stream times out, is classified timeout and retried on its linear row', async () => {
    const h = harness([{ stall: true }, { text: 'ok' }], {
      settings: { retry: { timeoutMs: 60, policy: { timeout: { delayMs: 5 } } } },
    });
    await h.session.prompt('hi');
    const start = h.events.find((e) => e.type === 'auto_retry_start');
    expect(start).toMatchObject({ attempt: 1, maxAttempts: 2, delayMs: 5, category: 'timeout' });
    expect((start as { errorMessage: string }).errorMessage).toMatch(/timed out/);
    expect(h.stream.calls).toHaveLength(2);
  });

  it('a context overflow is never retried: it compacts and tries once more', async () => {
    const h = harness([...SECOND_PROMPT_OVERFLOWS, { text: 'Summary: we talked.' }, { text: 'second answer' }]);
    await h.session.prompt('first');
    await h.session.prompt('second');
    expect(retryOnly(h.events)).toEqual([]);
    const compaction = h.events.filter((e) => e.type.startsWith('auto_compaction'));
    expect(compaction.map((e) => e.type)).toEqual(['auto_compaction_start', 'auto_compaction_end']);
    expect(compaction[1]).toMatchObject({ willRetry: true, aborted: false });
    expect(h.stream.calls).toHaveLength(4);
    const roles = h.session.messages.map((m) => m.role);
    expect(roles).toEqual(['user', 'user', 'assistant']);
  });

  it('a second overflow after compaction ends with a clear error', async () => {
    const h = harness([...SECOND_PROMPT_OVERFLOWS, { text: 'Summary' }, { error: OVERFLOW_ERROR }]);
    await h.session.prompt('first');
    await h.session.prompt('second');
    const notice = h.events.find((e) => e.type === 'notice');
    expect(notice).toEqual({
      type: 'notice',
      level: 'error',
      message:
        'The conversation is still too long for the model after compaction. Start a new chat or shorten the message.',
      code: 'compaction_still_too_long',
      params: {},
    });
    expect(h.stream.calls).toHaveLength(4);
  });

  // A failed history write is reported as a notice, not as a retry decision: the decision log's
  // ERROR records are for exceptions in the retry handling itself (the next test).
  it('a failed history write becomes an error notice naming it, is written again, and the session keeps working', async () => {
    const h = harness([{ text: 'one' }, { text: 'two' }]);
    const append = h.history.appendTurn.bind(h.history);
    let broken = true;
    h.history.appendTurn = (turn) => {
      if (broken && turn.message.role === 'assistant') {
        broken = false;
        throw new Error('disk on fire');
      }
      return append(turn);
    };
    await h.session.prompt('first');
    expect(h.events.filter((e) => e.type === 'notice')).toEqual([
      {
        type: 'notice',
        level: 'error',
        message: 'Could not save a turn to history: disk on fire',
        code: 'turn_save_failed',
        params: { detail: 'disk on fire' },
      },
    ]);
    await h.session.prompt('second');
    // The failed write was tried again at agent_end, so no turn is lost.
    expect(h.history.turns.map((t) => t.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('logs ERROR for an unexpected exception in its own handling', async () => {
    const withUsage = harness([{ error: '429 You have hit your usage limit. Please retry in 1s' }]);
    withUsage.credentials.markUsageLimitReached = () => {
      throw new Error('credential store exploded');
    };
    await withUsage.session.prompt('hi');
    const errors = withUsage.log.records.filter((r) => r.level === 'ERROR');
    expect(errors).toEqual([
      expect.objectContaining({
        errorType: 'UnexpectedSystemError',
        category: 'unexpected',
        action: 'abort',
        errorMessage: 'credential store exploded',
      }),
    ]);
    // The same record goes to the history database.
    expect(withUsage.history.decisions.filter((r) => r.level === 'ERROR')).toEqual(errors);
    expect(withUsage.session.isRetrying).toBe(false);
    expect(withUsage.retryEvents().at(-1)).toMatchObject({
      type: 'auto_retry_end',
      success: false,
      finalError: 'Internal error: credential store exploded',
    });
    // Said to the person with a code, so the window words it in their language (the error's text as it came).
    expect(withUsage.events.filter((e) => e.type === 'notice')).toContainEqual(
      expect.objectContaining({ code: 'turn_internal_error', params: { detail: 'credential store exploded' } }),
    );
    await withUsage.session.prompt('still fine');
    expect(withUsage.stream.calls).toHaveLength(2);
  });

  it('refuses a second prompt while a chain is running', async () => {
    const h = harness([{ error: '503 Service Unavailable' }], {
      settings: { retry: { baseDelayMs: 60_000, maxDelayMs: 600_000 } },
    });
    const started = waitForEvent(h, 'auto_retry_start');
    const done = h.session.prompt('hi');
    await started;
    await expect(h.session.prompt('again')).rejects.toThrow(/already running/);
    h.session.abortRetry();
    await done;
  });

  it('refuses a second prompt sent before the first reached the provider (still checking the pacing)', async () => {
    const h = harness([{ text: 'Hello' }, { text: 'Hello again' }]);
    const first = h.session.prompt('hi');
    await expect(h.session.prompt('again')).rejects.toThrow(/already running/);
    await first;
    expect(h.stream.calls).toHaveLength(1);
    await h.session.prompt('after the first');
    expect(h.stream.calls).toHaveLength(2);
  });
});

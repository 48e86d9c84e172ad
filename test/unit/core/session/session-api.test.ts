// The AgentSession methods every mode reads instead of the agent's state (the RPC mode's get_state,
// get_session_stats, get_last_assistant_text, set_thinking_level): isCompacting during overflow and
// manual compaction, the runtime context, stats, the last assistant text, model and thinking level.
import { describe, expect, it, vi } from 'vitest';
import { MODEL, harness, waitForEvent } from '../session-fakes';

const OVERFLOW = "400 This model's maximum context length is 8192 tokens. However, you requested 9000 tokens.";

describe('AgentSession API for the modes', () => {
  it('isCompacting is true while an overflow is summarised, not while the turn is tried again', async () => {
    const h = harness([{ text: 'first answer' }, { error: OVERFLOW }, { text: 'Summary' }, { text: 'second answer' }]);
    await h.session.prompt('first');
    const seen: string[] = [];
    h.session.subscribe((event) => {
      if (event.type === 'auto_compaction_start' || event.type === 'auto_compaction_end')
        seen.push(`${event.type}:${h.session.isCompacting}`);
      if (event.type === 'message_start' && event.message.role === 'assistant')
        seen.push(`reply:${h.session.isCompacting}`);
    });
    await h.session.prompt('second');
    expect(seen).toEqual(['reply:false', 'auto_compaction_start:true', 'auto_compaction_end:false', 'reply:false']);
    expect(h.session.isCompacting).toBe(false);
  });

  it('isCompacting and isBusy cover a manual compaction from the moment it is asked for', async () => {
    const h = harness([{ text: 'one' }, { text: 'two' }, { text: 'Summary of one' }]);
    await h.session.prompt('first');
    await h.session.prompt('second');
    const compacting = h.session.compact();
    expect([h.session.isCompacting, h.session.isBusy]).toEqual([true, true]);
    await expect(compacting).resolves.toMatchObject({ summary: 'Summary of one' });
    expect([h.session.isCompacting, h.session.isBusy]).toEqual([false, false]);
  });

  it('reports the runtime context, its stats and the last assistant text', async () => {
    const h = harness([{ error: '503 Service Unavailable' }, { text: 'Hello' }]);
    expect(h.session.lastAssistantText()).toBeNull();
    await h.session.prompt('hi');
    expect(h.session.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(h.session.lastAssistantText()).toBe('Hello');
    expect(h.session.stats()).toEqual({
      sessionId: 'session-1',
      userMessages: 1,
      assistantMessages: 1,
      toolCalls: 0,
      toolResults: 0,
      totalMessages: 2,
      // The reply's own usage only (not the failed attempt's), as the faux provider estimates it:
      // "system:test\n\nuser:hi" is 20 characters, 5 tokens in; "Hello" is 2 tokens out.
      tokens: { input: 5, output: 2, cacheRead: 0, cacheWrite: 0, total: 7 },
      cost: 0,
    });
  });

  it('reads and sets the model and the thinking level, and reports the queue modes', () => {
    const h = harness([]);
    expect(h.session.model).toEqual(MODEL);
    h.session.setModel({ ...MODEL, id: 'scripted-2' });
    expect(h.session.model.id).toBe('scripted-2');
    expect(h.session.thinkingLevel).toBe('off');
    h.session.setThinkingLevel('high');
    expect(h.session.thinkingLevel).toBe('high');
    expect(h.session.queueModes).toEqual({ steeringMode: expect.any(String), followUpMode: expect.any(String) });
  });
});

describe('AgentSession rewinds for message actions', () => {
  it('edit and resend: the context is replaced, the new message is sent and marked as a branch', async () => {
    const h = harness([{ text: 'one' }, { text: 'two' }, { text: 'two, edited' }]);
    await h.session.prompt('first');
    await h.session.prompt('second');
    const before = h.session.messages.slice(0, 2);
    await h.session.rewindAndPrompt({ messages: before, branchFrom: 3 }, 'second, edited');
    expect(h.stream.calls.at(-1)?.messageCount).toBe(3);
    expect(h.session.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(h.session.lastAssistantText()).toBe('two, edited');
    expect(h.history.turns.slice(4).map((t) => [t.text, t.branchFrom])).toEqual([
      ['second, edited', 3],
      ['two, edited', null],
    ]);
  });

  it('regenerate continues from the person message with one request; the reply is the branch', async () => {
    const h = harness([{ text: 'one' }, { text: 'one again' }]);
    await h.session.prompt('first');
    await h.session.rewindAndContinue({ messages: h.session.messages.slice(0, 1), branchFrom: 2 });
    expect(h.stream.calls).toHaveLength(2);
    expect(h.history.turns.map((t) => [t.text, t.branchFrom])).toEqual([
      ['first', null],
      ['one', null],
      ['one again', 2],
    ]);
  });

  it('an edit or a regenerate waits out a used-up rate limit like a prompt; Stop sends nothing', async () => {
    const used = { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '30s' };
    const h = harness([{ text: 'one', headers: used }, { text: 'first, answered again' }]);
    await h.session.prompt('first');
    const waits = () => h.events.filter((e) => e.type === 'rate_limit_wait');
    const regenerate = h.session.rewindAndContinue({ messages: h.session.messages.slice(0, 1), branchFrom: 2 });
    await vi.waitFor(() => expect(waits()).toHaveLength(1));
    expect(waits()[0]).toMatchObject({ text: 'first' });
    expect(h.session.isBusy).toBe(true);
    await h.session.abort();
    await regenerate;
    // Stopped while held: no request, and the conversation is as it was.
    expect(h.stream.calls).toHaveLength(1);
    expect(h.session.messages.map((m) => m.role)).toEqual(['user', 'assistant']);

    const edit = h.session.rewindAndPrompt({ messages: [], branchFrom: 1 }, 'first, edited');
    await vi.waitFor(() => expect(waits()).toHaveLength(2));
    expect(h.session.sendAnyway()).toBe(true);
    await edit;
    expect(h.stream.calls).toHaveLength(2);
    expect(h.history.turns.slice(2).map((t) => [t.text, t.branchFrom])).toEqual([
      ['first, edited', 1],
      ['first, answered again', null],
    ]);
  });

  it('refuses to continue from a context that does not end with the person message, or while busy', async () => {
    const h = harness([{ text: 'one' }, { error: '503 Service Unavailable' }], {
      settings: { retry: { baseDelayMs: 60_000, maxDelayMs: 600_000 } },
    });
    await h.session.prompt('first');
    await expect(h.session.rewindAndContinue({ messages: h.session.messages, branchFrom: null })).rejects.toThrow(
      /no message of yours/,
    );
    const started = waitForEvent(h, 'auto_retry_start');
    const running = h.session.prompt('second');
    await started;
    await expect(h.session.rewindAndPrompt({ messages: [], branchFrom: null }, 'x')).rejects.toThrow(/already running/);
    h.session.abortRetry();
    await running;
  });
});

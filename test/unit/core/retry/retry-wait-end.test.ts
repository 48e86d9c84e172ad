// The end of a retry's wait (docs/retry-policy.md, "The retry lifecycle", steps 8–9) against what
// else the person can do while it runs: the retried request leaves when the wait ends, never
// before; a prompt, an edit, a regenerate, Continue, a switch of chat and compact are refused in
// the wait; Stop, a cancel, a quit, another model and "Retry now" each end it their own way, and
// what follows a cancel at once runs alone. A session on a scripted stream on vitest's fake clock.
import type { StreamFn } from '@mariozechner/pi-agent-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentSession } from '../../../../src/main/core/session/agent-session';
import type { AutoRetryStartEvent } from '../../../../src/shared/events';
import { messageText, type ChatMessage } from '../../../../src/shared/messages';
import { harness, MODEL, type Harness } from '../session-fakes';

const WAIT_MS = 1000;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Run the clock on, a millisecond at a time, until `done` holds (at most two waits long). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 2 * WAIT_MS && !done(); i += 1) await vi.advanceTimersByTimeAsync(1);
  expect(done()).toBe(true);
}

/** Run the clock on until `run` has settled. */
async function settle(run: Promise<unknown>): Promise<void> {
  let done = false;
  void run.then(
    () => (done = true),
    () => (done = true),
  );
  await until(() => done);
  await run;
}

interface InWait {
  h: Harness;
  /** The session's events (not message_update) and each request as it leaves ("sent <model>"), in order. */
  log: string[];
  prompt: Promise<void>;
  retryAt: number;
  asked: ChatMessage;
}

/** A prompt whose first answer fails with a 503; resolves half-way through the retry's wait. */
async function inWait(): Promise<InWait> {
  const log: string[] = [];
  const logged =
    (fn: StreamFn): StreamFn =>
    (model, context, options) => {
      log.push(`sent ${model.id}`);
      return fn(model, context, options);
    };
  const h = harness([{ error: '503 Service Unavailable' }], {
    wrapStream: logged,
    settings: { retry: { baseDelayMs: WAIT_MS } },
  });
  h.session.subscribe((event) => {
    if (event.type !== 'message_update') log.push(event.type);
  });
  const prompt = h.session.prompt('hello');
  const start = () => h.events.find((e): e is AutoRetryStartEvent => e.type === 'auto_retry_start');
  await until(() => start() !== undefined);
  const retryAt = start()!.retryAt;
  await vi.advanceTimersByTimeAsync(WAIT_MS / 2);
  return { h, log, prompt, retryAt, asked: h.session.messages[0] };
}

const afterStart = (log: string[]) => log.slice(log.indexOf('auto_retry_start'));
const sends = (log: string[]) => afterStart(log).filter((entry) => entry.startsWith('sent'));
const stopReasons = (h: Harness) => h.history.turns.map((t) => t.stopReason);
const roles = (h: Harness) => h.session.messages.map((m) => m.role);

describe('the retried request', () => {
  it('leaves when the wait ends, not a millisecond before, after both turns were stored', async () => {
    const { h, log, prompt, retryAt } = await inWait();
    await vi.advanceTimersByTimeAsync(retryAt - 1 - Date.now());
    expect(sends(log)).toEqual([]);
    await settle(prompt);
    expect(sends(log)).toEqual([`sent ${MODEL.id}`]);
    expect(h.stream.calls[1].at).toBe(retryAt);
    const beforeStart = log.slice(0, log.indexOf('auto_retry_start'));
    expect(beforeStart.filter((entry) => entry === 'turn_persisted')).toHaveLength(2);
    expect(h.retryEvents().at(-1)).toMatchObject({ type: 'auto_retry_end', outcome: 'recovered' });
    expect(stopReasons(h)).toEqual([null, 'error', 'stop']);
  });

  it('"Retry now" sends it at once', async () => {
    const { h, log, prompt, retryAt } = await inWait();
    expect(h.session.retryNow()).toBe(true);
    await until(() => sends(log).length === 1);
    expect(Date.now()).toBeLessThan(retryAt);
    await settle(prompt);
    expect(h.retryEvents().at(-1)).toMatchObject({ outcome: 'recovered' });
  });

  it('goes to another model set during the wait', async () => {
    const { h, log, prompt } = await inWait();
    h.session.setModel({ ...MODEL, id: 'scripted-2' });
    await settle(prompt);
    expect(sends(log)).toEqual(['sent scripted-2']);
    expect(h.retryEvents().at(-1)).toMatchObject({ outcome: 'recovered' });
  });
});

describe('during the wait', () => {
  it('a prompt, an edit, a regenerate, Continue, a switch of chat and compact are refused; the retry goes at the deadline', async () => {
    const { h, log, prompt, asked } = await inWait();
    const { session } = h;
    await expect(session.prompt('another')).rejects.toThrow(/already running/);
    await expect(session.rewindAndPrompt({ messages: [], branchFrom: 1 }, 'edited')).rejects.toThrow(/already running/);
    await expect(session.rewindAndContinue({ messages: [asked], branchFrom: null })).rejects.toThrow(/already running/);
    expect(() => session.continueTurn()).toThrow(/already running/);
    const chat = { sessionId: 'session-2', title: '', messages: [], stored: false };
    expect(() => session.replaceConversation(chat)).toThrow(/Cannot switch sessions/);
    await expect(session.compact()).rejects.toThrow(/Cannot compact/);
    expect(session.sessionId).toBe('session-1');
    await settle(prompt);
    expect(sends(log)).toHaveLength(1);
    expect(stopReasons(h)).toEqual([null, 'error', 'stop']);
    expect(roles(h)).toEqual(['user', 'assistant']);
  });

  it('Stop: no request leaves and the chain ends cancelled', async () => {
    const { h, log, prompt } = await inWait();
    await settle(h.session.abort());
    await settle(prompt);
    await vi.advanceTimersByTimeAsync(WAIT_MS);
    expect(sends(log)).toEqual([]);
    expect(h.retryEvents().at(-1)).toMatchObject({ outcome: 'cancelled' });
    expect(stopReasons(h)).toEqual([null, 'error']);
  });

  it('a quit: the chain is interrupted, nothing is sent or stored', async () => {
    const { h, log, prompt } = await inWait();
    await h.session.shutdown();
    await settle(prompt);
    await vi.advanceTimersByTimeAsync(WAIT_MS);
    expect(sends(log)).toEqual([]);
    expect(h.retryEvents().at(-1)).toMatchObject({ outcome: 'interrupted' });
    expect(stopReasons(h)).toEqual([null, 'error']);
  });
});

/** What a failed card's buttons and the composer start right after a cancel, and what each leaves. */
const followUps: {
  name: string;
  act: (session: AgentSession, asked: ChatMessage) => Promise<void>;
  stored: (string | null)[];
  context: string[];
}[] = [
  {
    name: 'Retry on the failed card (regenerate)',
    act: (session, asked) => session.rewindAndContinue({ messages: [asked], branchFrom: null }),
    stored: [null, 'error', 'stop'],
    context: ['user', 'assistant'],
  },
  {
    name: 'Resend on the failed card (edit and resend)',
    act: (session, asked) => session.rewindAndPrompt({ messages: [], branchFrom: 1 }, messageText(asked)),
    stored: [null, 'error', null, 'stop'],
    context: ['user', 'assistant'],
  },
  {
    name: 'Continue',
    act: (session) => session.continueTurn(),
    stored: [null, 'error', 'stop'],
    context: ['user', 'assistant'],
  },
  {
    name: 'a new prompt',
    act: (session) => session.prompt('again'),
    stored: [null, 'error', null, 'stop'],
    context: ['user', 'user', 'assistant'],
  },
];

describe('a cancel, then at once', () => {
  it.each(followUps)(
    '$name: runs alone, with one request and its own stored turns',
    async ({ act, stored, context }) => {
      const { h, log, prompt, asked } = await inWait();
      expect(h.session.abortRetry()).toBe(true);
      expect(h.session.isBusy).toBe(false);
      const next = act(h.session, asked);
      await settle(prompt);
      await settle(next);
      await vi.advanceTimersByTimeAsync(WAIT_MS);

      const after = afterStart(log);
      expect(after.slice(0, 3)).toEqual(['auto_retry_start', 'retry_chain_closed', 'auto_retry_end']);
      expect(sends(log)).toHaveLength(1);
      expect(after.filter((entry) => entry === 'agent_start')).toHaveLength(1);
      expect(h.retryEvents().at(-1)).toMatchObject({ outcome: 'cancelled' });
      expect(stopReasons(h)).toEqual(stored);
      expect(roles(h)).toEqual(context);
    },
  );

  it('a new chat and a prompt in it: each chat holds only its own turns', async () => {
    const { h, log, prompt } = await inWait();
    expect(h.session.abortRetry()).toBe(true);
    h.session.replaceConversation({ sessionId: 'session-2', title: '', messages: [], stored: false });
    const next = h.session.prompt('fresh start');
    await settle(prompt);
    await settle(next);
    expect(sends(log)).toHaveLength(1);
    expect(h.session.messages.map((m) => [m.role, messageText(m)])).toEqual([
      ['user', 'fresh start'],
      ['assistant', 'ok'],
    ]);
    const turns = (sessionId: string) =>
      h.history.turns.filter((t) => t.sessionId === sessionId).map((t) => t.stopReason);
    expect(turns('session-1')).toEqual([null, 'error']);
    expect(turns('session-2')).toEqual([null, 'stop']);
  });
});

// A retried run built before its wait ends (src/main/core/retry-prelaunch.ts) against what else
// the person can do in the wait's last stretch, while that run is held: a new prompt, edit and
// resend, regenerate (a failed card's Retry), Resend, Continue, a switch of conversation, Stop, the
// same model set again — and what follows at once when a cancel withdrew it; and a withdrawal while
// the DeferredAgent is still building the Agent. A session on a scripted stream whose requests the
// fake HTTP layer holds, on vitest's fake clock (prelaunch-fixture.ts).
import { Agent } from '@mariozechner/pi-agent-core';
import { describe, expect, it, vi } from 'vitest';
import type { AgentSession } from '../../../src/main/core/agent-session';
import { DeferredAgent } from '../../../src/main/core/deferred-agent';
import { createGuardedStreamFn } from '../../../src/main/core/guarded-stream';
import { PRELAUNCH_LEAD_MS, RetryPrelaunch } from '../../../src/main/core/retry-prelaunch';
import { messageText, type ChatMessage } from '../../../src/shared/messages';
import { HeldRequests } from './held-requests-fake';
import { afterStart, failOnce, fakeClock, moveTo, settle, until, type FailedOnce } from './prelaunch-fixture';
import { MODEL, scriptedStream, type Harness } from './session-fakes';

fakeClock();

/** The wait has begun and its retried run is built and held (the last stretch). */
async function heldInLastStretch(): Promise<FailedOnce & { asked: ChatMessage }> {
  const failed = await failOnce();
  await moveTo(failed.retryAt, PRELAUNCH_LEAD_MS / 2);
  expect(afterStart(failed.held.log)).toEqual(['auto_retry_start', `built ${MODEL.id} (held)`]);
  return { ...failed, asked: failed.h.session.messages[0] };
}

const stopReasons = (h: Harness) => h.history.turns.map((t) => t.stopReason);
const roles = (h: Harness) => h.session.messages.map((m) => m.role);
const count = (log: string[], entry: string) => log.filter((e) => e === entry).length;

describe('in the last stretch, with the retried run held', () => {
  it('a prompt, an edit, a regenerate, Continue, a switch of chat and compact are refused, as in any wait; the held run goes at the deadline', async () => {
    const { h, held, prompt, retryAt, asked } = await heldInLastStretch();
    const { session } = h;
    await expect(session.prompt('another')).rejects.toThrow(/already running/);
    await expect(session.rewindAndPrompt({ messages: [], branchFrom: 1 }, 'edited')).rejects.toThrow(/already running/);
    await expect(session.rewindAndContinue({ messages: [asked], branchFrom: null })).rejects.toThrow(/already running/);
    expect(() => session.continueTurn()).toThrow(/already running/);
    const chat = { sessionId: 'session-2', title: '', messages: [], stored: false };
    expect(() => session.replaceConversation(chat)).toThrow(/Cannot switch sessions/);
    await expect(session.compact()).rejects.toThrow(/Cannot compact/);
    expect(session.sessionId).toBe('session-1');

    await moveTo(retryAt, 0);
    await settle(prompt);
    expect(afterStart(held.log)).not.toContain('cancel');
    expect(count(held.log, 'sent')).toBe(2);
    expect(h.retryEvents().at(-1)).toMatchObject({ outcome: 'recovered' });
    expect(stopReasons(h)).toEqual([null, 'error', 'stop']);
    expect(roles(h)).toEqual(['user', 'assistant']);
  });

  it('Stop: the held request never leaves and the chain ends cancelled', async () => {
    const { h, held, prompt } = await heldInLastStretch();
    await settle(h.session.abort());
    await settle(prompt);
    expect(afterStart(held.log)).not.toContain('sent');
    expect(afterStart(held.log)).not.toContain('agent_start');
    expect(h.retryEvents().at(-1)).toMatchObject({ outcome: 'cancelled' });
    expect(stopReasons(h)).toEqual([null, 'error']);
    expect(h.stream.calls).toHaveLength(1);
  });

  it('the same model set again (a settings change resolves it anew) keeps the held run: it goes at the deadline', async () => {
    const { h, held, prompt, retryAt } = await heldInLastStretch();
    h.session.setModel({ ...MODEL });
    h.session.setThinkingLevel(h.session.thinkingLevel);
    await moveTo(retryAt, 0);
    await settle(prompt);
    expect(afterStart(held.log).slice(0, 4)).toEqual([
      'auto_retry_start',
      `built ${MODEL.id} (held)`,
      'release',
      'sent',
    ]);
    expect(h.retryEvents().at(-1)).toMatchObject({ outcome: 'recovered' });
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
    act: (session, asked) => session.rewindAndPrompt({ messages: [], branchFrom: 1 }, String(asked.content)),
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

describe('a cancel in the last stretch, then at once', () => {
  it.each(followUps)(
    '$name: it runs once the withdrawn run settled, which leaves no trace in context, history or events',
    async ({ act, stored, context }) => {
      const { h, held, prompt, asked } = await heldInLastStretch();
      expect(h.session.abortRetry()).toBe(true);
      expect(h.session.isBusy).toBe(false); // the withdrawn run settling does not refuse what comes next
      const next = act(h.session, asked);
      await settle(prompt);
      await settle(next);

      const log = afterStart(held.log);
      expect(log.slice(0, 5)).toEqual([
        'auto_retry_start',
        `built ${MODEL.id} (held)`,
        'retry_chain_closed',
        'auto_retry_end',
        'cancel',
      ]);
      // Only the new action's run: one request, one agent_start, its own stored turns.
      expect(count(log, 'sent')).toBe(1);
      expect(count(log, 'agent_start')).toBe(1);
      expect(log.indexOf('agent_start')).toBeGreaterThan(log.indexOf('cancel'));
      expect(h.retryEvents().at(-1)).toMatchObject({ outcome: 'cancelled' });
      expect(stopReasons(h)).toEqual(stored);
      expect(roles(h)).toEqual(context);
      expect(h.session.messages.some((m) => m.role === 'assistant' && m.stopReason === 'aborted')).toBe(false);
    },
  );

  it('a new chat and a prompt in it: the new chat holds only its own turns, the old one nothing of the withdrawn run', async () => {
    const { h, held, prompt } = await heldInLastStretch();
    expect(h.session.abortRetry()).toBe(true);
    h.session.replaceConversation({ sessionId: 'session-2', title: '', messages: [], stored: false });
    const next = h.session.prompt('fresh start');
    await settle(prompt);
    await settle(next);

    expect(count(afterStart(held.log), 'sent')).toBe(1);
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

describe('withdrawn while the DeferredAgent still builds the Agent', () => {
  it('the run that starts once it is built is stopped at its first event: its request never leaves', async () => {
    const held = new HeldRequests();
    const stream = scriptedStream([]);
    let build: () => void = () => undefined;
    const built = new Promise<void>((resolve) => (build = resolve));
    const asked: ChatMessage = { role: 'user', content: 'hello', timestamp: 1 };
    const agent = new DeferredAgent(
      { systemPrompt: 'test', model: MODEL, thinkingLevel: 'off', tools: [], messages: [asked] },
      {
        streamFn: createGuardedStreamFn({ base: held.wrap(stream.fn), timeoutMs: () => 60_000 }),
        getApiKey: () => 'k',
        create: async ({ state, ...hooks }) => {
          await built;
          return new Agent({ initialState: state, ...hooks, getApiKey: () => 'k' });
        },
      },
    );
    const delivered: string[] = [];
    const prelaunch = new RetryPrelaunch({
      agent,
      holdNextRequest: held.holdNext,
      deliver: (event) => delivered.push(event.type),
    });
    agent.subscribe((event) => void prelaunch.intercept(event));

    const prepared = prelaunch.schedule(100);
    await vi.advanceTimersByTimeAsync(100 - PRELAUNCH_LEAD_MS + 1);
    expect(agent.state.isStreaming).toBe(true); // continue() waits for the Agent
    prepared.withdraw();
    expect(prelaunch.withdrawing).toBe(true);
    build();
    await settle(prelaunch.settled()!);
    await until(() => !prelaunch.withdrawing);

    expect(held.log).toEqual(['cancel', `built ${MODEL.id}`]);
    expect(stream.calls).toHaveLength(0);
    expect(delivered).toEqual([]);
    expect(agent.state.messages).toEqual([asked]);
    expect(agent.state.isStreaming).toBe(false);
  });
});

// SpendingCap (src/main/core/session/spending-cap.ts): the check before a request, the question's
// answers and the estimate of a request's input tokens.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Api, Context, Model } from '@mariozechner/pi-ai';
import { SpendingCap, estimateInputTokens } from '../../../../src/main/core/session/spending-cap';
import { loadPiRuntime } from '../../../../src/main/core/llm/pi-runtime';
import type { SessionEvent } from '../../../../src/shared/events';
import type { BudgetSpent, ChatBudget, SpendingCapRequest } from '../../../../src/shared/spending-cap';

// A stop's failed reply is made with pi-ai's stream helpers.
beforeAll(() => loadPiRuntime());

const model = { provider: 'anthropic', id: 'm', api: 'anthropic-messages' } as Model<Api>;
const context = (text: string): Context => ({ messages: [{ role: 'user', content: text, timestamp: 0 }] });

function capWith(spent: BudgetSpent, setting: ChatBudget, price: number | null = null, quitting = false) {
  const events: SessionEvent[] = [];
  let own: ChatBudget | null = null;
  const kept = new Map<string, SpendingCapRequest>();
  const cap = new SpendingCap({
    port: {
      spent: () => spent,
      chatBudget: () => own,
      setChatBudget: (_id, b) => (own = b),
      questions: { asked: (r) => kept.set(r.sessionId, r), answered: (id) => kept.delete(id) },
    },
    holding: () => quitting,
    setting: () => setting,
    priceOf: () => (price === null ? null : { input: price, output: price, cacheRead: 0, cacheWrite: 0 }),
    sessionId: () => 's1',
    emit: (e) => events.push(e),
    newId: () => 'q1',
    now: () => 7,
  });
  return { cap, events, own: () => own, kept };
}

describe('SpendingCap.check', () => {
  it('lets a request through under the cap, and with no cap', () => {
    expect(capWith({ tokens: 10, costUsd: 0 }, { tokens: 1000 }).cap.check(model, context('hi'))).toBeNull();
    expect(capWith({ tokens: 10 ** 9, costUsd: 10 ** 6 }, {}).cap.check(model, context('hi'))).toBeNull();
  });

  it('asks before a request whose input would pass the token cap', () => {
    const request = capWith({ tokens: 999, costUsd: 0 }, { tokens: 1000 }).cap.check(model, context('x'.repeat(40)));
    expect(request).toMatchObject({
      spent: { tokens: 999 },
      estimate: { tokens: 10, costUsd: null },
      raiseTo: { tokens: 2000 },
    });
  });

  it('prices the input at the model price for a dollar cap; an unpriced model is held by tokens only', () => {
    const priced = capWith({ tokens: 0, costUsd: 4.99 }, { usd: 5 }, 3_000_000);
    expect(priced.cap.check(model, context('x'.repeat(40)))?.estimate.costUsd).toBeCloseTo(30);
    expect(capWith({ tokens: 0, costUsd: 4.99 }, { usd: 5 }).cap.check(model, context('x'.repeat(40)))).toBeNull();
  });

  it("uses the chat's own cap before the setting's", () => {
    const { cap } = capWith({ tokens: 999, costUsd: 0 }, { tokens: 1000 });
    cap.setChatBudget({ tokens: 5000 });
    expect(cap.check(model, context('x'.repeat(40)))).toBeNull();
  });
});

describe('the day cap', () => {
  function dayCap(today: BudgetSpent, perDay: ChatBudget, chat: ChatBudget = {}) {
    const raised: ChatBudget[] = [];
    const asked: number[] = [];
    const cap = new SpendingCap({
      port: {
        spent: () => ({ tokens: 10, costUsd: 0 }),
        spentSince: (since) => (asked.push(since), today),
        chatBudget: () => null,
        setChatBudget: () => undefined,
      },
      setting: () => chat,
      day: { setting: () => perDay, raise: (b) => raised.push(b) },
      sessionId: () => 's1',
      emit: () => undefined,
      newId: () => 'q1',
      // 14:30 local time: the day counts from local midnight.
      now: () => new Date(2026, 11, 7, 14, 30).getTime(),
    });
    return { cap, raised, asked };
  }

  it("holds every chat's spending today against it, from local midnight", () => {
    const { cap, asked } = dayCap({ tokens: 4995, costUsd: 0 }, { tokens: 5000 });
    expect(cap.check(model, context('x'.repeat(40)))).toMatchObject({
      scope: 'day',
      spent: { tokens: 4995 },
      cap: { tokens: 5000 },
      raiseTo: { tokens: 10_000 },
    });
    expect(asked).toEqual([new Date(2026, 11, 7).getTime()]);
    expect(dayCap({ tokens: 10, costUsd: 0 }, { tokens: 5000 }).cap.check(model, context('x'))).toBeNull();
    expect(dayCap({ tokens: 10 ** 9, costUsd: 0 }, {}).cap.check(model, context('x'))).toBeNull();
  });

  it("asks about the chat's cap first; Raise of the day cap raises the setting, not the chat's own", () => {
    expect(
      dayCap({ tokens: 4995, costUsd: 0 }, { tokens: 5000 }, { tokens: 15 }).cap.check(model, context('x'.repeat(40))),
    ).toMatchObject({ cap: { tokens: 15 } });
    const { cap, raised } = dayCap({ tokens: 4995, costUsd: 0 }, { tokens: 5000 });
    const going = cap.guard(() => 'stream' as never)(model, context('x'.repeat(40)), {});
    void going;
    expect(cap.answer('q1', 'raise')).toBe(true);
    expect(raised).toEqual([{ tokens: 10_000 }]);
  });
});

describe('SpendingCap.guard', () => {
  it('waits for the answer; Raise sets the raised cap and sends, a stop of the turn counts as Stop', async () => {
    const { cap, events, own } = capWith({ tokens: 999, costUsd: 0 }, { tokens: 1000 });
    let sent = 0;
    const guarded = cap.guard(() => {
      sent += 1;
      return 'stream' as never;
    });
    const going = guarded(model, context('x'.repeat(40)), {});
    await Promise.resolve();
    expect(sent).toBe(0);
    expect(cap.pending?.id).toBe('q1');
    expect(cap.answer('other', 'raise')).toBe(false);
    expect(cap.answer('q1', 'raise')).toBe(true);
    expect(await going).toBe('stream');
    expect(sent).toBe(1);
    expect(own()).toEqual({ tokens: 2000 });
    expect(events.map((e) => e.type)).toEqual(['spending_cap_request', 'chat_budget_changed', 'spending_cap_end']);
  });

  it('keeps the question until it is answered; a quit holds it, stored and unanswered', async () => {
    const { cap, kept, events } = capWith({ tokens: 999, costUsd: 0 }, { tokens: 1000 }, null, true);
    const stop = new AbortController();
    const going = cap.guard(() => 'stream' as never)(model, context('x'.repeat(40)), { signal: stop.signal });
    await Promise.resolve();
    expect(kept.get('s1')?.id).toBe('q1');
    stop.abort();
    expect(await going).not.toBe('stream');
    expect(cap.holdsForRestart).toBe(true);
    expect(kept.has('s1')).toBe(true);
    expect(events.map((e) => e.type)).toEqual(['spending_cap_request']);
  });

  it('a restored question: Raise sets the cap and goes on; Stop makes the next request end as a stop', async () => {
    const request = capWith({ tokens: 999, costUsd: 0 }, { tokens: 1000 }).cap.check(model, context('x'.repeat(40)))!;
    const raised = capWith({ tokens: 999, costUsd: 0 }, { tokens: 1000 });
    const answers: string[] = [];
    raised.kept.set('s1', request);
    raised.cap.restore(request, (choice) => answers.push(choice));
    expect(raised.cap.pending).toEqual(request);
    expect(raised.cap.answer(request.id, 'raise')).toBe(true);
    expect(answers).toEqual(['raise']);
    expect(raised.own()).toEqual(request.raiseTo);
    expect(raised.kept.size).toBe(0);

    const stopped = capWith({ tokens: 999, costUsd: 0 }, { tokens: 1000 });
    stopped.cap.restore(request, (choice) => answers.push(choice));
    stopped.cap.answer(request.id, 'stop');
    let sent = 0;
    const guarded = stopped.cap.guard(() => {
      sent += 1;
      return 'stream' as never;
    });
    expect(await guarded(model, context('x'), {})).not.toBe('stream');
    // Only the one request: the next goes through.
    expect(await guarded(model, context('x'), {})).toBe('stream');
    expect(sent).toBe(1);
    expect(answers).toEqual(['raise', 'stop']);
  });

  it('a new run instead of an answer ends a restored question', () => {
    const { cap, kept, events } = capWith({ tokens: 999, costUsd: 0 }, { tokens: 1000 });
    const request = cap.check(model, context('x'.repeat(40)))!;
    kept.set('s1', request);
    cap.restore(request, () => undefined);
    cap.endRestored();
    expect(cap.pending).toBeNull();
    expect(kept.size).toBe(0);
    expect(events.at(-1)).toEqual({ type: 'spending_cap_end', id: request.id, choice: 'stop' });
  });
});

describe('estimateInputTokens', () => {
  it('counts from the newest reported usage, and the messages after it at four characters a token', () => {
    const usage = { input: 100, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 120, cost: {} };
    const withReply = {
      messages: [
        { role: 'user', content: 'a'.repeat(4000), timestamp: 0 },
        { role: 'assistant', content: [{ type: 'text', text: 'ok' }], usage, stopReason: 'stop', timestamp: 0 },
        { role: 'user', content: 'b'.repeat(40), timestamp: 0 },
      ],
    } as unknown as Context;
    expect(estimateInputTokens(withReply)).toBe(130);
    expect(estimateInputTokens({ systemPrompt: 'c'.repeat(8), messages: [] })).toBe(2);
  });
});

// SpendingCap (src/main/core/session/spending-cap.ts): the check before a request, the question's
// answers and the estimate of a request's input tokens.
import { describe, expect, it } from 'vitest';
import type { Api, Context, Model } from '@mariozechner/pi-ai';
import { SpendingCap, estimateInputTokens } from '../../../../src/main/core/session/spending-cap';
import type { SessionEvent } from '../../../../src/shared/events';
import type { BudgetSpent, ChatBudget } from '../../../../src/shared/spending-cap';

const model = { provider: 'anthropic', id: 'm', api: 'anthropic-messages' } as Model<Api>;
const context = (text: string): Context => ({ messages: [{ role: 'user', content: text, timestamp: 0 }] });

function capWith(spent: BudgetSpent, setting: ChatBudget, price: number | null = null) {
  const events: SessionEvent[] = [];
  let own: ChatBudget | null = null;
  const cap = new SpendingCap({
    port: { spent: () => spent, chatBudget: () => own, setChatBudget: (_id, b) => (own = b) },
    setting: () => setting,
    priceOf: () => (price === null ? null : { input: price, output: price, cacheRead: 0, cacheWrite: 0 }),
    sessionId: () => 's1',
    emit: (e) => events.push(e),
    newId: () => 'q1',
    now: () => 7,
  });
  return { cap, events, own: () => own };
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

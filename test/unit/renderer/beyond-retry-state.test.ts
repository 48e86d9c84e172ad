// The renderer's side of issue 16's rules (docs/retry-policy.md): the banner paused offline, the
// switch of model said after the chain recovered, the interrupted-turn offer, the held prompt given
// back on Stop, the active model, and the failed attempts' usage and cost reaching the chat cards.
import { describe, expect, it } from 'vitest';
import { buildChatItems, type ErroredChainItem } from '../../../src/renderer/src/chat/chat-items';
import { applySessionEvent, applySnapshot } from '../../../src/renderer/src/store/apply-session-event';
import { initialState, type AppState } from '../../../src/renderer/src/store/state';
import type { SessionEvent } from '../../../src/shared/events';
import { OFFLINE_PAUSE, assistantMessage, erroredMessage, snapshot, turn } from './fixtures';

const SIM1 = { provider: 'simulator' as const, model: 'resolute-sim-1' };
const SIM2 = { provider: 'simulator' as const, model: 'resolute-sim-2' };
const start = (extra = {}): SessionEvent => ({
  type: 'auto_retry_start',
  attempt: 1,
  maxAttempts: 3,
  delayMs: 0,
  errorMessage: 'usage limit',
  category: 'usage_limit',
  retryAt: 0,
  chainId: 'c1',
  ...extra,
});
const end = (success: boolean): SessionEvent => ({
  type: 'auto_retry_end',
  success,
  attempt: 1,
  outcome: success ? 'recovered' : 'exhausted',
  chainId: 'c1',
  ...(success ? {} : { finalError: 'gave up' }),
});
const apply = (state: AppState, ...events: SessionEvent[]) => events.reduce(applySessionEvent, state);
const connected = (extra = {}) => applySnapshot(initialState(), snapshot(extra));

describe('the banner', () => {
  it('paused offline: a pending banner that does not count down, then the retry replaces it', () => {
    const paused = apply(connected(), OFFLINE_PAUSE);
    expect(paused.retry.banner).toMatchObject({ kind: 'pending', offline: true, attempt: 1, maxAttempts: 2 });
    expect(paused.session.isRetrying).toBe(true);
    const resumed = apply(paused, start({ category: 'connection' }));
    expect(resumed.retry.banner).toMatchObject({ kind: 'pending', delayMs: 0 });
    expect(resumed.retry.banner && 'offline' in resumed.retry.banner).toBe(false);
  });

  it.each([
    [true, { kind: 'switched', from: SIM1, to: SIM2 }],
    [false, { kind: 'failed', finalError: 'gave up' }],
  ])('after a switch of model, success=%s leaves %o', (success, banner) => {
    const s = apply(connected(), start({ switchedModel: { from: SIM1, to: SIM2 } }), end(success));
    expect(s.retry.banner).toMatchObject(banner);
    expect(s.retry.switchedModel).toBeNull();
  });

  it('a chain that recovers without a switch leaves no banner', () => {
    expect(apply(connected(), start(), end(true)).retry.banner).toBeNull();
  });
});

describe('session state', () => {
  const offer = { chainId: 'c1', attempt: 1, maxAttempts: 3, category: 'server_error' as const, errorMessage: '503' };

  it('the interrupted offer comes with the snapshot and goes once its chain retries', () => {
    const s = connected({ interruptedRetry: offer });
    expect(s.session.interruptedRetry).toEqual(offer);
    expect(apply(s, start({ chainId: 'other' })).session.interruptedRetry).toEqual(offer);
    expect(apply(s, start({ resumed: true })).session.interruptedRetry).toBeNull();
  });

  it('a held prompt shows while it waits; stopped, its text goes back to the composer each time', () => {
    const wait: SessionEvent = {
      type: 'rate_limit_wait',
      provider: 'openai',
      model: 'gpt-4o',
      text: 'hello',
      until: 5000,
      waitMs: 5000,
    };
    const held = apply(connected(), wait);
    expect(held.session.pacing).toMatchObject({ text: 'hello', waitMs: 5000 });
    const stop: SessionEvent = { type: 'rate_limit_wait_end', provider: 'openai', outcome: 'cancelled' };
    const stopped = apply(held, stop);
    expect(stopped.session.pacing).toBeNull();
    expect(stopped.ui.returnedDraft).toEqual({ text: 'hello', n: 1 });
    expect(apply(stopped, wait, stop).ui.returnedDraft).toEqual({ text: 'hello', n: 2 });
    const sent = apply(held, { type: 'rate_limit_wait_end', provider: 'openai', outcome: 'sent_anyway' });
    expect(sent.ui.returnedDraft).toBeNull();
  });

  it('a held prompt stopped gives its attachments back with its text', () => {
    const attachments = [{ name: 'dot.png', mimeType: 'image/png', data: 'iVBORw0KGgo=' }];
    const wait: SessionEvent = {
      type: 'rate_limit_wait',
      provider: 'openai',
      model: 'gpt-4o',
      text: '',
      attachments,
      until: 5000,
      waitMs: 5000,
    };
    const stop: SessionEvent = { type: 'rate_limit_wait_end', provider: 'openai', outcome: 'cancelled' };
    expect(apply(connected(), wait, stop).ui.returnedDraft).toEqual({ text: '', attachments, n: 1 });
  });

  it('model_changed replaces the model the header shows', () => {
    const model = { provider: 'simulator', id: 'resolute-sim-2', label: 'Simulator', isSimulator: true };
    expect(apply(connected(), { type: 'model_changed', model }).session.model).toEqual(model);
  });
});

describe('chat items', () => {
  it("carry each failed attempt's usage and cost to its chain's card, and the model that answered", () => {
    const usage = { input: 400, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 402 };
    const items = buildChatItems({
      turns: [
        turn(1, erroredMessage('503', 1000), { chainId: 'c1', usage, costUsd: 0.0012 }),
        turn(2, erroredMessage('503', 2000), { chainId: 'c1', usage, costUsd: null }),
        turn(3, assistantMessage('ok', 3000, { model: 'resolute-sim-2' })),
      ],
      pendingMessages: [],
      streamingMessage: null,
      chains: {},
      decisions: [],
    });
    const card = items[0] as ErroredChainItem;
    expect(card.attempts.map((a) => [a.usage?.input, a.costUsd])).toEqual([
      [400, 0.0012],
      [400, null],
    ]);
    expect(items[1]).toMatchObject({ kind: 'message', model: 'resolute-sim-2' });
  });
});

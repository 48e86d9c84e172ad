// The chat's message actions as one map (MessageActions.tsx): which entries a row offers — Copy on
// every message, Edit on the person's stored messages, Regenerate on the last reply, and on the last
// failed card Retry, Resend (with its prompt), Continue (with words streamed) and Check your API key
// (an authentication error, also in the history) — in the map's order, nothing live on a read-only
// row; and what a click runs through the store's actions.
import { describe, expect, it, vi } from 'vitest';
import type { ErroredAttempt, ErroredChainItem, MessageItem } from '../../../src/renderer/src/chat/chat-items';
import { MESSAGE_ACTIONS, type ActionRow } from '../../../src/renderer/src/components/chat/MessageActions';
import { READ_ONLY, type RowState } from '../../../src/renderer/src/chat/same-row';
import type { Actions } from '../../../src/renderer/src/store/actions';
import { continueOnChoices } from '../../../src/renderer/src/components/chat/ContinueOnMenu';
import type { ProviderInfo } from '../../../src/shared/contract';
import type { ModelRef } from '../../../src/shared/settings';

const LIVE_LAST: RowState = { isLive: true, isLast: true };
const LIVE: RowState = { isLive: true, isLast: false };

function message(extra: Partial<MessageItem> = {}): MessageItem {
  return {
    kind: 'message',
    key: 'm1',
    turnId: 't1',
    role: 'user',
    text: 'hello',
    isStreaming: false,
    stopReason: null,
    toolName: null,
    model: null,
    createdAt: 1000,
    thinking: [],
    ...extra,
  };
}

function card(attempt: Partial<ErroredAttempt> = {}, extra: Partial<ErroredChainItem> = {}): ErroredChainItem {
  return {
    kind: 'errored-chain',
    key: 'c1',
    chainId: 'chain-1',
    attempts: [
      {
        key: 'a1',
        errorMessage: '503',
        partial: null,
        startedAt: null,
        category: 'server_error',
        createdAt: 2000,
        usage: null,
        costUsd: null,
        ...attempt,
      },
    ],
    chain: null,
    decisions: [],
    status: 'failed',
    retries: 3,
    prompt: { turnId: 't1', text: 'hello' },
    lastSeq: 2,
    compaction: null,
    continued: false,
    ...extra,
  };
}

function fakeActions() {
  return {
    regenerate: vi.fn(async () => true),
    edit: vi.fn(async () => true),
    call: vi.fn(async () => undefined),
    openProviderSettings: vi.fn(),
    requestFocus: vi.fn(),
  };
}

function context(
  item: ActionRow,
  row: RowState,
  provider: string | null = 'anthropic',
  continueOn: readonly ModelRef[] = [],
) {
  const actions = fakeActions();
  const startEditing = vi.fn();
  const ctx = { item, row, actions: actions as unknown as Actions, provider, startEditing, continueOn };
  return { ctx, actions, startEditing };
}

function offered(
  item: ActionRow,
  row: RowState,
  provider: string | null = 'anthropic',
  continueOn: readonly ModelRef[] = [],
): string[] {
  const { ctx } = context(item, row, provider, continueOn);
  return Object.entries(MESSAGE_ACTIONS)
    .filter(([, action]) => action.offers(ctx))
    .map(([id]) => id);
}

describe('which actions a row offers', () => {
  it("the person's stored message: Copy and Edit while live; Copy alone read-only or not stored yet", () => {
    expect(offered(message(), LIVE)).toEqual(['copy', 'edit']);
    expect(offered(message(), READ_ONLY)).toEqual(['copy']);
    expect(offered(message({ turnId: null }), LIVE)).toEqual(['copy']);
  });

  it('an earlier message marked for it: Restore files to here while live, never read-only', () => {
    expect(offered(message({ restoreFiles: true }), LIVE)).toEqual(['copy', 'edit', 'restoreFiles']);
    expect(offered(message({ restoreFiles: true }), READ_ONLY)).toEqual(['copy']);
  });

  it('a reply: Regenerate only on the last one, while live and stored', () => {
    const reply = message({ role: 'assistant' });
    expect(offered(reply, LIVE_LAST)).toEqual(['copy', 'regenerate']);
    expect(offered(reply, LIVE)).toEqual(['copy']);
    expect(offered(reply, { isLive: false, isLast: true })).toEqual(['copy']);
    expect(offered(message({ role: 'assistant', turnId: null }), LIVE_LAST)).toEqual(['copy']);
  });

  it('the last failed card: Continue (words streamed), Retry, Resend (a stored prompt), in that order', () => {
    const words = { partial: { text: 'half a reply', thinking: '', toolCalls: [] } };
    expect(offered(card(words), LIVE_LAST)).toEqual(['continue', 'retry', 'resend']);
    expect(offered(card(), LIVE_LAST)).toEqual(['retry', 'resend']);
    expect(offered(card({}, { prompt: null }), LIVE_LAST)).toEqual(['retry']);
    expect(offered(card(), LIVE)).toEqual([]);
    expect(offered(card(), READ_ONLY)).toEqual([]);
  });

  it('Continue on…: a retryable failure on the live last card, when some other model is there to choose', () => {
    const sim2: ModelRef[] = [{ provider: 'simulator', model: 'resolute-sim-2' }];
    expect(offered(card(), LIVE_LAST, 'anthropic', sim2)).toEqual(['continueOn', 'retry', 'resend']);
    expect(offered(card({ category: 'overloaded' }), LIVE, 'anthropic', sim2)).toEqual([]);
    expect(offered(card({ category: 'auth' }), LIVE_LAST, 'anthropic', sim2)).not.toContain('continueOn');
    expect(offered(card({ category: 'bad_request' }), LIVE_LAST, 'anthropic', sim2)).not.toContain('continueOn');
  });

  it('the choices: the first choice, the fallback list, then the local server, each once, the session model left out', () => {
    const providers = [{ id: 'openai-compatible', models: ['llama3.2', 'qwen3'] }] as ProviderInfo[];
    const fallback: ModelRef[] = [
      { provider: 'anthropic', model: 'claude-sonnet-4-5' },
      { provider: 'openai-compatible', model: 'qwen3' },
      { provider: 'simulator', model: 'resolute-sim-2' },
    ];
    const first: ModelRef = { provider: 'openai', model: 'gpt-5' };
    expect(continueOnChoices(first, fallback, providers, { provider: 'anthropic', id: 'claude-sonnet-4-5' })).toEqual([
      first,
      { provider: 'openai-compatible', model: 'qwen3' },
      { provider: 'simulator', model: 'resolute-sim-2' },
      { provider: 'openai-compatible', model: 'llama3.2' },
    ]);
    expect(continueOnChoices(null, [], [], null)).toEqual([]);
  });

  it('an authentication failure: Check your API key first, also read-only, never without a provider', () => {
    const auth = card({ category: 'auth' });
    expect(offered(auth, LIVE_LAST)).toEqual(['checkKey', 'retry', 'resend']);
    expect(offered(auth, READ_ONLY)).toEqual(['checkKey']);
    expect(offered(auth, READ_ONLY, null)).toEqual([]);
  });

  it("a message's actions never show on a card, nor a card's on a message", () => {
    for (const id of ['copy', 'edit', 'regenerate'] as const)
      expect(MESSAGE_ACTIONS[id].offers(context(card(), LIVE_LAST).ctx)).toBe(false);
    for (const id of ['checkKey', 'continue', 'retry', 'resend'] as const)
      expect(MESSAGE_ACTIONS[id].offers(context(message({ role: 'assistant' }), LIVE_LAST).ctx)).toBe(false);
  });
});

describe('what a click runs', () => {
  it('Retry and Regenerate ask for the reply again, then focus the message box', async () => {
    for (const [id, item] of [
      ['retry', card()],
      ['regenerate', message({ role: 'assistant' })],
    ] as const) {
      const { ctx, actions } = context(item, LIVE_LAST);
      MESSAGE_ACTIONS[id].run(ctx);
      await vi.waitFor(() => expect(actions.requestFocus).toHaveBeenCalledWith('composer'));
      expect(actions.regenerate).toHaveBeenCalledTimes(1);
    }
  });

  it("Resend sends the card's prompt again as an edit of it; Continue goes on; Edit opens the box", async () => {
    const resend = context(card(), LIVE_LAST);
    MESSAGE_ACTIONS.resend.run(resend.ctx);
    expect(resend.actions.edit).toHaveBeenCalledWith('t1', 'hello');
    await vi.waitFor(() => expect(resend.actions.requestFocus).toHaveBeenCalledWith('composer'));

    const cont = context(card(), LIVE_LAST);
    MESSAGE_ACTIONS.continue.run(cont.ctx);
    expect(cont.actions.call).toHaveBeenCalledExactlyOnceWith('session.continue', {});

    const edit = context(message(), LIVE);
    MESSAGE_ACTIONS.edit.run(edit.ctx);
    expect(edit.startEditing).toHaveBeenCalledTimes(1);
  });

  it("Check your API key opens the provider's settings", () => {
    const { ctx, actions } = context(card({ category: 'auth' }), READ_ONLY, 'openai');
    MESSAGE_ACTIONS.checkKey.run(ctx);
    expect(actions.openProviderSettings).toHaveBeenCalledWith('openai');
  });
});

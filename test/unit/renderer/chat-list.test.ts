// The chat as one flat list (docs/architecture.md, "The chat in the window"): tool cards follow the
// active path, a fallback switch is a row after its chain's card, and the live chat's own rows —
// approval, interrupted turn, Continue, a prompt held for a rate limit — sit after what they are
// about; Continue only where Retry or Regenerate would not ask for the same. Also the store: an
// unrelated settings change keeps a fallback model shown, a new first choice replaces it.
import { describe, expect, it } from 'vitest';
import { buildChatItems, type ChatItem } from '../../../src/renderer/src/chat/chat-items';
import { canContinue, isExchangeItem, withLiveItems, type LiveState } from '../../../src/renderer/src/chat/live-items';
import { applySessionEvent, applySnapshot } from '../../../src/renderer/src/store/apply-session-event';
import { initialState, type AppState } from '../../../src/renderer/src/store/state';
import { DEFAULT_SETTINGS, type Settings } from '../../../src/shared/settings';
import type { AssistantChatMessage, ToolResultChatMessage } from '../../../src/shared/messages';
import { assistantMessage, decision, erroredMessage, snapshot, turn, userMessage } from './fixtures';
import { bashApproval } from '../../fixtures/approval-request';

const base = { chains: {}, decisions: [] };
const NO_LIVE: LiveState = { approval: null, interrupted: null, canContinue: false, pacing: null };

function callingReply(id: string, timestamp = 2000): AssistantChatMessage {
  return assistantMessage('', timestamp, {
    stopReason: 'toolUse',
    content: [{ type: 'toolCall', id, name: 'bash', arguments: { command: 'ls' } }],
  });
}

function toolResult(toolCallId: string, timestamp = 3000): ToolResultChatMessage {
  return {
    role: 'toolResult',
    toolCallId,
    toolName: 'bash',
    content: [{ type: 'text', text: 'a.txt' }],
    isError: false,
    timestamp,
  };
}

const request = bashApproval({ id: 'r1', toolCallId: 'call-2' });

const kinds = (items: ChatItem[]) => items.map((i) => (i.kind === 'tool-call' ? `tool:${i.toolCallId}` : i.kind));

describe('the flat list', () => {
  it("an edited message's branch replaces the tool cards of what it replaced", () => {
    const turns = [
      turn(1, userMessage('list it', 1000)),
      turn(2, callingReply('call-1', 1100)),
      turn(3, toolResult('call-1', 1200)),
      turn(4, assistantMessage('done', 1300)),
      turn(5, userMessage('list it again', 1400), { branchFrom: 1 }),
      turn(6, callingReply('call-2', 1500)),
    ];
    expect(kinds(buildChatItems({ ...base, turns }))).toEqual(['message', 'tool:call-2']);
  });

  it('a switch to a fallback model is a row right after the chain that made it, in the history too', () => {
    const switched = decision('d1', 1, {
      category: 'usage_limit',
      context: { ...decision('x', 1).context, switchedTo: { provider: 'openai', modelId: 'gpt-4o-mini' } },
    });
    const turns = [
      turn(1, userMessage('hi', 1000)),
      turn(2, erroredMessage('usage limit', 1100), { chainId: 'c1', errorCategory: 'usage_limit' }),
      turn(3, assistantMessage('hello', 1200, { model: 'gpt-4o-mini' }), { chainId: 'c1' }),
    ];
    const items = buildChatItems({
      turns,
      chains: { c1: { outcome: 'recovered', attempts: 1, finalError: null } },
      decisions: [switched],
    });
    expect(kinds(items)).toEqual(['message', 'errored-chain', 'model-switch', 'message']);
    expect(items[2]).toMatchObject({
      from: { provider: 'simulator', model: 'resolute-sim-1' },
      to: { provider: 'openai', model: 'gpt-4o-mini' },
    });
    expect(items[3]).toMatchObject({ kind: 'message', model: 'gpt-4o-mini' });
    expect(isExchangeItem(items[2])).toBe(false);
  });

  it('puts the approval after the call it asks about, the interrupted offer after its chain, the rest at the end', () => {
    const turns = [
      turn(1, userMessage('go', 1000)),
      turn(2, erroredMessage('503', 1100), { chainId: 'c9' }),
      turn(3, callingReply('call-2', 1200)),
      turn(4, assistantMessage('and more', 1300)),
    ];
    const transcript = buildChatItems({ ...base, turns });
    const offer = { chainId: 'c9', attempt: 1, maxAttempts: 3, errorMessage: '503', category: 'server_error' as const };
    const pacing = { provider: 'simulator', model: 'resolute-sim-1', text: 'next', until: 9, waitMs: 5 };
    const items = withLiveItems(transcript, { approval: request, interrupted: offer, canContinue: true, pacing });
    expect(kinds(items)).toEqual([
      'message',
      'errored-chain',
      'interrupted',
      'tool:call-2',
      'approval',
      'message',
      'continue',
      'held-message',
      'pacing',
    ]);
    expect(new Set(items.map((i) => i.key)).size).toBe(items.length);
    // What the person's actions look at is the last exchange item, not a live row.
    expect(items.findLast(isExchangeItem)).toMatchObject({ kind: 'message', text: 'and more' });
    expect(withLiveItems(transcript, NO_LIVE)).toBe(transcript);
  });

  it("a local server's prompt processing is the last row, where the reply will stream", () => {
    const streamingMessage = assistantMessage('', 1100);
    const transcript = buildChatItems({ ...base, turns: [turn(1, userMessage('go'))], streamingMessage });
    expect(kinds(transcript)).toEqual(['message', 'message']);
    const promptWait = { startedAt: 1000, processed: 10, total: 40 };
    // The notice takes the empty "Writing…" bubble's place; the first words bring the bubble back.
    const items = withLiveItems(transcript, { ...NO_LIVE, promptWait });
    expect(kinds(items)).toEqual(['message', 'prompt-wait']);
    expect(items.at(-1)).toMatchObject({ kind: 'prompt-wait', wait: promptWait });
    const written = buildChatItems({
      ...base,
      turns: [turn(1, userMessage('go'))],
      streamingMessage: assistantMessage('Hi', 1100),
    });
    expect(kinds(withLiveItems(written, { ...NO_LIVE, promptWait }))).toEqual(['message', 'message', 'prompt-wait']);
  });

  it('a live row whose item is not shown goes to the end', () => {
    const transcript = buildChatItems({ ...base, turns: [turn(1, userMessage('go'))] });
    expect(kinds(withLiveItems(transcript, { ...NO_LIVE, approval: request }))).toEqual(['message', 'approval']);
  });
});

describe('Continue', () => {
  const state = (turns: AppState['session']['turns'], patch: Partial<AppState['session']> = {}) => {
    const s = initialState();
    return { session: { ...s.session, turns, ...patch }, retry: s.retry };
  };
  const withTools = [
    turn(1, userMessage('go', 1000)),
    turn(2, callingReply('call-1', 1100)),
    turn(3, toolResult('call-1', 1200)),
    turn(4, erroredMessage('sandbox', 1300)),
  ];

  it('is offered after a failed or stopped turn that used tools, while nothing runs', () => {
    expect(canContinue(state(withTools))).toBe(true);
    const stopped = [...withTools.slice(0, 3), turn(4, assistantMessage('part', 1300, { stopReason: 'aborted' }))];
    expect(canContinue(state(stopped))).toBe(true);
    expect(canContinue(state(withTools, { isStreaming: true }))).toBe(false);
  });

  it("is not offered for a plain failed or stopped reply: the card's Retry or Regenerate does the same", () => {
    expect(canContinue(state([turn(1, userMessage('go')), turn(2, erroredMessage('503', 2000))]))).toBe(false);
    const stopped = assistantMessage('part', 2000, { stopReason: 'aborted' });
    expect(canContinue(state([turn(1, userMessage('go')), turn(2, stopped)]))).toBe(false);
    expect(canContinue(state([turn(1, userMessage('go')), turn(2, assistantMessage('fine'))]))).toBe(false);
  });

  it('is offered after a call a quit or a crash cut off, and not after an ordinary result', () => {
    const cut = { ...toolResult('call-1', 1200), isError: true, details: { interrupted: true } };
    expect(canContinue(state([...withTools.slice(0, 2), turn(3, cut)]))).toBe(true);
    expect(canContinue(state(withTools.slice(0, 3)))).toBe(false);
  });
});

describe('the model the header shows', () => {
  const withSettings = (settings: Settings) =>
    applySessionEvent(applySnapshot(initialState(), snapshot()), { type: 'settings_changed', settings });
  const fallback = { provider: 'openai', id: 'gpt-4o-mini', label: 'GPT-4o mini', isSimulator: false };

  it('keeps a fallback a usage limit switched to when another setting changes', () => {
    const switched = applySessionEvent(withSettings(DEFAULT_SETTINGS), { type: 'model_changed', model: fallback });
    const next = applySessionEvent(switched, {
      type: 'settings_changed',
      settings: { ...DEFAULT_SETTINGS, ui: { ...DEFAULT_SETTINGS.ui, theme: 'dark' } },
    });
    expect(next.session.model).toEqual(fallback);
  });

  it('shows a new first choice', () => {
    const next = applySessionEvent(withSettings(DEFAULT_SETTINGS), {
      type: 'settings_changed',
      settings: { ...DEFAULT_SETTINGS, provider: { ...DEFAULT_SETTINGS.provider, model: 'resolute-sim-2' } },
    });
    expect(next.session.model).toMatchObject({ provider: 'simulator', id: 'resolute-sim-2' });
  });
});

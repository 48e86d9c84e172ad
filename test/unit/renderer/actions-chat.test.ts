// The chat's actions and the event pump's pacing against a fake bridge: switching chats while a
// turn runs is refused with a visible flag (and no call), a switch that goes through asks for the
// composer's focus, message actions call their commands, and a fast stream's updates are applied
// once per frame while every other event passes at once, in order.
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/shared/events';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { createActions } from '../../../src/renderer/src/store/actions';
import { createAppStore, startEventPump } from '../../../src/renderer/src/store/app-store';
import { assistantMessage, fakeBridge, snapshot } from './fixtures';
import { bashApproval } from '../../fixtures/approval-request';

const frame = () => new Promise((resolve) => setTimeout(resolve, 40));

describe('switching chats', () => {
  it('goes ahead while a turn runs (the chat left runs on in the background) and focuses the composer', async () => {
    const { bridge, calls } = fakeBridge({
      'session.new': () => ({ sessionId: 's2' }),
      'session.resume': () => ({ sessionId: 'old' }),
    });
    const store = createAppStore();
    const actions = createActions(bridge, store);
    actions.showView('history');
    actions.dispatch({ type: 'agent_start' });
    expect(await actions.newChat()).toBe(true);
    // The focus waits for the new chat's snapshot, which may come after the command's answer.
    expect(store.getState().ui).toMatchObject({ view: 'chat', focus: null });
    actions.dispatch({ type: 'session_changed', snapshot: snapshot({ sessionId: 's2' }) });
    expect(store.getState().ui).toMatchObject({ view: 'chat', focus: { target: 'composer' } });
    expect(await actions.resume('old')).toBe(true);
    expect(calls.map((c) => c.method)).toEqual(['session.new', 'session.resume']);
  });

  it('a chat opened while it waits for an approval focuses its card once its snapshot is in, whatever comes first', async () => {
    const { bridge } = fakeBridge({ 'session.resume': () => ({ sessionId: 'asks' }) });
    const store = createAppStore();
    const actions = createActions(bridge, store);
    const request = bashApproval({ id: 'r1', args: {} });
    expect(await actions.resume('asks')).toBe(true);
    expect(store.getState().ui.focus).toBeNull();
    actions.dispatch({
      type: 'session_changed',
      snapshot: snapshot({ sessionId: 'asks', pendingApprovals: [request] }),
    });
    expect(store.getState().ui.focus).toMatchObject({ target: 'approval' });
  });
});

describe('message actions', () => {
  it('edit, regenerate and rename call their commands; Test connection returns the main process answer', async () => {
    const result = { ok: true, provider: 'simulator', model: 'm', latencyMs: 3, category: null, message: 'OK' };
    const { bridge, calls } = fakeBridge({
      'session.edit': () => ({ accepted: true }),
      'session.regenerate': () => ({ accepted: true }),
      'providers.test': () => result,
    });
    const actions = createActions(bridge, createAppStore());
    expect(await actions.edit('t3', 'again')).toBe(true);
    expect(await actions.regenerate()).toBe(true);
    await actions.call('history.rename', { sessionId: 's1', title: 'Mine' });
    expect(await actions.testConnection()).toEqual(result);
    expect(calls).toEqual([
      { method: 'session.edit', params: { turnId: 't3', text: 'again' } },
      { method: 'session.regenerate', params: {} },
      { method: 'history.rename', params: { sessionId: 's1', title: 'Mine' } },
      { method: 'providers.test', params: {} },
    ]);
  });
});

/** The first retry of chain c1, two seconds away. */
const retryStart = (): SessionEvent => ({
  type: 'auto_retry_start',
  attempt: 1,
  maxAttempts: 3,
  delayMs: 2000,
  errorMessage: '503',
  category: 'overloaded',
  retryAt: Date.now() + 2000,
  chainId: 'c1',
});

describe("the event pump applies a display frame's events together", () => {
  /** A pump started and synced, with the types of the events applied since. */
  async function startedPump() {
    const { bridge, emit } = fakeBridge({ 'session.getState': () => snapshot(), 'settings.get': () => ({}) });
    const store = createAppStore();
    const seen: SessionEvent['type'][] = [];
    const actions = createActions(bridge, store, { onEvent: (event) => seen.push(event.type) });
    startEventPump(bridge, actions);
    await frame();
    seen.length = 0;
    return { store, emit, seen };
  }

  it('holds every event until the frame, applies them in order in one store update, and keeps only the newest of a run of updates', async () => {
    const { store, emit, seen } = await startedPump();
    let updates = 0;
    store.subscribe(() => (updates += 1));
    let text = '';
    for (let i = 0; i < 200; i += 1) {
      text += `w${i} `;
      emit({ type: 'message_update', message: assistantMessage(text), assistantMessageEvent: { type: 'text_delta' } });
    }
    expect(seen).toEqual([]);
    await frame();
    expect(seen).toEqual(['message_update']);
    expect(updates).toBe(1);
    expect(store.getState().session.streamingMessage).toEqual(assistantMessage(text));

    // A failure's burst: the end of the reply, its error, the retry's start. The banner is what the
    // person waits on, so its event does not wait for the frame: it goes at once, with everything
    // queued before it, in order, in one update.
    emit({
      type: 'message_update',
      message: assistantMessage(`${text}end`),
      assistantMessageEvent: { type: 'text_delta' },
    });
    emit({ type: 'message_end', message: assistantMessage(`${text}end`) });
    emit({ type: 'message_update', message: assistantMessage('next'), assistantMessageEvent: { type: 'text_delta' } });
    emit(retryStart());
    expect(seen).toEqual(['message_update', 'message_update', 'message_end', 'message_update', 'auto_retry_start']);
    expect(updates).toBe(2);
    expect(store.getState().retry.banner?.kind).toBe('pending');
    // Nothing was left for the frame to apply again.
    await frame();
    expect(updates).toBe(2);
  });

  it('the end of a retry is applied as it comes too, and what follows it waits for the frame', async () => {
    const { store, emit, seen } = await startedPump();
    emit(retryStart());
    emit({ type: 'message_update', message: assistantMessage('ok'), assistantMessageEvent: { type: 'text_delta' } });
    emit({ type: 'auto_retry_end', success: true, attempt: 1, chainId: 'c1', outcome: 'recovered' });
    emit({ type: 'message_update', message: assistantMessage('ok!'), assistantMessageEvent: { type: 'text_delta' } });
    expect(seen).toEqual(['auto_retry_start', 'message_update', 'auto_retry_end']);
    expect(store.getState().retry.banner).toBeNull();
    expect(store.getState().session.streamingMessage).toEqual(assistantMessage('ok'));
    await frame();
    expect(seen.at(-1)).toBe('message_update');
    expect(store.getState().session.streamingMessage).toEqual(assistantMessage('ok!'));
  });

  it('a settings change is applied as it comes, with what was waiting before it, in order', async () => {
    const { store, emit, seen } = await startedPump();
    emit({ type: 'message_update', message: assistantMessage('hi'), assistantMessageEvent: { type: 'text_delta' } });
    emit({ type: 'settings_changed', settings: DEFAULT_SETTINGS });
    expect(seen).toEqual(['message_update', 'settings_changed']);
    expect(store.getState().settings.values).toEqual(DEFAULT_SETTINGS);
  });
});

// Actions and the event pump against a fake bridge: each action calls its command, refused
// settings leave the main process's message on the field, failures become notices, events that
// arrive while the snapshot is fetched are applied after it, and each start-up notice shows once.
import { describe, expect, it } from 'vitest';
import { BridgeError } from '../../../src/shared/bridge';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { createActions } from '../../../src/renderer/src/store/actions';
import { createAppStore, startEventPump } from '../../../src/renderer/src/store/app-store';
import { fakeBridge, snapshot, turn, userMessage } from './fixtures';

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('actions', () => {
  it('call() relays a command and its answer; a failure becomes a notice and undefined', async () => {
    const { bridge, calls } = fakeBridge({
      'session.abortRetry': () => ({ aborted: true }),
      'session.retryNow': () => {
        throw new BridgeError('failed', 'no retry waits');
      },
    });
    const store = createAppStore();
    const actions = createActions(bridge, store);
    expect(await actions.call('session.abortRetry', {})).toEqual({ aborted: true });
    expect(await actions.call('session.retryNow', {})).toBeUndefined();
    expect(calls).toEqual([
      { method: 'session.abortRetry', params: {} },
      { method: 'session.retryNow', params: {} },
    ]);
    expect(store.getState().ui.notices.map((n) => n.message)).toEqual(['no retry waits']);
  });

  it('prompt() sends the text and clears a failed banner; a refusal becomes a notice and returns false', async () => {
    const { bridge, calls } = fakeBridge({
      'session.prompt': (p) => {
        if ((p as { text: string }).text === 'bad') throw new BridgeError('failed', 'busy');
        return { accepted: true };
      },
    });
    const store = createAppStore();
    const actions = createActions(bridge, store);
    actions.dispatch({
      type: 'auto_retry_end',
      success: false,
      attempt: 3,
      finalError: 'x',
      outcome: 'exhausted',
      chainId: 'c1',
    });
    expect(await actions.prompt('hi')).toBe(true);
    expect(calls[0]).toEqual({ method: 'session.prompt', params: { text: 'hi' } });
    expect(store.getState().retry.banner).toBeNull();
    expect(await actions.prompt('bad')).toBe(false);
    expect(store.getState().ui.notices.map((n) => n.message)).toEqual(['busy']);
  });

  it('updateSettings() keeps the refusal message on the field and clears it on success', async () => {
    let refuse = true;
    const { bridge } = fakeBridge({
      'settings.update': () => {
        if (refuse) throw new BridgeError('invalid_params', 'settings.update: retry.maxRetries: must be at most 9');
        return { ...DEFAULT_SETTINGS, retry: { ...DEFAULT_SETTINGS.retry, maxRetries: 5 } };
      },
    });
    const store = createAppStore();
    const actions = createActions(bridge, store);
    expect(await actions.updateSettings('retry.maxRetries', { retry: { maxRetries: 99 } })).toBe(false);
    expect(store.getState().settings.fieldErrors['retry.maxRetries']).toContain('must be at most 9');
    refuse = false;
    expect(await actions.updateSettings('retry.maxRetries', { retry: { maxRetries: 5 } })).toBe(true);
    expect(store.getState().settings.fieldErrors).toEqual({});
    expect(store.getState().settings.values?.retry.maxRetries).toBe(5);
  });

  it('shows a valid change at once and takes it back when the main process refuses it', async () => {
    let answer: (value: unknown) => void = () => undefined;
    const { bridge } = fakeBridge({
      'settings.update': () =>
        new Promise((_, reject) => (answer = () => reject(new BridgeError('failed', 'settings file is read-only')))),
    });
    const store = createAppStore();
    const actions = createActions(bridge, store);
    actions.dispatch({ type: 'settings_changed', settings: DEFAULT_SETTINGS });
    const pending = actions.updateSettings('ui.theme', { ui: { theme: 'dark' } });
    expect(store.getState().settings.values?.ui.theme).toBe('dark');
    answer(undefined);
    expect(await pending).toBe(false);
    expect(store.getState().settings.values?.ui.theme).toBe('system');
    expect(store.getState().settings.fieldErrors['ui.theme']).toBe('settings file is read-only');
  });

  it('the auto-retry switch is a settings.update of retry.enabled: one command, one home', async () => {
    const { bridge, calls } = fakeBridge({
      'settings.update': () => ({ ...DEFAULT_SETTINGS, retry: { ...DEFAULT_SETTINGS.retry, enabled: false } }),
    });
    const store = createAppStore();
    const actions = createActions(bridge, store);
    actions.dispatch({ type: 'settings_changed', settings: DEFAULT_SETTINGS });
    expect(await actions.updateSettings('retry.enabled', { retry: { enabled: false } })).toBe(true);
    expect(calls).toEqual([{ method: 'settings.update', params: { patch: { retry: { enabled: false } } } }]);
    expect(store.getState().settings.values?.retry.enabled).toBe(false);
  });

  it('newChat() and resume() ask once and show the chat; the session itself arrives as session_changed', async () => {
    const { bridge, calls } = fakeBridge({
      'session.new': () => ({ sessionId: 's2' }),
      'session.resume': (p) => ({ sessionId: (p as { sessionId: string }).sessionId }),
    });
    const store = createAppStore();
    const actions = createActions(bridge, store);
    actions.showView('settings');
    expect(await actions.newChat()).toBe(true);
    expect(store.getState().ui.view).toBe('chat');
    actions.showView('history');
    expect(await actions.resume('s3')).toBe(true);
    expect(store.getState().ui.view).toBe('chat');
    expect(calls.map((c) => c.method)).toEqual(['session.new', 'session.resume']);
    actions.dispatch({ type: 'session_changed', snapshot: snapshot({ sessionId: 's3' }) });
    expect(store.getState().session.sessionId).toBe('s3');
  });

  it('passes every dispatched event to onEvent after the store applied it', () => {
    const seen: boolean[] = [];
    const store = createAppStore();
    const actions = createActions(fakeBridge().bridge, store, {
      onEvent: () => seen.push(store.getState().session.isStreaming),
    });
    actions.dispatch({ type: 'agent_start' });
    expect(seen).toEqual([true]);
  });

  it('deleteSession() asks once; the row leaves the list by the history_changed event, not a re-list', async () => {
    const { bridge, calls } = fakeBridge({ 'history.delete': () => ({ deleted: true }) });
    const store = createAppStore();
    const actions = createActions(bridge, store);
    expect(await actions.deleteSession('s1')).toBe(true);
    expect(calls.map((c) => c.method)).toEqual(['history.delete']);
  });
});

describe('startEventPump', () => {
  it('fetches the snapshot and settings at start (IPC) and applies events after them', async () => {
    let release: (value: unknown) => void = () => undefined;
    const gate = new Promise((resolve) => (release = resolve));
    const fake = fakeBridge({
      'session.getState': async () => {
        await gate;
        return snapshot({ turns: [] });
      },
      'settings.get': () => DEFAULT_SETTINGS,
      'history.list': () => [],
    });
    const store = createAppStore();
    const actions = createActions(fake.bridge, store);
    startEventPump(fake.bridge, actions);
    expect(store.getState().ui.connection).toBe('connected');
    // This event is newer than the snapshot still in flight: it must survive the snapshot.
    fake.emit({ type: 'turn_persisted', turn: turn(1, userMessage('hi')) });
    release(undefined);
    await flush();
    await flush();
    // Held events are applied at the next display frame (16 ms under Node).
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(store.getState().session.sessionId).toBe('s1');
    expect(store.getState().session.turns.map((t) => t.id)).toEqual(['t1']);
    expect(store.getState().settings.values).toEqual(DEFAULT_SETTINGS);
  });

  it('with a WebSocket bridge: shows reconnecting on a drop and resyncs on every (re)connect', async () => {
    const fake = fakeBridge(
      { 'session.getState': () => snapshot(), 'settings.get': () => DEFAULT_SETTINGS, 'history.list': () => [] },
      true,
    );
    const store = createAppStore();
    startEventPump(fake.bridge, createActions(fake.bridge, store));
    expect(store.getState().ui.connection).toBe('connecting');
    fake.setConnected(true);
    await flush();
    fake.setConnected(false);
    expect(store.getState().ui.connection).toBe('reconnecting');
    fake.setConnected(true);
    await flush();
    expect(store.getState().ui.connection).toBe('connected');
    expect(fake.calls.filter((c) => c.method === 'session.getState')).toHaveLength(2);
    expect(store.getState().ui.notices).toEqual([]);
  });

  it('shows the notices raised at start-up once each, however often it reconnects', async () => {
    const fake = fakeBridge(
      {
        'session.getState': () => snapshot(),
        'settings.get': () => DEFAULT_SETTINGS,
        'history.list': () => [],
        'app.info': () => ({
          notices: [
            {
              id: 'launch:0',
              level: 'error',
              message: 'The settings file was invalid',
              code: 'settings_invalid',
              params: { detail: 'x', aside: 'y' },
            },
          ],
        }),
      },
      true,
    );
    const store = createAppStore();
    startEventPump(fake.bridge, createActions(fake.bridge, store));
    for (const connected of [true, false, true]) {
      fake.setConnected(connected);
      await flush();
    }
    // The code and its parameters come along, for the window to translate.
    expect(store.getState().ui.notices).toEqual([
      expect.objectContaining({
        level: 'error',
        message: 'The settings file was invalid',
        code: 'settings_invalid',
        params: { detail: 'x', aside: 'y' },
      }),
    ]);
  });

  it('shows a start-up notice raised later (an event with its id, then in app.info) once', async () => {
    const late = {
      id: 'launch:1',
      level: 'error' as const,
      message: 'The history database is damaged',
      code: 'history_damaged_in_use',
      params: { path: '/h.db', detail: 'malformed' },
    };
    let notices: (typeof late)[] = [];
    const fake = fakeBridge(
      {
        'session.getState': () => snapshot(),
        'settings.get': () => DEFAULT_SETTINGS,
        'history.list': () => [],
        'app.info': () => ({ notices }),
      },
      true,
    );
    const store = createAppStore();
    startEventPump(fake.bridge, createActions(fake.bridge, store));
    fake.setConnected(true);
    await flush();
    notices = [late];
    fake.emit({ type: 'notice', ...late });
    fake.emit({ type: 'notice', ...late });
    for (const connected of [false, true]) {
      fake.setConnected(connected);
      await flush();
    }
    expect(store.getState().ui.notices).toEqual([
      expect.objectContaining({ level: 'error', message: 'The history database is damaged', code: late.code }),
    ]);
  });
});

describe('paging a long session', () => {
  it('loadOlderTurns fetches the page before the oldest turn held, once at a time, and joins it at the front', async () => {
    const older = [turn(1, userMessage('first')), turn(2, userMessage('second'))];
    const { bridge, calls } = fakeBridge({
      'history.turns': () => ({
        sessionId: snapshot().sessionId,
        turns: older,
        chains: [],
        decisions: [],
        hasOlderTurns: false,
      }),
    });
    const store = createAppStore();
    const actions = createActions(bridge, store);
    actions.dispatch({
      type: 'session_changed',
      snapshot: snapshot({ turns: [turn(3, userMessage('third'))], hasOlderTurns: true }),
    });
    await Promise.all([actions.loadOlderTurns(), actions.loadOlderTurns()]);
    expect(calls).toEqual([{ method: 'history.turns', params: { sessionId: snapshot().sessionId, beforeSeq: 3 } }]);
    expect(store.getState().session.turns.map((t) => t.id)).toEqual(['t1', 't2', 't3']);
    expect(store.getState().session.hasOlderTurns).toBe(false);
    await actions.loadOlderTurns();
    expect(calls).toHaveLength(1);
  });
});

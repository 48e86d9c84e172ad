// The one zustand store (vanilla, so the event pump and tests use it without React), the React
// context that hands components the store and the action functions, and the store's feed: the
// event pump (startEventPump, wired once by main.tsx) hands every SessionEvent from the bridge to
// the dispatcher (eventDispatcher, Actions.dispatch), which applies it with applySessionEvent; on
// each (re)connect the snapshot is fetched again.
import { createContext, useContext } from 'react';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { applySessionEvent } from './apply-session-event';
import { initialState, type AppState } from './state';
import type { ResoluteBridge } from '../../../shared/bridge';
import type { SessionEvent } from '../../../shared/events';
import type { Actions } from './actions';

export type AppStore = StoreApi<AppState>;

export function createAppStore(state: AppState = initialState()): AppStore {
  return createStore<AppState>()(() => state);
}

/**
 * How an event reaches the store (Actions.dispatch): applied by the one reducer, then `onEvent`
 * (the Esc swap listens there) is told.
 */
export function eventDispatcher(store: AppStore, onEvent?: (event: SessionEvent) => void) {
  return (event: SessionEvent): void => {
    store.setState(applySessionEvent(store.getState(), event), true);
    onEvent?.(event);
  };
}

export interface Runtime {
  store: AppStore;
  actions: Actions;
}

export const RuntimeContext = createContext<Runtime | null>(null);

function useRuntime(): Runtime {
  const runtime = useContext(RuntimeContext);
  if (!runtime) throw new Error('RuntimeContext is missing: render inside <RuntimeContext value={…}>');
  return runtime;
}

/** Select a narrow value from the store; components re-render only when it changes. */
export function useAppState<T>(selector: (state: AppState) => T): T {
  return useStore(useRuntime().store, selector);
}

export function useActions(): Actions {
  return useRuntime().actions;
}

// ---- the event pump ----
// On connect and after every reconnect the snapshot and settings are fetched again, and the notices
// the main process raised while starting (or later, as start-up notices) are shown, once each.
// Events that arrive while that fetch runs are held and applied after the snapshot, so an older
// snapshot never overwrites a newer event. A fast stream's message_update events (each carries the
// whole message so far) are applied at most once per frame: the chat renders what a frame can
// show, not every token.

/** Runs `fn` before the next paint where there is one (the page), else soon (tests under Node). */
const nextFrame = (fn: () => void): void => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(fn);
  else setTimeout(fn, 16);
};

export function startEventPump(bridge: ResoluteBridge, actions: Actions): () => void {
  let isSyncing = false;
  let held: SessionEvent[] = [];
  const shownStartupNotices = new Set<string>();
  let latestUpdate: SessionEvent | null = null;

  const flushUpdate = (): void => {
    const update = latestUpdate;
    latestUpdate = null;
    if (update) actions.dispatch(update);
  };
  const apply = (event: SessionEvent): void => {
    if (event.type === 'message_update') {
      // Only the newest matters: it holds everything the earlier ones did.
      if (!latestUpdate) nextFrame(flushUpdate);
      latestUpdate = event;
      return;
    }
    flushUpdate();
    actions.dispatch(event);
  };

  const onEvent = (event: SessionEvent): void => {
    // A start-up notice raised late comes as an event and in app.info: shown once either way.
    if (event.type === 'notice' && event.id !== undefined) {
      if (shownStartupNotices.has(event.id)) return;
      shownStartupNotices.add(event.id);
    }
    if (isSyncing) held.push(event);
    else apply(event);
  };

  const sync = async (): Promise<void> => {
    isSyncing = true;
    // The snapshot about to come is newer than any update still waiting for its frame.
    latestUpdate = null;
    try {
      const { snapshot, settings, startupNotices } = await actions.sync();
      actions.dispatch(settings);
      actions.dispatch(snapshot);
      for (const { id, ...notice } of startupNotices) {
        if (shownStartupNotices.has(id)) continue;
        shownStartupNotices.add(id);
        actions.dispatch({ type: 'notice', ...notice });
      }
    } catch (error) {
      actions.report(error);
    } finally {
      isSyncing = false;
      const queued = held;
      held = [];
      queued.forEach(apply);
    }
    await actions.refreshHistory();
  };

  const unsubscribeEvents = bridge.onEvent(onEvent);
  let unsubscribeConnection = (): void => undefined;
  if (bridge.onConnection) {
    unsubscribeConnection = bridge.onConnection((connected, refusal) => {
      // Down before the first open too: the server is unreachable, so say we keep trying.
      actions.setConnection(connected ? 'connected' : (refusal ?? 'reconnecting'));
      if (connected) void sync();
    });
  } else {
    // IPC cannot drop: connected from the start.
    actions.setConnection('connected');
    void sync();
  }

  return () => {
    unsubscribeEvents();
    unsubscribeConnection();
  };
}

// The one zustand store (vanilla, so the event pump and tests use it without React), the React
// context that hands components the store and the action functions, and the store's feed: the
// event pump (startEventPump, wired once by main.tsx) hands every SessionEvent from the bridge to
// the dispatcher (event-dispatcher.ts, Actions.dispatch), which applies it with applySessionEvent;
// on each (re)connect the snapshot is fetched again.
import { createContext, useContext } from 'react';
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { initialState, type AppState, type AppStore } from './state';
import type { ResoluteBridge } from '../../../shared/bridge';
import type { SessionEvent } from '../../../shared/events';
import type { Actions } from './actions';

export type { AppStore };

export function createAppStore(state: AppState = initialState()): AppStore {
  return createStore<AppState>()(() => state);
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

/** The store itself, for what reads its state once at a moment (the palette's commands when it opens). */
export function useAppStore(): AppStore {
  return useRuntime().store;
}

// ---- the event pump ----
// On connect and after every reconnect the snapshot and settings are fetched again, and the notices
// the main process raised while starting (or later, as start-up notices) are shown, once each.
// Events that arrive while that fetch runs are held and applied after the snapshot, so an older
// snapshot never overwrites a newer event. The chat's events are applied once per display frame,
// all that came in it together: every socket message is a task of its own, and a store update per
// event meant a render and a layout per event, so a failure's dozen events reached the retry
// banner ~60 ms late (docs/performance.md, "Streaming to the window"). Nothing shows later for
// it: the frame paints what its first event would have. A fast stream's message_update events
// (each holds the whole message so far) collapse to the newest of a run of them. A few events go
// at once (APPLIED_AT_ONCE), taking what is queued with them.

/**
 * Applied as they come, with whatever is queued before them: a setting saved, a notice, and the
 * retry banner's events. All rare (the banner's, one per attempt), and each the answer a person is
 * waiting on. Rendered at once, a failure's burst is in the DOM when the next frame comes, and
 * that frame only paints it; held for the frame, the frame rendered it first (~10 ms here).
 */
const APPLIED_AT_ONCE: ReadonlySet<SessionEvent['type']> = new Set([
  'settings_changed',
  'notice',
  'auto_retry_start',
  'auto_retry_paused',
  'auto_retry_end',
]);

/** Frames stop in a hidden page; the timer still applies its events, if seldom. */
const HIDDEN_PAGE_MS = 250;

/** Runs `fn` once, before the next paint where there is one (the page), else soon (tests under Node). */
const nextFrame = (fn: () => void): void => {
  if (typeof requestAnimationFrame !== 'function') {
    setTimeout(fn, 16);
    return;
  }
  let isDone = false;
  const once = (): void => {
    if (isDone) return;
    isDone = true;
    fn();
  };
  requestAnimationFrame(once);
  setTimeout(once, HIDDEN_PAGE_MS);
};

/** The message an update is for: two in a row for the same one, and the first says nothing more. */
const sameMessage = (a: SessionEvent, b: SessionEvent): boolean =>
  a.type === 'message_update' &&
  b.type === 'message_update' &&
  a.message.role === b.message.role &&
  a.message.timestamp === b.message.timestamp;

export function startEventPump(bridge: ResoluteBridge, actions: Actions): () => void {
  let isSyncing = false;
  let held: SessionEvent[] = [];
  const shownStartupNotices = new Set<string>();
  let queued: SessionEvent[] = [];
  let isScheduled = false;

  const flushQueued = (): void => {
    isScheduled = false;
    const events = queued;
    queued = [];
    actions.dispatch(...events);
  };
  const apply = (event: SessionEvent): void => {
    const last = queued.at(-1);
    if (last && sameMessage(last, event)) queued[queued.length - 1] = event;
    else queued.push(event);
    // The answer to what the person just did in Settings goes at once (a test of the connection
    // clicked next is judged against those settings), and what came before it with it.
    if (APPLIED_AT_ONCE.has(event.type)) return flushQueued();
    if (isScheduled) return;
    isScheduled = true;
    nextFrame(flushQueued);
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
    // What came before the snapshot was asked for goes first; the snapshot is newer than all of it.
    flushQueued();
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
      const heldBack = held;
      held = [];
      heldBack.forEach(apply);
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

// Wires the bridge to the store once at start-up: every SessionEvent goes to actions.dispatch
// (→ applySessionEvent); on connect and after every reconnect the snapshot and settings are
// fetched again, and the notices the main process raised while starting (or later, as start-up
// notices) are shown, once each.
// Events that arrive while that fetch runs are held and applied after the snapshot, so an older
// snapshot never overwrites a newer event. A fast stream's message_update events (each carries the
// whole message so far) are applied at most once per frame: the chat renders what a frame can
// show, not every token.
import type { ResoluteBridge } from '../../../shared/bridge';
import type { SessionEvent } from '../../../shared/events';
import type { Actions } from './actions';

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

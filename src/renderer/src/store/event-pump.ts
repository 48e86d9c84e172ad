// Wires the bridge to the store once at start-up: every SessionEvent goes to actions.dispatch
// (→ applySessionEvent); on connect and after every reconnect the snapshot and settings are
// fetched again, and the notices the main process raised while starting (or later, as start-up
// notices) are shown, once each.
// Events that arrive while that fetch runs are held and applied after the snapshot, so an older
// snapshot never overwrites a newer event.
import type { ResoluteBridge } from '../../../shared/bridge';
import type { SessionEvent } from '../../../shared/events';
import type { Actions } from './actions';

export function startEventPump(bridge: ResoluteBridge, actions: Actions): () => void {
  let isSyncing = false;
  let held: SessionEvent[] = [];
  const shownStartupNotices = new Set<string>();

  const onEvent = (event: SessionEvent): void => {
    // A start-up notice raised late comes as an event and in app.info: shown once either way.
    if (event.type === 'notice' && event.id !== undefined) {
      if (shownStartupNotices.has(event.id)) return;
      shownStartupNotices.add(event.id);
    }
    if (isSyncing) held.push(event);
    else actions.dispatch(event);
  };

  const sync = async (): Promise<void> => {
    isSyncing = true;
    try {
      const { snapshot, settings, startupNotices } = await actions.sync();
      actions.dispatch(settings);
      actions.dispatch(snapshot);
      for (const { id, level, message } of startupNotices) {
        if (shownStartupNotices.has(id)) continue;
        shownStartupNotices.add(id);
        actions.dispatch({ type: 'notice', level, message });
      }
    } catch (error) {
      actions.report(error);
    } finally {
      isSyncing = false;
      const queued = held;
      held = [];
      queued.forEach((event) => actions.dispatch(event));
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

// How events reach the store (Actions.dispatch, made by actions.ts): applied by the one reducer,
// applySessionEvent, in order and in one store update however many there are (so one render), then
// `onEvent` (the Esc swap listens there) is told of each. Its own file so that the actions and the
// store's module do not import each other.
import type { SessionEvent } from '../../../shared/events';
import { applySessionEvent } from './apply-session-event';
import type { AppStore } from './state';

export function eventDispatcher(store: AppStore, onEvent?: (event: SessionEvent) => void) {
  return (...events: SessionEvent[]): void => {
    if (events.length === 0) return;
    store.setState(events.reduce(applySessionEvent, store.getState()), true);
    if (onEvent) events.forEach((event) => onEvent(event));
  };
}

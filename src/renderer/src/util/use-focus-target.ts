// Moves focus where an action said it should go next (actions.requestFocus): the component that
// owns that target takes it once, when it is (or next becomes) mounted. Keeps focus off the page
// body after a button that disappears (Cancel, Retry now), a new chat or an opened session, and is
// how an app command (src/renderer/src/commands/) reaches a control another component owns.
import { useEffect, useRef, type RefObject } from 'react';
import { useAppState } from '../store/app-store';
import type { FocusTarget } from '../store/state';

/** The newest request already honoured, so a remount does not take focus again. */
let honoured = 0;

/** Hands each new request that `accepts` takes to `honour`, once, while the component is mounted. */
export function useFocusRequest(
  accepts: (target: FocusTarget) => boolean,
  honour: (target: FocusTarget) => void,
): void {
  const request = useAppState((s) => s.ui.focus);
  useEffect(() => {
    if (!request || request.n <= honoured || !accepts(request.target)) return;
    honoured = request.n;
    honour(request.target);
  }, [request, accepts, honour]);
}

const focus = (element: HTMLElement): void => element.focus();

/**
 * The ref of the element that takes `target` (null: none); `honour` is what taking it means —
 * focus, or (the composer's file input, whose picker opens only on a click) a click.
 */
export function useFocusTarget<T extends HTMLElement>(
  target: FocusTarget | null,
  honour: (element: T) => void = focus,
): RefObject<T | null> {
  const ref = useRef<T>(null);
  useFocusRequest(
    (requested) => requested === target && ref.current !== null,
    () => {
      if (ref.current) honour(ref.current);
    },
  );
  return ref;
}

// Moves focus where an action said it should go next (actions.requestFocus): the component that
// owns that target takes it once, when it is (or next becomes) mounted. Keeps focus off the page
// body after a button that disappears (Cancel, Retry now), a new chat or an opened session.
import { useEffect, useRef, type RefObject } from 'react';
import { useAppState } from '../store/app-store';
import type { FocusTarget } from '../store/state';

/** The newest request already honoured, so a remount does not take focus again. */
let honoured = 0;

export function useFocusTarget<T extends HTMLElement>(target: FocusTarget): RefObject<T | null> {
  const ref = useRef<T>(null);
  const request = useAppState((s) => s.ui.focus);
  useEffect(() => {
    if (!request || request.target !== target || request.n <= honoured || !ref.current) return;
    honoured = request.n;
    ref.current.focus();
  }, [request, target]);
  return ref;
}

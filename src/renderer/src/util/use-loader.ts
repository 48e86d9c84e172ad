// A tiny data-loading hook for the history views: runs `load` when its keys change, keeps the
// last answer, and ignores answers that arrive after a newer request (typing in search).
import { useEffect, useState } from 'react';

export interface Loaded<T> {
  data: T | undefined;
  isLoading: boolean;
}

export function useLoader<T>(load: () => Promise<T | undefined>, keys: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ data: undefined, isLoading: true });
  useEffect(() => {
    let isCurrent = true;
    setState((s) => ({ ...s, isLoading: true }));
    void load().then((data) => {
      if (isCurrent) setState({ data, isLoading: false });
    });
    return () => {
      isCurrent = false;
    };
    // The caller's keys decide when to reload; `load` is a fresh closure on every render.
  }, keys);
  return state;
}

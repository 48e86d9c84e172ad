// A tiny data-loading hook for the history views: runs `load` when its keys change, keeps the
// last answer while the next one loads, and ignores answers that arrive after a newer request
// (typing in search).
import { useEffect, useEffectEvent, useState } from 'react';

export interface Loaded<T> {
  data: T | undefined;
  isLoading: boolean;
}

export function useLoader<T>(load: () => Promise<T | undefined>, keys: readonly unknown[]): Loaded<T> {
  // The keys decide when to reload; `load` is a fresh closure on every render, so it is read
  // through an effect event instead of being a dependency.
  const key = JSON.stringify(keys);
  const [result, setResult] = useState<{ key: string; data: T | undefined } | null>(null);
  const runLoad = useEffectEvent(() => load());
  useEffect(() => {
    let isCurrent = true;
    void runLoad().then((data) => {
      if (isCurrent) setResult({ key, data });
    });
    return () => {
      isCurrent = false;
    };
  }, [key]);
  return { data: result?.data, isLoading: result?.key !== key };
}

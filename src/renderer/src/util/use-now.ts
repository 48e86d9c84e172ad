// The current time as React state, refreshed every `intervalMs` (default 1000 ms), for views
// that show whether something has expired (a key blocked until a time). Rendering stays pure:
// the clock is read in the state initialiser and the interval, never during render.
import { useEffect, useState } from 'react';

export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

// React hook over countdown.ts: the whole seconds left until `retryAtMs`, re-rendering once per
// second boundary. Used by RetryBanner.
import { useEffect, useState } from 'react';
import { secondsLeft, startCountdown } from './countdown';

export function useCountdown(retryAtMs: number): number {
  const [seconds, setSeconds] = useState(() => secondsLeft(retryAtMs, Date.now()));
  useEffect(() => startCountdown(retryAtMs, setSeconds), [retryAtMs]);
  return seconds;
}

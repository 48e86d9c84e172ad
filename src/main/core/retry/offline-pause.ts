// Offline-aware backoff (docs/retry-policy.md, "Offline: the chain pauses"): when a `connection`
// failure happens while the provider's host cannot be reached, the chain waits for the network
// instead of burning attempts. The accounting rule and the wait live here; the RetryController
// calls them, and the host supplies the reachability check (a HEAD request to the provider's host
// in Node modes, net.isOnline() in the desktop app).
import { abortableSleep } from './retry-chain';

/** How often a paused chain asks whether the network is back, ms. */
export const OFFLINE_POLL_MS = 1000;

/**
 * The retry counter after a `connection` failure. `previous` is the counter before it (0 at the
 * chain's first failure). Online, the failure counts like any other. Offline it does not: the
 * retry that was due stays due — the chain's first failure still opens retry 1 — so however long
 * the network is away and however often a retry fails in that time, no attempt is used up.
 */
export function attemptAfterConnectionFailure(previous: number, offline: boolean): number {
  const base = Number.isInteger(previous) && previous > 0 ? previous : 0;
  return offline ? Math.max(base, 1) : base + 1;
}

/** The reason the decision record of a pause gives. */
export const offlineReason = (attempt: number, maxAttempts: number): string =>
  `connection: offline, waiting for the network; retry ${attempt} of ${maxAttempts} kept`;

/** Is the provider reachable? A check that throws counts as "not reachable"; it never rejects. */
export async function isReachable(check: () => Promise<boolean>): Promise<boolean> {
  try {
    return (await check()) === true;
  } catch {
    return false;
  }
}

/**
 * Resolves once `check` says the provider is reachable again, asking every `pollMs`; rejects as
 * soon as `signal` aborts (the person cancelled the retry).
 */
export async function waitUntilOnline(
  check: () => Promise<boolean>,
  signal: AbortSignal,
  pollMs: number = OFFLINE_POLL_MS,
): Promise<void> {
  for (;;) {
    await abortableSleep(pollMs, signal).promise;
    if (await isReachable(check)) {
      if (signal.aborted) throw new Error('aborted');
      return;
    }
  }
}

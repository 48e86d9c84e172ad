// The Node modes' network check for offline-aware backoff (docs/retry-policy.md, "Offline: the
// chain pauses"): a HEAD request to the provider's host — any HTTP answer at all means the network
// and the host are there; no answer within the timeout means offline. No key is sent and redirects
// are not followed. The desktop app checks Electron's net.isOnline() instead (src/main/electron).
import type { NetworkCheck } from '../core/ports';

/** How long the check waits for any answer, ms. */
const PROBE_TIMEOUT_MS = 2000;

export function headProbe(timeoutMs: number = PROBE_TIMEOUT_MS): NetworkCheck {
  return async (baseUrl) => {
    let origin: string;
    try {
      origin = new URL(baseUrl).origin;
    } catch {
      return false;
    }
    try {
      await fetch(`${origin}/`, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
      return true;
    } catch {
      return false;
    }
  };
}

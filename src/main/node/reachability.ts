// The Node modes' network check for offline-aware backoff (docs/retry-policy.md, "Offline: the
// chain pauses"): a HEAD request to the provider's host — any HTTP answer at all means the network
// and the host are there; no answer within the timeout means offline. A refused connection is not
// offline either: something sent the refusal, so the network is there and the server is down.
// Nor is a loopback or private host (a local OpenAI-compatible server, one on the LAN) that does
// not answer: the machine's network has nothing to do with it, and pausing would wait forever
// (issue 24); the failure then counts like any other. Only a connection accepted and then cut —
// what the simulator's offline switch does — still reads as offline there. No key is sent and
// redirects are not followed. The desktop app checks Electron's net.isOnline() instead.
import { isLocalHost } from '../../shared/local-host';
import type { NetworkCheck } from '../core/ports';

export { isLocalHost };

/** How long the check waits for any answer, ms. */
const PROBE_TIMEOUT_MS = 2000;

/** The system error code under a failed fetch (undici puts it on `cause`). */
function causeCode(error: unknown): string | undefined {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

export function headProbe(timeoutMs: number = PROBE_TIMEOUT_MS): NetworkCheck {
  return async (baseUrl) => {
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      return false;
    }
    try {
      await fetch(`${url.origin}/`, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
      return true;
    } catch (error) {
      const code = causeCode(error);
      if (code === 'ECONNREFUSED') return true;
      return isLocalHost(url.hostname) && code !== 'ECONNRESET' && code !== 'UND_ERR_SOCKET';
    }
  };
}

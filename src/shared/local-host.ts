// Whether a host is on this machine or the local network (loopback, private, link-local,
// `localhost`, `*.local`): the Node modes' reachability check (src/main/node/reachability.ts) does
// not pause for one, and the offline banner offers a fallback model served there
// (docs/retry-policy.md, "Offline: the chain pauses"). Pure, so the window can ask it too.

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function isPrivateV4(address: string): boolean {
  const [a, b] = address.split('.').map(Number);
  return (
    a === 127 ||
    a === 10 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254) ||
    (a === 100 && b >= 64 && b <= 127) ||
    a === 0
  );
}

/** A host on this machine or the local network: loopback, private, link-local, `localhost`, `*.local`. */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local')) return true;
  if (IPV4.test(host)) return isPrivateV4(host);
  if (!host.includes(':')) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host)?.[1];
  if (mapped) return isPrivateV4(mapped);
  // ::1 loopback, fc00::/7 unique local, fe80::/10 link-local.
  return host === '::1' || /^f[cd][0-9a-f]{0,2}:/.test(host) || /^fe[89ab][0-9a-f]?:/.test(host);
}

/** Whether a base URL points at such a host; an empty or malformed one does not. */
export function isLocalUrl(baseUrl: string): boolean {
  try {
    return isLocalHost(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}

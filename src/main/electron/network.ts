// The desktop app's network check for offline-aware backoff (docs/retry-policy.md, "Offline: the
// chain pauses"): Electron's own view of the machine's connectivity, net.isOnline(), which follows
// the OS's online/offline state. A paused chain asks it on every poll, so going back online sends
// the held retry within a second. The Node modes check the provider's host instead (reachability.ts).
import { net } from 'electron';
import type { NetworkCheck } from '../core/ports';

export const electronNetworkCheck: NetworkCheck = () => Promise.resolve(net.isOnline());

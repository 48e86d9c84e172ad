// Playwright's global setup: the specs drive the built app (out/), so rebuild it first when it
// is missing or older than src/ — an e2e run never tests stale code (scripts/ensure-build.js).
import { rebuildIfStale } from '../../scripts/ensure-build.js';

export default function globalSetup(): void {
  rebuildIfStale();
}

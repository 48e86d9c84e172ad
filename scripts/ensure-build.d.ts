// Types for scripts/ensure-build.js (used by the Playwright global setup and the RPC-mode tests).
export function staleBuildReason(): string | null;
export function rebuildIfStale(options?: { quiet?: boolean }): boolean;
export function ensureBuild(options?: { quiet?: boolean }): void;

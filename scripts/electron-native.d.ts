// Types for scripts/electron-native.js (used by the Playwright fixtures).
export function electronSqliteBinding(): string | null;
export function ensureElectronSqlite(): Promise<string | null>;

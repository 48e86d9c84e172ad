// Types for scripts/electron-binary.js (used by the Playwright fixtures).
export function electronBinary(): string | null;

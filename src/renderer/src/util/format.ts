// Small display helpers shared by the chat and history views: locale-aware dates and waits.

/** A date and time in the UI language, e.g. "Mar 4, 2026, 14:05". */
export function formatDateTime(epochMs: number, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(epochMs);
}

/** Seconds with at most one decimal, e.g. 2 or 2.5 (decision records store waitSeconds). */
export function formatSeconds(seconds: number): string {
  return Number.isInteger(seconds) ? String(seconds) : seconds.toFixed(1);
}

// Small display helpers shared by the chat and history views: locale-aware dates and waits.

/** One formatter per language: building an Intl.DateTimeFormat costs far more than using one. */
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** A date and time in the UI language, e.g. "Mar 4, 2026, 14:05". */
export function formatDateTime(epochMs: number, language: string): string {
  let format = dateTimeFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
    dateTimeFormats.set(language, format);
  }
  return format.format(epochMs);
}

/** Seconds with at most one decimal, e.g. 2 or 2.5 (decision records store waitSeconds). */
export function formatSeconds(seconds: number): string {
  return Number.isInteger(seconds) ? String(seconds) : seconds.toFixed(1);
}

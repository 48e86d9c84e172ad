// Small display helpers shared by the chat and history views: locale-aware dates, numbers and
// waits, and warmFormats, which main.tsx calls when the page is idle.
import { formatUsd } from '../../../shared/failure-cost';

/** One formatter per language: building an Intl.DateTimeFormat costs far more than using one. */
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();

/** A date and time in the UI language, e.g. "Mar 4, 2026, 14:05". */
export function formatDateTime(epochMs: number, language: string): string {
  let format = dateTimeFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
    dateTimeFormats.set(language, format);
  }
  return format.format(epochMs);
}

/** A count in the UI language, e.g. "1,240" or "1.240". */
export function formatNumber(n: number, language: string): string {
  let format = numberFormats.get(language);
  if (!format) {
    format = new Intl.NumberFormat(language);
    numberFormats.set(language, format);
  }
  return format.format(n);
}

/**
 * The first Intl formatter of a kind for a language loads its locale data: 10–15 ms each for the
 * date, the plural rules (i18next's counts) and the currency, which would otherwise land in the
 * task that opens the first chat. Built ahead, when the page is idle; later ones are cheap.
 */
export function warmFormats(language: string): void {
  formatDateTime(Date.now(), language);
  formatNumber(1240, language);
  formatUsd(0.004, language);
  new Intl.PluralRules(language).select(2);
}

/** Seconds with at most one decimal, e.g. 2 or 2.5 (decision records store waitSeconds). */
export function formatSeconds(seconds: number): string {
  return Number.isInteger(seconds) ? String(seconds) : seconds.toFixed(1);
}

// An attachment's size in the person's language (docs/attachments.md, "In the composer"): the
// number by Intl.NumberFormat in the UI language, the unit from the i18n resources (attach.size.*).
// The chips (AttachmentChips) and the composer's refusals (pending-files.ts) use it; the main
// process's own messages keep shared describeBytes, in English like the rest of them.
import type { TFunction } from 'i18next';

const formats = new Map<string, Intl.NumberFormat>();

function numberIn(language: string, digits: number): Intl.NumberFormat {
  const key = `${language}/${digits}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, { minimumFractionDigits: digits, maximumFractionDigits: digits });
    formats.set(key, format);
  }
  return format;
}

/** "67 bytes", "340 KB", "1.2 MB" — or "67 バイト", "1,000KB", "1,2 MB" as the language writes them. */
export function formatBytes(bytes: number, t: TFunction, language: string): string {
  if (bytes < 1024) return t('attach.size.bytes', { n: numberIn(language, 0).format(bytes) });
  if (bytes < 1024 * 1024) return t('attach.size.kb', { n: numberIn(language, 0).format(Math.round(bytes / 1024)) });
  return t('attach.size.mb', { n: numberIn(language, 1).format(bytes / (1024 * 1024)) });
}

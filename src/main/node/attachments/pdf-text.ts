// A PDF's text, page by page: what a PDF attachment sends to the model (build-content.ts). PDF.js
// runs in a worker with limits (pdf-worker.ts): past the page cap only the first pages are read
// and the result says so; text past the character cap stops the reading at once. A page with no
// text layer (a scan) is named so the model knows it is missing. The refusals are told apart
// for the composer's message (docs/attachments.md, "Limits"). A PDF is read when it is attached
// (preparePdfText): the prompt that sends it finds its text ready (preparedPdfText), or waits only
// for the rest of that reading.
import { createHash } from 'node:crypto';
import { ATTACHMENT_LIMITS } from '../../../shared/attachments';
import { PdfReadError, readPdfPages, type PdfReadLimits } from './pdf-worker';

export interface PdfText {
  /** Pages in the document. */
  pages: number;
  /** Pages whose text is here: all of them, or the first `maxPages`. */
  pagesRead: number;
  /** 1-based numbers of the pages read that had no text. */
  emptyPages: number[];
  /** The pages' text, each under a "Page N" line. */
  text: string;
}

export interface PdfLimits extends PdfReadLimits {
  /** The text (page lines included) is refused past this many characters. */
  maxChars: number;
}

/**
 * A 200-page PDF reads in about 0.7 s on a small machine, 1,000 pages in about 5 s; 1,000 pages
 * of even sparse text is more than a model reads well in one message. 512 MB and 30 s are far
 * beyond what an ordinary PDF of that size needs, and far below what would hurt the app.
 */
export const PDF_LIMITS: PdfLimits = {
  maxPages: 500,
  maxChars: ATTACHMENT_LIMITS.maxTextChars,
  timeLimitMs: 30_000,
  memoryLimitMb: 512,
};

export type PdfErrorReason = 'encrypted' | 'damaged' | 'too_much_memory' | 'too_slow' | 'too_long';

export class PdfError extends Error {
  constructor(
    readonly reason: PdfErrorReason,
    message: string,
  ) {
    super(message);
  }
}

export async function pdfText(bytes: Uint8Array, limits: PdfLimits = PDF_LIMITS): Promise<PdfText> {
  const parts: string[] = [];
  const emptyPages: number[] = [];
  let length = 0;
  let isTooLong = false;
  const onPage = (pageText: string): boolean => {
    const number = parts.length + 1;
    const trimmed = pageText.trim();
    if (!trimmed) emptyPages.push(number);
    const part = `--- Page ${number} ---\n${trimmed || '(no text on this page)'}`;
    length += (parts.length ? 2 : 0) + part.length;
    parts.push(part);
    isTooLong = length > limits.maxChars;
    return !isTooLong;
  };
  let pages: number;
  try {
    ({ pages } = await readPdfPages(bytes, limits, onPage));
  } catch (error) {
    if (!(error instanceof PdfReadError)) throw error;
    throw new PdfError(error.failure.reason, error.failure.detail);
  }
  if (isTooLong)
    throw new PdfError(
      'too_long',
      `its text is longer than ${limits.maxChars.toLocaleString('en')} characters (stopped at page ${parts.length} of ${pages})`,
    );
  return { pages, pagesRead: parts.length, emptyPages, text: parts.join('\n\n') };
}

/** Readings begun at attach time, by the file's bytes; the oldest goes past this many. */
const PREPARED_MAX = 8;
const prepared = new Map<string, Promise<PdfText>>();

function keyOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('base64');
}

/** Start reading a PDF just attached (the worker's queue takes one at a time); its outcome is kept. */
export function preparePdfText(bytes: Uint8Array, limits: PdfLimits = PDF_LIMITS): void {
  const key = keyOf(bytes);
  if (prepared.has(key)) return;
  const reading = pdfText(bytes, limits);
  reading.catch(() => undefined);
  prepared.set(key, reading);
  for (const oldest of prepared.keys()) {
    if (prepared.size <= PREPARED_MAX) break;
    prepared.delete(oldest);
  }
}

/** The PDF's text: the reading begun when it was attached, or a new one (the same limits, the same refusals). */
export function preparedPdfText(bytes: Uint8Array, limits: PdfLimits = PDF_LIMITS): Promise<PdfText> {
  const key = keyOf(bytes);
  const reading = prepared.get(key);
  // Only a reading under the same limits stands in (the default ones: the window's attach and Send).
  if (reading && limits === PDF_LIMITS) return reading;
  return pdfText(bytes, limits);
}

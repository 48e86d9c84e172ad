// pdfText's limits, with real PDF.js in its real worker: the page cap reads the first pages and
// says how many there were; the character cap stops the reading at the page that passes it; the
// memory limit refuses a compression bomb (before its stream is inflated whole); the time limit
// ends a read that takes too long; and the worker stays usable after each.
import { describe, expect, it } from 'vitest';
import { PDF_LIMITS, PdfError, pdfText } from '../../../../src/main/node/attachments/pdf-text';
import { encryptedPdf, pdfBomb, pdfWithManyPages, pdfWithPages } from '../../../fixtures/attachment-files';

async function failureOf(promise: Promise<unknown>): Promise<PdfError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PdfError);
  return error as PdfError;
}

describe('pdfText', () => {
  it('reads every page of an ordinary PDF, page by page, naming the empty ones', async () => {
    const pdf = await pdfText(pdfWithPages(['First', '', 'Third']));
    expect(pdf).toEqual({
      pages: 3,
      pagesRead: 3,
      emptyPages: [2],
      text: '--- Page 1 ---\nFirst\n\n--- Page 2 ---\n(no text on this page)\n\n--- Page 3 ---\nThird',
    });
  });

  it('reads only the first pages past the page cap, and counts them all', async () => {
    const pdf = await pdfText(pdfWithManyPages(30), { ...PDF_LIMITS, maxPages: 12 });
    expect(pdf.pages).toBe(30);
    expect(pdf.pagesRead).toBe(12);
    expect(pdf.text).toContain('Page 12 of 30');
    expect(pdf.text).not.toContain('Page 13 of 30');
  });

  it('stops at the page whose text passes the character cap and refuses it', async () => {
    const error = await failureOf(pdfText(pdfWithManyPages(40), { ...PDF_LIMITS, maxChars: 300 }));
    expect(error.reason).toBe('too_long');
    // Each page is about 50 characters with its line: the seventh passes 300, and reading stops there.
    expect(error.message).toBe('its text is longer than 300 characters (stopped at page 7 of 40)');
  });

  it('refuses a compression bomb for memory, long before its stream is inflated whole', async () => {
    // No time limit to race: on a busy machine the 30 s one could answer first.
    const limits = { ...PDF_LIMITS, memoryLimitMb: 128, timeLimitMs: 3_600_000 };
    const error = await failureOf(pdfText(pdfBomb(1024 ** 3), limits));
    expect(error.reason).toBe('too_much_memory');
    expect(error.message).toBe('reading it needed more than 128 MB of memory');
  });

  it('ends a read that takes longer than the time limit', async () => {
    const error = await failureOf(pdfText(pdfWithManyPages(2_000), { ...PDF_LIMITS, timeLimitMs: 50 }));
    expect(error.reason).toBe('too_slow');
    expect(error.message).toBe('reading it took longer than 0.05 s');
  });

  it('tells an encrypted PDF and a damaged one apart, and reads the next PDF after each', async () => {
    expect((await failureOf(pdfText(encryptedPdf()))).reason).toBe('encrypted');
    expect((await failureOf(pdfText(Buffer.from('%PDF-1.4\n1 0 obj\n<<', 'latin1')))).reason).toBe('damaged');
    expect((await pdfText(pdfWithPages(['Again']))).text).toBe('--- Page 1 ---\nAgain');
  });

  it('leaves the caller’s bytes intact', async () => {
    const bytes = pdfWithPages(['Kept']);
    const before = Buffer.from(bytes);
    await pdfText(bytes);
    expect(Buffer.from(bytes).equals(before)).toBe(true);
  });
});

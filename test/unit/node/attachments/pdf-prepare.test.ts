// A PDF read when it is attached (preparePdfText, session.prepareAttachment): the prompt that sends
// the same bytes gets that reading, not a new one, with the same text or the same refusal; bytes
// not attached, or other limits, are read anew. Real PDF.js in its real worker.
import { expect, it } from 'vitest';
import {
  PDF_LIMITS,
  PdfError,
  pdfText,
  preparePdfText,
  preparedPdfText,
} from '../../../../src/main/node/attachments/pdf-text';
import { encryptedPdf, pdfWithPages } from '../../../fixtures/attachment-files';

it('hands the reading begun at attach time to the prompt that sends the same bytes', async () => {
  const attached = pdfWithPages(['Attached early']);
  preparePdfText(attached);
  const atSend = preparedPdfText(new Uint8Array(attached));
  expect(atSend).toBe(preparedPdfText(attached));
  expect(await atSend).toEqual(await pdfText(attached));
});

it('keeps a refusal found at attach time for the prompt', async () => {
  const locked = encryptedPdf();
  preparePdfText(locked);
  const error = await preparedPdfText(locked).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PdfError);
  expect((error as PdfError).reason).toBe('encrypted');
});

it('reads anew what was not attached, or under other limits', async () => {
  const other = pdfWithPages(['Never attached']);
  const attached = pdfWithPages(['Attached, other limits']);
  preparePdfText(attached);
  const readings = [
    preparedPdfText(other),
    preparedPdfText(other),
    preparedPdfText(attached, { ...PDF_LIMITS, maxPages: 1 }),
    preparedPdfText(attached),
  ];
  expect(readings[0]).not.toBe(readings[1]);
  expect(readings[2]).not.toBe(readings[3]);
  await Promise.all(readings);
});

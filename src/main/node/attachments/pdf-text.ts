// A PDF's text, page by page, with unpdf (PDF.js for servers) in the main process: what a PDF
// attachment sends to the model. A page with no text layer (a scan) is named so the model knows
// it is missing. Encrypted and damaged files are told apart for the composer's message.
import { extractText, getDocumentProxy } from 'unpdf';

export interface PdfText {
  pages: number;
  /** 1-based numbers of the pages that had no text. */
  emptyPages: number[];
  /** The pages' text, each under a "Page N" line. */
  text: string;
}

export class PdfError extends Error {
  constructor(
    readonly reason: 'encrypted' | 'damaged',
    message: string,
  ) {
    super(message);
  }
}

export async function pdfText(bytes: Uint8Array): Promise<PdfText> {
  let pages: string[];
  try {
    // PDF.js takes over the buffer it is given: a copy keeps the caller's bytes intact.
    const pdf = await getDocumentProxy(new Uint8Array(bytes), { stopAtErrors: true, verbosity: 0 });
    try {
      pages = (await extractText(pdf, { mergePages: false })).text;
    } finally {
      await pdf.loadingTask.destroy();
    }
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'PasswordException') throw new PdfError('encrypted', 'the PDF is encrypted (password protected)');
    throw new PdfError(
      'damaged',
      `the PDF is damaged or not a PDF (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const emptyPages = pages.flatMap((page, i) => (page.trim() ? [] : [i + 1]));
  const text = pages.map((page, i) => `--- Page ${i + 1} ---\n${page.trim() || '(no text on this page)'}`).join('\n\n');
  return { pages: pages.length, emptyPages, text };
}

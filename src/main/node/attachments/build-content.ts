// Turns a prompt's uploads into the content blocks the model gets (docs/attachments.md): images as
// pi-ai ImageContent fitted to the provider's limits, text and code files as a text block naming
// the file, PDFs as their extracted text. Every refusal is an AttachmentError naming the file and
// why; nothing is sent when one is refused. Called by AppServices for `session.prompt` and RPC `prompt`;
// a PDF is read ahead when attached (prepareUpload, `session.prepareAttachment`).
import type { Api, Model } from '@mariozechner/pi-ai';
import {
  ATTACHMENT_LIMITS,
  attachmentKind,
  base64Bytes,
  describeBytes,
  precheckUploads,
  type AttachedFile,
  type AttachmentRefusal,
  type AttachmentUpload,
} from '../../../shared/attachments';
import type { AttachmentBlock } from '../../../shared/messages';
import { imageLimitsFor } from '../../core/llm/image-limits';
import { fitImage, UnreadableImageError } from './image-fit';
import { PDF_LIMITS, PdfError, preparePdfText, preparedPdfText, type PdfErrorReason, type PdfLimits } from './pdf-text';

/** One or more attachments were refused; `refusals` says which and why. */
export class AttachmentError extends Error {
  constructor(readonly refusals: AttachmentRefusal[]) {
    super(refusals.map((r) => r.message).join(' '));
    this.name = 'AttachmentError';
  }
}

type ModelFacts = Pick<Model<Api>, 'api' | 'input'>;

/**
 * The blocks for `uploads` in order, or an AttachmentError with every refusal found. `pdfLimits`:
 * the app's own unless a test passes smaller ones (a compression bomb refused at 128 MB, not 512).
 */
export async function buildAttachmentContent(
  uploads: readonly AttachmentUpload[],
  model: ModelFacts,
  pdfLimits: PdfLimits = PDF_LIMITS,
): Promise<AttachmentBlock[]> {
  const files = uploads.map((u) => ({ name: u.name, mimeType: u.mimeType, size: base64Bytes(u.data) }));
  const early = precheckUploads(files, model.input.includes('image'));
  if (early.length) throw new AttachmentError(early);
  const blocks: AttachmentBlock[] = [];
  const refusals: AttachmentRefusal[] = [];
  for (const [i, upload] of uploads.entries()) {
    try {
      blocks.push(await blockFor(upload, files[i], model, pdfLimits));
    } catch (error) {
      if (!(error instanceof RefusedFile)) throw error;
      refusals.push(error.refusal);
    }
  }
  if (refusals.length) throw new AttachmentError(refusals);
  return blocks;
}

/**
 * A file just attached in the composer (session.prepareAttachment): a PDF starts being read now, in
 * the worker, so that Send finds its text ready. Anything else, or a file the prompt would refuse
 * for its size or data, waits for the prompt (which says why). True when a reading started.
 */
export function prepareUpload(upload: AttachmentUpload): boolean {
  if (attachmentKind(upload.name, upload.mimeType) !== 'pdf') return false;
  if (base64Bytes(upload.data) > ATTACHMENT_LIMITS.maxTotalBytes) return false;
  try {
    preparePdfText(decode(upload));
  } catch (error) {
    if (error instanceof RefusedFile) return false;
    throw error;
  }
  return true;
}

class RefusedFile extends Error {
  constructor(readonly refusal: AttachmentRefusal) {
    super(refusal.message);
  }
}

function refuse(code: AttachmentRefusal['code'], name: string, message: string): never {
  throw new RefusedFile({ code, name, message });
}

function decode(upload: AttachmentUpload): Buffer {
  // Buffer.from ignores what is not base64; a round trip tells a damaged upload apart.
  const bytes = Buffer.from(upload.data, 'base64');
  if (bytes.toString('base64').replace(/=+$/, '') !== upload.data.replace(/\s+/g, '').replace(/=+$/, ''))
    refuse('unreadable', upload.name, `"${upload.name}" could not be read (its data is not valid base64).`);
  return bytes;
}

async function blockFor(
  upload: AttachmentUpload,
  file: AttachedFile,
  model: ModelFacts,
  pdfLimits: PdfLimits,
): Promise<AttachmentBlock> {
  const bytes = decode(upload);
  const kind = attachmentKind(upload.name, upload.mimeType);
  if (kind === 'image') {
    try {
      const fitted = await fitImage(bytes, imageLimitsFor(model.api));
      return { type: 'image', data: fitted.data.toString('base64'), mimeType: fitted.mimeType, file };
    } catch (error) {
      if (!(error instanceof UnreadableImageError)) throw error;
      refuse('unreadable', upload.name, `"${upload.name}" could not be read as an image (${error.message}).`);
    }
  }
  if (kind === 'pdf') return pdfBlock(bytes, file, pdfLimits);
  return textBlock(bytes, file);
}

function checkLength(text: string, name: string): void {
  if (text.length > ATTACHMENT_LIMITS.maxTextChars)
    refuse(
      'text_too_long',
      name,
      `"${name}" has ${text.length.toLocaleString('en')} characters of text; at most ${ATTACHMENT_LIMITS.maxTextChars.toLocaleString('en')} can be sent.`,
    );
}

function textBlock(bytes: Buffer, file: AttachedFile): AttachmentBlock {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return refuse('unsupported_type', file.name, `"${file.name}" is not text (it is not UTF-8), so it cannot be used.`);
  }
  if (text.includes('\u0000'))
    refuse('unsupported_type', file.name, `"${file.name}" is a binary file, not text, so it cannot be used.`);
  checkLength(text, file.name);
  const fence = '`'.repeat(Math.max(3, longestRun(text, '`') + 1));
  const head = `Attached file "${file.name}" (${file.mimeType || 'text'}, ${describeBytes(file.size)}):`;
  return { type: 'text', text: `${head}\n${fence}\n${text.replace(/\n$/, '')}\n${fence}`, file };
}

/** The refusal each way a PDF can fail to give its text. */
const PDF_REFUSALS: Record<PdfErrorReason, AttachmentRefusal['code']> = {
  encrypted: 'pdf_encrypted',
  damaged: 'pdf_damaged',
  too_much_memory: 'pdf_too_complex',
  too_slow: 'pdf_too_complex',
  too_long: 'text_too_long',
};

async function pdfBlock(bytes: Buffer, file: AttachedFile, limits: PdfLimits): Promise<AttachmentBlock> {
  try {
    const pdf = await preparedPdfText(bytes, limits);
    const empty = pdf.emptyPages.length
      ? ` Pages with no text (scanned or images only): ${pdf.emptyPages.join(', ')}.`
      : '';
    const count = `${pdf.pages.toLocaleString('en')} page${pdf.pages === 1 ? '' : 's'}`;
    // Past the page cap the model is told what it has, so it can say so rather than guess at the rest.
    const whose =
      pdf.pagesRead < pdf.pages
        ? `the text of its first ${pdf.pagesRead.toLocaleString('en')} pages only (the rest were not read)`
        : 'its text';
    const head = `Attached PDF "${file.name}" (${count}, ${describeBytes(file.size)}), ${whose}:${empty}`;
    return { type: 'text', text: `${head}\n\n${pdf.text}`, file: { ...file, mimeType: 'application/pdf' } };
  } catch (error) {
    if (!(error instanceof PdfError)) throw error;
    return refuse(PDF_REFUSALS[error.reason], file.name, `"${file.name}" cannot be used: ${error.message}.`);
  }
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === char ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

// The composer's attachments before they are sent: each File read as base64 (FileReader, in the
// page), with a data: URL for an image's thumbnail, and the pre-checks the main process repeats
// (src/shared/attachments.ts) said in the person's language. Used by Composer.
import type { TFunction } from 'i18next';
import {
  ATTACHMENT_LIMITS,
  base64Bytes,
  precheckUploads,
  type AttachmentRefusal,
  type AttachmentUpload,
} from '../../../shared/attachments';
import { formatBytes } from './byte-size';

export interface PendingFile extends AttachmentUpload {
  id: string;
  size: number;
  /** A data: URL for the chip's thumbnail: images of a type a browser shows, else null. */
  preview: string | null;
}

/** Only these are shown as <img>; anything else is a chip with its name. */
export const SHOWN_IMAGE_TYPES = /^image\/(png|jpeg|gif|webp)$/;

let counter = 0;

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsDataURL(file);
  });
}

/** A pasted image has no name of its own; it gets one like a screenshot's. */
function nameOf(file: File): string {
  if (file.name && file.name !== 'image.png') return file.name;
  const extension = file.type.split('/')[1] ?? 'png';
  counter += 1;
  return `pasted-image-${counter}.${extension}`;
}

/** Read files for the composer; one that cannot be read is a refusal instead, the others still come. */
export async function readFiles(files: readonly File[]): Promise<{ read: PendingFile[]; failed: AttachmentRefusal[] }> {
  const read: PendingFile[] = [];
  const failed: AttachmentRefusal[] = [];
  for (const file of files) {
    const name = nameOf(file);
    // Past the message's cap it would be refused anyway: not read into memory.
    if (file.size > ATTACHMENT_LIMITS.maxTotalBytes) {
      read.push({ id: `f${(counter += 1)}`, name, mimeType: file.type, data: '', size: file.size, preview: null });
      continue;
    }
    try {
      const url = await readAsDataUrl(file);
      const data = url.slice(url.indexOf(',') + 1);
      const preview = SHOWN_IMAGE_TYPES.test(file.type) ? url : null;
      read.push({ id: `f${(counter += 1)}`, name, mimeType: file.type, data, size: file.size, preview });
    } catch {
      failed.push({ code: 'unreadable', name, message: '' });
    }
  }
  return { read, failed };
}

/** Files given back by the main process (a held prompt that was stopped) as chips again. */
export function pendingFromUploads(uploads: readonly AttachmentUpload[]): PendingFile[] {
  return uploads.map(({ name, mimeType, data }) => ({
    id: `f${(counter += 1)}`,
    name,
    mimeType,
    data,
    size: base64Bytes(data),
    preview: SHOWN_IMAGE_TYPES.test(mimeType) ? `data:${mimeType};base64,${data}` : null,
  }));
}

/** The pre-checks' refusals in the person's language. */
export function refusalsFor(
  files: readonly PendingFile[],
  acceptsImages: boolean | undefined,
  t: TFunction,
  language: string,
): { code: AttachmentRefusal['code']; text: string }[] {
  const size = (bytes: number): string => formatBytes(bytes, t, language);
  return precheckUploads(files, acceptsImages).map((refusal) => ({
    code: refusal.code,
    text: t(`attach.refused.${refusal.code}`, {
      name: refusal.name,
      max: refusal.code === 'too_many' ? ATTACHMENT_LIMITS.maxFiles : size(ATTACHMENT_LIMITS.maxTotalBytes),
      size: size(files.reduce((sum, file) => sum + file.size, 0)),
    }),
  }));
}

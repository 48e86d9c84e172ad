// Attachments as the contract carries them (docs/attachments.md): what a client uploads with a
// prompt, the limits of one message, and the pre-checks the composer and the main process both run
// before anything is read. The main process turns uploads into message content
// (src/main/node/attachments); the renderer shows them from the stored blocks' `file`.

/** One file as a client sends it: its name, the type it claims, its bytes as base64. */
export interface AttachmentUpload {
  name: string;
  mimeType: string;
  data: string;
}

/** What a content block made from an attachment remembers of its file (the chip shows it). */
export interface AttachedFile {
  name: string;
  mimeType: string;
  /** The file's size as attached, bytes (an image may be sent downscaled, smaller). */
  size: number;
}

/** The most a message's own words may be (trimmed); longer text goes as a file (docs/attachments.md). */
export const MESSAGE_TEXT_MAX_CHARS = 200_000;

/** The caps of one message's attachments: counted before anything is read or sent. */
export const ATTACHMENT_LIMITS = {
  maxFiles: 10,
  /** All files of one message together, as attached. */
  maxTotalBytes: 20 * 1024 * 1024,
  /** A text file or a PDF's extracted text longer than this is refused, not cut. */
  maxTextChars: 400_000,
} as const;

export type AttachmentKind = 'image' | 'pdf' | 'text';

export type AttachmentRefusalCode =
  | 'unsupported_type'
  | 'image_to_text_model'
  | 'too_many'
  | 'too_large'
  | 'unreadable'
  | 'pdf_encrypted'
  | 'pdf_damaged'
  | 'pdf_too_complex'
  | 'text_too_long';

/** Why an attachment was refused: coded (the composer says it in the person's language) and said. */
export interface AttachmentRefusal {
  code: AttachmentRefusalCode;
  /** The file it is about; empty for the message as a whole (too many, too large). */
  name: string;
  message: string;
}

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/tiff']);
const TEXT_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/javascript',
  'application/x-javascript',
  'application/typescript',
  'application/x-sh',
  'application/x-yaml',
  'application/yaml',
  'application/toml',
  'application/sql',
  'application/x-httpd-php',
  'image/svg+xml',
]);
// What browsers and clipboards leave untyped or type as octet-stream: source files by their name.
const TEXT_EXTENSIONS = new Set(
  (
    'txt md markdown rst csv tsv log json jsonl yaml yml toml ini cfg conf env xml html htm css scss less svg ' +
    'js mjs cjs jsx ts mts cts tsx py rb go rs java kt kts swift c h cc cpp hpp cs m mm php pl lua r scala sh ' +
    'bash zsh fish ps1 bat sql graphql proto vue svelte dart ex exs erl hs clj el vim tex diff patch gitignore ' +
    'dockerfile makefile gradle properties lock'
  ).split(' '),
);

function extensionOf(name: string): string {
  const base = name.toLowerCase().split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot === -1 ? base : base.slice(dot + 1);
}

/** How a file is used, by its claimed type and then its name; null: a type Resolute cannot use. */
export function attachmentKind(name: string, mimeType: string): AttachmentKind | null {
  const type = mimeType.toLowerCase().split(';')[0].trim();
  if (IMAGE_TYPES.has(type)) return 'image';
  if (type === 'application/pdf' || extensionOf(name) === 'pdf') return 'pdf';
  if (type.startsWith('text/') || TEXT_TYPES.has(type) || TEXT_EXTENSIONS.has(extensionOf(name))) return 'text';
  return null;
}

/** The size in bytes of base64 text, without decoding it. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** "1.2 MB", "340 KB", "67 bytes": sizes in the messages and chips. */
export function describeBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The checks that need no file's contents: the count, the total size, each file's type, and an
 * image to a model that reads text only. `acceptsImages` undefined: not known here (the main
 * process checks it against the model).
 */
export function precheckUploads(
  files: readonly { name: string; mimeType: string; size: number }[],
  acceptsImages: boolean | undefined,
): AttachmentRefusal[] {
  const refusals: AttachmentRefusal[] = [];
  const { maxFiles, maxTotalBytes } = ATTACHMENT_LIMITS;
  if (files.length > maxFiles)
    refusals.push({ code: 'too_many', name: '', message: `At most ${maxFiles} files can go with one message.` });
  const total = files.reduce((sum, file) => sum + file.size, 0);
  if (total > maxTotalBytes)
    refusals.push({
      code: 'too_large',
      name: '',
      message: `The attachments are ${describeBytes(total)} in all; one message can carry at most ${describeBytes(maxTotalBytes)}.`,
    });
  for (const file of files) {
    const kind = attachmentKind(file.name, file.mimeType);
    if (kind === null)
      refusals.push({
        code: 'unsupported_type',
        name: file.name,
        message: `"${file.name}" (${file.mimeType || 'unknown type'}) cannot be used: attach images, text or code files, or PDFs.`,
      });
    else if (kind === 'image' && acceptsImages === false)
      refusals.push({
        code: 'image_to_text_model',
        name: file.name,
        message: `The current model reads text only, so the image "${file.name}" cannot be sent to it.`,
      });
  }
  return refusals;
}

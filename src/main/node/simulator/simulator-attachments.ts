// What the simulator finds of attachments in a request, whichever API sent it: images in each
// wire's own shape (Anthropic's base64 source, Chat Completions' image_url, Responses' input_image,
// Gemini's inlineData) and the files Resolute sends as text blocks naming them. The reply names
// them ("I received "…" and 1 image (image/png, 67 bytes)"), so the round trip shows. Pure.
import { describeBytes, base64Bytes } from '../../../shared/attachments';

export interface WireImage {
  mimeType: string;
  /** Decoded size, bytes. */
  bytes: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

function fromDataUrl(url: unknown): WireImage | null {
  const match = typeof url === 'string' ? DATA_URL.exec(url) : null;
  return match ? { mimeType: match[1], bytes: base64Bytes(match[2]) } : null;
}

function imageOf(part: Record<string, unknown>): WireImage | null {
  // Anthropic: { type: 'image', source: { type: 'base64', media_type, data } }
  const source = part.source;
  if (part.type === 'image' && isRecord(source) && typeof source.data === 'string')
    return { mimeType: String(source.media_type), bytes: base64Bytes(source.data) };
  // Chat Completions: { type: 'image_url', image_url: { url: 'data:…' } }
  if (part.type === 'image_url' && isRecord(part.image_url)) return fromDataUrl(part.image_url.url);
  // Responses: { type: 'input_image', image_url: 'data:…' }
  if (part.type === 'input_image') return fromDataUrl(part.image_url);
  // Gemini: { inlineData: { mimeType, data } }
  const inline = part.inlineData;
  if (isRecord(inline) && typeof inline.data === 'string')
    return { mimeType: String(inline.mimeType), bytes: base64Bytes(inline.data) };
  return null;
}

/** The images of a message's content (or Gemini's parts), in order. */
export function wireImages(content: unknown): WireImage[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((part) => {
    const image = isRecord(part) ? imageOf(part) : null;
    return image ? [image] : [];
  });
}

const FILE_HEAD = /^Attached (?:file|PDF) "([^"\n]*)"/gm;

/** The person's own words and the names of the files sent with them (text blocks naming a file). */
export function splitAttachedFiles(text: string): { words: string; files: string[] } {
  const files = [...text.matchAll(FILE_HEAD)].map((match) => match[1]);
  const first = text.search(FILE_HEAD);
  return { words: first === -1 ? text : text.slice(0, first).trimEnd(), files };
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** " and 1 image (image/png, 67 bytes)", " and 2 files ("a.md", "b.pdf")", or "" for none. */
export function describeReceived(images: readonly WireImage[], files: readonly string[]): string {
  const parts: string[] = [];
  if (images.length)
    parts.push(
      `${plural(images.length, 'image')} (${images.map((i) => `${i.mimeType}, ${describeBytes(i.bytes)}`).join('; ')})`,
    );
  if (files.length) parts.push(`${plural(files.length, 'file')} (${files.map((f) => `"${f}"`).join(', ')})`);
  return parts.join(' and ');
}

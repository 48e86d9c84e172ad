// Fits an image to a provider's limits (core/llm/image-limits.ts) with sharp: an image within them is
// sent as it is; a larger one is scaled down (aspect ratio kept) and, while still too heavy,
// re-encoded at lower quality and then smaller. Formats the APIs do not all take (AVIF, TIFF) become
// PNG. Called by the attachment builder and the read tool's image helper. sharp (a native module) is
// loaded on the first image, not at start-up: most runs never see one.
import type { Metadata, Sharp, SharpOptions } from 'sharp';
import type { ImageLimits } from '../../core/llm/image-limits';

export interface FittedImage {
  data: Buffer;
  mimeType: string;
  width: number;
  height: number;
  /** The image was changed (scaled or re-encoded) to fit. */
  changed: boolean;
}

/** The image cannot be decoded: not an image, truncated, or a format sharp cannot read. */
export class UnreadableImageError extends Error {}

/** What every one of the four APIs takes as it is. */
const SENDABLE = new Set(['png', 'jpeg', 'gif', 'webp']);
// Past this many pixels an image is refused before decoding (sharp's own default guard).
const MAX_INPUT_PIXELS = 268_402_689;

type SharpFactory = (input: Buffer, options: SharpOptions) => Sharp;
let loaded: Promise<SharpFactory> | null = null;
const loadSharp = (): Promise<SharpFactory> => (loaded ??= import('sharp').then((module) => module.default));

const base64Length = (bytes: number): number => Math.ceil(bytes / 3) * 4;

export async function fitImage(input: Buffer, limits: ImageLimits): Promise<FittedImage> {
  const sharp = await loadSharp();
  let meta: Metadata;
  // A file's own type is what sharp finds in it, not what its name or the client claimed.
  try {
    meta = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  } catch (error) {
    throw new UnreadableImageError(error instanceof Error ? error.message : String(error));
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  const format = meta.format ?? '';
  if (!width || !height) throw new UnreadableImageError('the image has no size');
  const fits =
    SENDABLE.has(format) &&
    Math.max(width, height) <= limits.maxEdge &&
    base64Length(input.length) <= limits.maxBase64Bytes;
  if (fits) return { data: input, mimeType: `image/${format}`, width, height, changed: false };
  return shrink(sharp, input, { width, height, format }, limits);
}

interface Source {
  width: number;
  height: number;
  format: string;
}

/** Scale to the edge limit, then step quality and size down until the bytes fit. */
async function shrink(sharp: SharpFactory, input: Buffer, source: Source, limits: ImageLimits): Promise<FittedImage> {
  // A JPEG stays JPEG (its size is what quality controls); anything else stays lossless, as PNG.
  const asPng = source.format !== 'jpeg';
  let edge = Math.min(limits.maxEdge, Math.max(source.width, source.height));
  for (let step = 0; step < 12; step += 1) {
    const quality = Math.max(50, 85 - step * 10);
    const pipeline = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
      .rotate()
      .resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true });
    const encoded = asPng ? pipeline.png({ compressionLevel: 9 }) : pipeline.jpeg({ quality, mozjpeg: true });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    if (base64Length(data.length) <= limits.maxBase64Bytes)
      return {
        data,
        mimeType: asPng ? 'image/png' : 'image/jpeg',
        width: info.width,
        height: info.height,
        changed: true,
      };
    // Too heavy still: JPEG first tries lower quality at this size, then both shrink by a quarter.
    if (asPng || quality <= 55) edge = Math.max(64, Math.floor(edge * 0.75));
  }
  throw new UnreadableImageError('the image could not be made small enough to send');
}

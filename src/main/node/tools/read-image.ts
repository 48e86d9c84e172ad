// The read tool on an image in the workspace (docs/tools.md, "read"): a PNG, JPEG, GIF or WebP goes
// back to the model as an image, fitted to the limits every provider accepts (the tool cannot know
// which model reads the result: a fallback may switch it), with a line saying what it is. pi-ai
// replaces the image with a note for a model that reads text only. Called by NodeToolRuntime before
// the text read; null for any other file.
import { extname } from 'node:path';
import type { ToolOutcome } from '../../core/ports';
import { ANY_PROVIDER_LIMITS } from '../../core/llm/image-limits';
import { formatSize } from './output-caps';
import { fitImage, UnreadableImageError } from '../attachments/image-fit';
import { readExisting } from './file-access';

const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp']);

export async function readImage(workspace: string, args: Record<string, unknown>): Promise<ToolOutcome | null> {
  const path = String(args.path);
  if (!IMAGE_EXTENSIONS.has(extname(path).toLowerCase())) return null;
  const { bytes } = readExisting(workspace, path);
  let fitted;
  try {
    fitted = await fitImage(bytes, ANY_PROVIDER_LIMITS);
  } catch (error) {
    if (error instanceof UnreadableImageError) return null; // named like an image, but not one: read it as a file
    throw error;
  }
  const scaled = fitted.changed ? `, sent scaled to ${fitted.width}×${fitted.height} px` : '';
  const text = `${path}: an image (${fitted.mimeType}, ${formatSize(bytes.length)}, ${fitted.width}×${fitted.height} px${scaled}).`;
  return {
    text,
    details: {},
    isError: false,
    images: [
      {
        type: 'image',
        data: fitted.data.toString('base64'),
        mimeType: fitted.mimeType,
        file: { name: path, mimeType: fitted.mimeType, size: bytes.length },
      },
    ],
  };
}

// The image limits of each provider API, as their documentation states them (docs/attachments.md,
// "Limits"). The attachment builder and the read tool fit every image to these before it is sent;
// pure, so the builder's tests and the read tool share one table.
import type { Api } from '@mariozechner/pi-ai';

export interface ImageLimits {
  /** The longest side, pixels: larger images are scaled down, the aspect ratio kept. */
  maxEdge: number;
  /** The image's base64 text, bytes (Anthropic counts the encoded length). */
  maxBase64Bytes: number;
}

const MB = 1024 * 1024;

/** Anthropic: 8,000 px a side, 5 MB an image. */
const ANTHROPIC: ImageLimits = { maxEdge: 8000, maxBase64Bytes: 5 * MB };
/** OpenAI: images are fitted into 2,048 px by the API itself (larger costs bytes, not detail); 20 MB an image. */
const OPENAI: ImageLimits = { maxEdge: 2048, maxBase64Bytes: 20 * MB };
/** Google: larger than 3,072 px is scaled down by the API; 7 MB an inline image (the request carries 20 MB). */
const GOOGLE: ImageLimits = { maxEdge: 3072, maxBase64Bytes: 7 * MB };

/**
 * Within Anthropic's, OpenAI's and Google's limits at once: for a tool's images (the read tool's,
 * an MCP server's), since a tool cannot know which model reads its result (a fallback may switch it).
 */
export const ANY_PROVIDER_LIMITS: ImageLimits = { maxEdge: 2048, maxBase64Bytes: 5 * MB };

export function imageLimitsFor(api: Api): ImageLimits {
  if (api === 'anthropic-messages' || api === 'bedrock-converse-stream') return ANTHROPIC;
  if (api === 'google-generative-ai' || api === 'google-vertex') return GOOGLE;
  return OPENAI;
}

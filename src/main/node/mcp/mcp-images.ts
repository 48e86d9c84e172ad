// An MCP server's images fitted before they reach the model, as the read tool fits its own
// (docs/mcp.md, "Tools"): scaled to within every provider's limits (core/llm/image-limits.ts), since a
// server may return anything — a 16000×16000 screenshot went to the provider as it was. One the
// image library cannot read is left out with a note. Called by mcp-tools.ts on each call's outcome.
import type { ToolOutcome } from '../../core/ports';
import { ANY_PROVIDER_LIMITS } from '../../core/llm/image-limits';
import { fitImage, UnreadableImageError } from '../attachments/image-fit';

type OutcomeImage = NonNullable<ToolOutcome['images']>[number];

/** The outcome with each image fitted, and a line for the model on each one changed or left out. */
export async function fitMcpImages(outcome: ToolOutcome): Promise<ToolOutcome> {
  if (!outcome.images?.length) return outcome;
  const images: OutcomeImage[] = [];
  const notes: string[] = [];
  for (const [i, image] of outcome.images.entries()) {
    const name = `image ${i + 1}`;
    try {
      const fitted = await fitImage(Buffer.from(image.data, 'base64'), ANY_PROVIDER_LIMITS);
      images.push({ ...image, data: fitted.data.toString('base64'), mimeType: fitted.mimeType });
      // Coordinates the model reads off a scaled image (a screenshot to click on) need the scale.
      if (fitted.changed) notes.push(`[${name}: sent scaled to ${fitted.width}×${fitted.height} px]`);
    } catch (error) {
      if (!(error instanceof UnreadableImageError)) throw error;
      notes.push(`[${name} (${image.mimeType}) left out: it could not be read as an image (${error.message})]`);
    }
  }
  const text = [outcome.text, ...notes].filter(Boolean).join('\n');
  return {
    text: text || '(no output)',
    details: outcome.details,
    isError: outcome.isError,
    ...(images.length ? { images } : {}),
  };
}

// Two small readers of text every layer needs: an error's own words (whatever was thrown), and the
// words of a message's or tool result's content (a string, or the parts that carry `text`). Used
// wherever an error or a content array is shown, logged or sent. Loads no package: cli.ts, whose
// `--help` must load none, imports it.

/** An Error's message, anything else thrown as a string. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The text of a content value: a string as it is; of an array, the parts with a string `text`
 * (text blocks, and the wire's text parts) joined by newlines; '' for anything else.
 */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((part) => {
      const text = (part as { text?: unknown } | null)?.text;
      return typeof text === 'string' ? [text] : [];
    })
    .join('\n');
}

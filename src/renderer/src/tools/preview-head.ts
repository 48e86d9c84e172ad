// How much of an approval's diff the card shows before "Show all" (docs/tools.md, "Approvals"):
// the first 2,000 lines or 50 KB, whichever comes first, and how many lines that leaves out, so the
// card can say so — a change is never cut silently. Pure; used by ApprovalDiff.tsx.

export const PREVIEW_HEAD_LINES = 2000;
export const PREVIEW_HEAD_BYTES = 50 * 1024;

export interface PreviewHead {
  /** The lines shown until the person asks for all. */
  shown: string[];
  /** Lines left out of `shown` (0: the whole diff is shown). */
  hiddenLines: number;
  totalLines: number;
}

const encoder = new TextEncoder();

export function previewHead(diff: string, maxLines = PREVIEW_HEAD_LINES, maxBytes = PREVIEW_HEAD_BYTES): PreviewHead {
  const lines = diff.split('\n');
  let bytes = 0;
  let kept = 0;
  while (kept < lines.length && kept < maxLines) {
    bytes += encoder.encode(lines[kept]).length + 1;
    // Always one line at least, even a longer one: the card is never empty.
    if (bytes > maxBytes && kept > 0) break;
    kept += 1;
  }
  return { shown: lines.slice(0, kept), hiddenLines: lines.length - kept, totalLines: lines.length };
}

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

/** A command's or MCP call's arguments: the first lines shown, a long line cut (docs/tools.md, "Approvals"). */
export const TEXT_HEAD_LINES = 12;
export const TEXT_HEAD_CHARS = 1000;

export interface TextHead {
  shown: string;
  /** Whole lines left out after `shown` (a line cut in the middle is counted in hiddenChars only). */
  hiddenLines: number;
  /** Characters left out; 0: the whole text is shown. */
  hiddenChars: number;
  totalLines: number;
}

/**
 * The head of a text shown in a box that must not hide its tail: a command of `ls`, 70 empty
 * lines and `curl … | sh` scrolled its last line out of sight with nothing to say so (issue 40).
 */
export function textHead(text: string, maxLines = TEXT_HEAD_LINES, maxChars = TEXT_HEAD_CHARS): TextHead {
  let cut = 0;
  for (let line = 0; line < maxLines && cut < text.length; line++) {
    const end = text.indexOf('\n', cut);
    cut = end < 0 ? text.length : end + 1;
  }
  cut = Math.min(cut, maxChars, text.length);
  const rest = text.slice(cut);
  const totalLines = text.split('\n').length;
  // A cut at a line's start leaves that line and every later one; a cut inside a line, only the later ones whole.
  const hiddenLines = rest === '' ? 0 : rest.split('\n').length - (cut > 0 && text[cut - 1] !== '\n' ? 1 : 0);
  return { shown: text.slice(0, cut).replace(/\n$/, ''), hiddenLines, hiddenChars: rest.length, totalLines };
}

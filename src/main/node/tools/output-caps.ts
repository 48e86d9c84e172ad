// Output caps for tool results (docs/tools.md, "Outputs"): a result keeps at most MAX_LINES lines
// and MAX_BYTES bytes, whichever is hit first, and never a partial line (except the one long last
// line of a command's output). `read`, `ls`, `find` and `grep` keep the head; `bash` keeps the
// tail, where errors and results are. Pure: used by the node tools and their tests.

export const MAX_LINES = 2000;
export const MAX_BYTES = 50 * 1024;
/** A grep match line longer than this many characters is shortened. */
export const MAX_MATCH_LINE_CHARS = 500;

export interface Capped {
  text: string;
  truncated: boolean;
  /** Which cap was hit, when one was. */
  cutBy: 'lines' | 'bytes' | null;
  totalLines: number;
  totalBytes: number;
  /** Lines kept (whole lines; for the tail, a partial last line counts as one). */
  keptLines: number;
  /** The single line alone was larger than the byte cap (head: nothing kept; tail: its end kept). */
  lineTooLong: boolean;
}

export interface CapLimits {
  maxLines?: number;
  maxBytes?: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const byteLength = (text: string): number => encoder.encode(text).length;

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function uncut(text: string, lines: string[], totalBytes: number): Capped {
  return {
    text,
    truncated: false,
    cutBy: null,
    totalLines: lines.length,
    totalBytes,
    keptLines: lines.length,
    lineTooLong: false,
  };
}

function cut(
  kept: string[],
  cutBy: Capped['cutBy'],
  totalLines: number,
  totalBytes: number,
  lineTooLong: boolean,
): Capped {
  return { text: kept.join('\n'), truncated: true, cutBy, totalLines, totalBytes, keptLines: kept.length, lineTooLong };
}

/** The caps, the lines, and the text itself when it fits both caps. */
function measure(text: string, limits: CapLimits) {
  const maxLines = limits.maxLines ?? MAX_LINES;
  const maxBytes = limits.maxBytes ?? MAX_BYTES;
  const lines = text.split('\n');
  const totalBytes = byteLength(text);
  const fits = lines.length <= maxLines && totalBytes <= maxBytes;
  return { maxLines, maxBytes, lines, totalBytes, whole: fits ? uncut(text, lines, totalBytes) : null };
}

/** Keep the first lines that fit both caps. */
export function capHead(text: string, limits: CapLimits = {}): Capped {
  const { maxLines, maxBytes, lines, totalBytes, whole } = measure(text, limits);
  if (whole) return whole;
  const kept: string[] = [];
  let bytes = 0;
  let cutBy: Capped['cutBy'] = 'lines';
  for (const line of lines) {
    if (kept.length >= maxLines) break;
    const size = byteLength(line) + (kept.length > 0 ? 1 : 0);
    if (bytes + size > maxBytes) {
      cutBy = 'bytes';
      break;
    }
    kept.push(line);
    bytes += size;
  }
  return cut(kept, cutBy, lines.length, totalBytes, kept.length === 0);
}

/** Keep the last lines that fit both caps; a last line longer than the byte cap keeps its end. */
export function capTail(text: string, limits: CapLimits = {}): Capped {
  const { maxLines, maxBytes, lines, totalBytes, whole } = measure(text, limits);
  if (whole) return whole;
  const kept: string[] = [];
  let bytes = 0;
  let cutBy: Capped['cutBy'] = 'lines';
  let lineTooLong = false;
  for (let i = lines.length - 1; i >= 0 && kept.length < maxLines; i -= 1) {
    const size = byteLength(lines[i]) + (kept.length > 0 ? 1 : 0);
    if (bytes + size > maxBytes) {
      cutBy = 'bytes';
      if (kept.length === 0) {
        kept.unshift(endOfLine(lines[i], maxBytes));
        lineTooLong = true;
      }
      break;
    }
    kept.unshift(lines[i]);
    bytes += size;
  }
  return cut(kept, cutBy, lines.length, totalBytes, lineTooLong);
}

/** The last maxBytes of a line, starting on a character boundary. */
function endOfLine(line: string, maxBytes: number): string {
  const bytes = encoder.encode(line);
  let start = bytes.length - maxBytes;
  while (start < bytes.length && (bytes[start] & 0xc0) === 0x80) start += 1;
  return decoder.decode(bytes.subarray(start));
}

/** Shorten one grep match line. */
export function capLine(line: string, maxChars = MAX_MATCH_LINE_CHARS): { text: string; cut: boolean } {
  if (line.length <= maxChars) return { text: line, cut: false };
  return { text: `${line.slice(0, maxChars)}… [line cut at ${maxChars} characters]`, cut: true };
}

/** The note a tail-capped command output ends with, saying what was cut. */
export function tailNote(capped: Capped): string | null {
  if (!capped.truncated) return null;
  const first = capped.totalLines - capped.keptLines + 1;
  if (capped.lineTooLong)
    return `[Output cut: showing the last ${formatSize(byteLength(capped.text))} of line ${capped.totalLines}.]`;
  const by = capped.cutBy === 'bytes' ? ` (${formatSize(MAX_BYTES)} limit)` : '';
  return `[Output cut: showing lines ${first}-${capped.totalLines} of ${capped.totalLines}${by}.]`;
}

/** A list (ls, find, grep) cut to the byte cap, its notes — what was cut — in brackets at the end. */
export function listOutput(lines: readonly string[], notes: (string | false)[]): { text: string; truncated: boolean } {
  const capped = capHead(lines.join('\n'), { maxLines: Number.MAX_SAFE_INTEGER });
  const kept = [...notes, capped.truncated && `${formatSize(MAX_BYTES)} limit reached`].filter((note): note is string =>
    Boolean(note),
  );
  return { text: kept.length ? `${capped.text}\n\n[${kept.join('. ')}]` : capped.text, truncated: kept.length > 0 };
}

/** A control character (a newline among them) or a Unicode line break: it would break a listing's lines. */
// eslint-disable-next-line no-control-regex
const UNSAFE_IN_LIST = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * A file name or path as ls, find and grep list it, one per line: as it is, unless it holds a
 * control character or a line break, or starts with a double quote — then as a JSON string
 * (`"a\nb.txt"`), so every line is one name and a quoted one reads back unambiguously.
 */
export function listedName(name: string): string {
  return UNSAFE_IN_LIST.test(name) || name.startsWith('"') ? JSON.stringify(name) : name;
}

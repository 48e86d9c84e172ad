// The diff of a file change, with a bounded cost (docs/tools.md, "Approvals"): a line diff whose
// edit-distance search gives up past a budget (jsdiff's maxEditLength and timeout), falling back to
// a whole-file view — every old line removed, every new line added — which costs one pass. So a
// large `write` (one 469 KB replace took 30 s) never holds the event loop for more than ~100 ms.
// Pure: edit-apply.ts's unifiedDiff and the approval preview (write-tool.ts) use it.
import { createTwoFilesPatch } from 'diff';

/** Changed lines past which the line-by-line comparison gives up (~90 ms for a 470 KB replace). */
export const DIFF_MAX_EDIT_LENGTH = 500;
/** And a wall-clock ceiling, for a slow or busy machine. */
export const DIFF_TIMEOUT_MS = 80;

export interface ChangeDiff {
  /** A unified diff from the first hunk on, "\n" line endings. */
  diff: string;
  /** Set when the texts were too different to compare line by line: shown as a whole replacement. */
  whole: { beforeLines: number; afterLines: number } | null;
}

const toLf = (text: string): string => text.replace(/\r\n/g, '\n');

/** The change from `before` to `after` as a unified diff (the cards name the file themselves). */
export function changeDiff(path: string, before: string, after: string): ChangeDiff {
  const [a, b] = [toLf(before), toLf(after)];
  // A new file (or an emptied one) has one possible diff: no search needed.
  if (a !== '' && b !== '') {
    const options = { context: 3, maxEditLength: DIFF_MAX_EDIT_LENGTH, timeout: DIFF_TIMEOUT_MS };
    const patch = createTwoFilesPatch(path, path, a, b, '', '', options);
    if (patch !== undefined) return { diff: patch.split('\n').slice(4).join('\n').trimEnd(), whole: null };
  }
  const [old, next] = [splitLines(a), splitLines(b)];
  const whole = a !== '' && b !== '' ? { beforeLines: old.lines.length, afterLines: next.lines.length } : null;
  return { diff: wholeReplacement(old, next), whole };
}

interface Lines {
  lines: string[];
  /** The text ends with a line break (else the last line gets diff's "\ No newline" marker). */
  endsWithBreak: boolean;
}

function splitLines(text: string): Lines {
  if (text === '') return { lines: [], endsWithBreak: true };
  const lines = text.split('\n');
  const endsWithBreak = lines.at(-1) === '';
  if (endsWithBreak) lines.pop();
  return { lines, endsWithBreak };
}

/** One hunk: all of `old` removed, all of `next` added. */
function wholeReplacement(old: Lines, next: Lines): string {
  const range = (side: Lines) => `${side.lines.length === 0 ? 0 : 1},${side.lines.length}`;
  const out = [`@@ -${range(old)} +${range(next)} @@`];
  const emit = (side: Lines, mark: string) => {
    for (const line of side.lines) out.push(mark + line);
    if (side.lines.length > 0 && !side.endsWithBreak) out.push('\\ No newline at end of file');
  };
  emit(old, '-');
  emit(next, '+');
  return out.join('\n');
}

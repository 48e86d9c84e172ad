// How the `edit` tool changes a file (docs/tools.md, "edit"): every edits[].oldText is matched
// against the ORIGINAL file (not after earlier edits), must occur exactly once, and must not
// overlap another edit; otherwise nothing is written (a `patch_apply` failure). Line endings:
// in a CRLF file an oldText written with "\n" also matches its "\r\n" form, and its newText is
// written with "\r\n", so every byte outside the replaced spans stays as it was. Pure: the edit
// tool (src/main/node/tools/edit-tool.ts) reads and writes, this decides.
import { changeDiff, type ChangeDiff } from './change-diff';

export interface TextEdit {
  oldText: string;
  newText: string;
}

export type EditOutcome =
  | { ok: true; content: string; diff: string; changed: boolean; whole: ChangeDiff['whole'] }
  | { ok: false; reason: string; editIndex: number | null };

interface Match {
  index: number;
  start: number;
  end: number;
  newText: string;
}

const toLf = (text: string): string => text.replace(/\r\n/g, '\n');
const toCrLf = (text: string): string => toLf(text).replace(/\n/g, '\r\n');

/**
 * Where `needle` occurs, up to two places: an edit needs only "once" or "not unique", and a list of
 * every place — one per byte for `a` in a 60 MB file of `a`s — took 1.7 GB.
 */
function occurrences(content: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = content.indexOf(needle); at >= 0 && found.length < 2; at = content.indexOf(needle, at + 1))
    found.push(at);
  return found;
}

function label(index: number, total: number): string {
  return total === 1 ? 'oldText' : `edits[${index}].oldText`;
}

/** The one place an edit's oldText occurs, in the file's own line endings, or why there is none. */
function locate(content: string, edit: TextEdit, index: number, total: number, path: string): Match | string {
  if (edit.oldText.length === 0) return `${label(index, total)} is empty in ${path}; give the text to replace.`;
  const usesCrLf = content.includes('\r\n');
  const forms = usesCrLf ? [...new Set([toCrLf(edit.oldText), edit.oldText])] : [toLf(edit.oldText)];
  for (const form of forms) {
    const at = occurrences(content, form);
    if (at.length > 1)
      return `${label(index, total)} occurs more than once in ${path}; it must be unique — add surrounding lines to it.`;
    if (at.length === 1) {
      // Written in the line ending of the span it replaces: CRLF unless it matched a LF-only span.
      const isLfSpan = form.includes('\n') && !form.includes('\r\n');
      const newText = usesCrLf && !isLfSpan ? toCrLf(edit.newText) : toLf(edit.newText);
      return { index, start: at[0], end: at[0] + form.length, newText };
    }
  }
  return `Could not find ${label(index, total)} in ${path}. It must match the file exactly, whitespace and line breaks included.`;
}

/** A unified diff of a change, in "\n" line endings, for the tool card and the approval card. */
export function unifiedDiff(path: string, before: string, after: string): string {
  return changeDiff(path, before, after).diff;
}

/** Apply the edits to `original`; never throws. */
export function applyEdits(original: string, edits: readonly TextEdit[], path: string): EditOutcome {
  if (edits.length === 0) return { ok: false, reason: `No edits were given for ${path}.`, editIndex: null };
  const matches: Match[] = [];
  for (const [index, edit] of edits.entries()) {
    const match = locate(original, edit, index, edits.length, path);
    if (typeof match === 'string') return { ok: false, reason: match, editIndex: index };
    matches.push(match);
  }
  matches.sort((a, b) => a.start - b.start);
  for (let i = 1; i < matches.length; i += 1) {
    const [prev, next] = [matches[i - 1], matches[i]];
    if (next.start < prev.end) {
      const reason = `edits[${prev.index}] and edits[${next.index}] overlap in ${path}; merge them into one edit.`;
      return { ok: false, reason, editIndex: next.index };
    }
  }
  let content = original;
  for (const match of [...matches].reverse()) {
    content = content.slice(0, match.start) + match.newText + content.slice(match.end);
  }
  const { diff, whole } = changeDiff(path, original, content);
  return { ok: true, content, diff, changed: content !== original, whole };
}

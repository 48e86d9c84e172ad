// The file tools — read, ls, write, edit — on the real file system, each path confined to the
// workspace by workspace-fs.ts (docs/tools.md, "The tools"). Outputs are capped with a note saying
// what was cut; binary files are refused politely; an edit that does not apply leaves the file
// byte-identical and fails with `patch_apply`. Called by NodeToolRuntime.
import { applyEdits, unifiedDiff, type TextEdit } from '../../core/tools/edit-apply';
import { changeDiff } from '../../core/tools/change-diff';
import { MAX_BYTES, capHead, formatSize, listOutput } from '../../core/tools/output-caps';
import { ToolFailure } from '../../core/tools/tool-failure';
import { LS_DEFAULT_LIMIT } from '../../core/tools/tool-schemas';
import type { ToolOutcome } from '../../core/ports';
import type { ApprovalPreview } from '../../../shared/tools';
import { listConfined, readConfined, writeConfined } from './confined-io';
import { resolveInWorkspace, type WorkspacePath } from './workspace-fs';

/** Files larger than this are not read whole (bash's head/sed/tail can still look inside). */
const MAX_READ_FILE_BYTES = 64 * 1024 * 1024;
/** How far into a file the binary check looks. */
const BINARY_PROBE_BYTES = 8192;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A positive whole number from a model's argument, or undefined. */
export function positiveInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 1 ? Math.floor(value) : undefined;
}

const ok = (text: string, details: ToolOutcome['details'] = {}): ToolOutcome => ({ text, details, isError: false });

/** The file's text, or null when it is binary (a NUL byte, or not UTF-8). */
function decodeText(bytes: Buffer): string | null {
  if (bytes.subarray(0, BINARY_PROBE_BYTES).includes(0)) return null;
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

export function readExisting(workspace: string, path: string): { file: WorkspacePath; bytes: Buffer } {
  const file = resolveInWorkspace(workspace, path, false);
  if (!file.stat) throw new Error(`File not found: ${path}`);
  const bytes = readConfined(workspace, file, path, (stat) => {
    if (!stat.isFile()) throw new Error(`${path} is not a file.`);
    if (stat.size > MAX_READ_FILE_BYTES)
      throw new Error(
        `${path} is ${formatSize(stat.size)}; read takes files up to ${formatSize(MAX_READ_FILE_BYTES)}.`,
      );
  });
  return { file, bytes };
}

export function readTool(workspace: string, args: Record<string, unknown>): ToolOutcome {
  const path = String(args.path);
  const { bytes } = readExisting(workspace, path);
  const text = decodeText(bytes);
  if (text === null) return ok(`${path} is a binary file (${formatSize(bytes.length)}); read shows text files only.`);
  const lines = text.split('\n');
  const offset = positiveInt(args.offset) ?? 1;
  const limit = positiveInt(args.limit);
  if (offset > lines.length) throw new Error(`Offset ${offset} is beyond the end of ${path} (${lines.length} lines).`);
  const end = limit === undefined ? lines.length : Math.min(lines.length, offset - 1 + limit);
  const capped = capHead(lines.slice(offset - 1, end).join('\n'));
  if (capped.lineTooLong)
    return ok(
      `[Line ${offset} of ${path} is longer than ${formatSize(MAX_BYTES)}. Use bash: sed -n '${offset}p' ${path} | head -c ${MAX_BYTES}]`,
      { truncated: true },
    );
  const last = offset + capped.keptLines - 1;
  let note = '';
  if (capped.truncated) {
    const limitNote = capped.cutBy === 'bytes' ? ` (${formatSize(MAX_BYTES)} limit)` : '';
    note = `\n\n[Showing lines ${offset}-${last} of ${lines.length}${limitNote}. Use offset=${last + 1} to continue.]`;
  } else if (end < lines.length) {
    note = `\n\n[${lines.length - end} more lines in the file. Use offset=${end + 1} to continue.]`;
  }
  return ok(capped.text + note, capped.truncated ? { truncated: true } : {});
}

export function lsTool(workspace: string, args: Record<string, unknown>): ToolOutcome {
  const path = typeof args.path === 'string' ? args.path : '.';
  const dir = resolveInWorkspace(workspace, path, false);
  if (!dir.stat) throw new Error(`Path not found: ${path}`);
  if (!dir.stat.isDirectory()) throw new Error(`Not a directory: ${path}`);
  const limit = positiveInt(args.limit) ?? LS_DEFAULT_LIMIT;
  const entries = listConfined(workspace, dir, path)
    .map((entry) => entry.name + (entry.isDirectory() ? '/' : ''))
    .sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
  if (entries.length === 0) return ok('(empty directory)');
  const list = listOutput(entries.slice(0, limit), [
    entries.length > limit && `${limit} entries limit reached. Use limit=${limit * 2} for more`,
  ]);
  return ok(list.text, list.truncated ? { truncated: true } : {});
}

/** The text of a file about to be overwritten, for the diff; null when new, binary or too large. */
function previousText(workspace: string, file: WorkspacePath, path: string): string | null {
  if (!file.stat?.isFile() || file.stat.size > MAX_BYTES * 20) return null;
  return decodeText(readConfined(workspace, file, path, () => {}));
}

export function writeTool(workspace: string, args: Record<string, unknown>): ToolOutcome {
  const path = String(args.path);
  const content = String(args.content);
  const file = resolveInWorkspace(workspace, path, true);
  if (file.stat && !file.stat.isFile()) throw new Error(`${path} exists and is not a file.`);
  const before = previousText(workspace, file, path);
  writeConfined(workspace, file, path, content);
  const bytes = Buffer.byteLength(content);
  return ok(`Wrote ${bytes} bytes to ${file.relative}.`, { diff: unifiedDiff(file.relative, before ?? '', content) });
}

function editArgs(args: Record<string, unknown>): { path: string; edits: TextEdit[] } {
  const edits = Array.isArray(args.edits) ? (args.edits as TextEdit[]) : [];
  return { path: String(args.path), edits };
}

export function editTool(workspace: string, args: Record<string, unknown>): ToolOutcome {
  const { path, edits } = editArgs(args);
  const { file, bytes } = readExisting(workspace, path);
  const original = decodeText(bytes);
  if (original === null) throw new Error(`${path} is a binary file; edit changes text files only.`);
  const writable = resolveInWorkspace(workspace, path, true);
  const outcome = applyEdits(original, edits, file.relative);
  if (!outcome.ok) throw new ToolFailure('patch_apply', `${outcome.reason} The file was not changed.`, file.relative);
  if (!outcome.changed) throw new Error(`No changes made to ${path}: the replacements give identical content.`);
  writeConfined(workspace, writable, path, outcome.content);
  return ok(`Replaced ${edits.length} block(s) in ${file.relative}.`, { diff: outcome.diff });
}

/**
 * The approval card's view of a write or edit, the whole change (the card and RPC's confirm say
 * what they leave out; docs/tools.md, "Approvals"); null when it cannot run as given.
 */
export function previewFileChange(
  workspace: string,
  name: 'write' | 'edit',
  args: Record<string, unknown>,
): ApprovalPreview | null {
  if (name === 'write') {
    const file = resolveInWorkspace(workspace, String(args.path), true);
    const before = previousText(workspace, file, String(args.path));
    const { diff, whole } = changeDiff(file.relative, before ?? '', String(args.content));
    return { kind: 'diff', path: file.relative, diff, isNewFile: file.stat === null, whole, ...realPath(file) };
  }
  const { path, edits } = editArgs(args);
  const { file, bytes } = readExisting(workspace, path);
  const original = decodeText(bytes);
  const outcome = original === null ? null : applyEdits(original, edits, file.relative);
  if (!outcome?.ok) return null;
  return {
    kind: 'diff',
    path: file.relative,
    diff: outcome.diff,
    isNewFile: false,
    whole: outcome.whole,
    ...realPath(file),
  };
}

/** The card names the real file when a link makes it another than the typed path. */
const realPath = (file: WorkspacePath): { realPath?: string } =>
  file.real !== file.relative ? { realPath: file.real } : {};

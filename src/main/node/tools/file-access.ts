// What the file tools share (docs/tools.md, "The tools"): reading an existing workspace file
// through the confinement (workspace-fs.ts, confined-io.ts) with its size cap, telling text from
// binary, the text a write or edit is about to replace, and the model's numeric arguments. Used by
// read-tool.ts, ls-tool.ts, write-tool.ts, edit-tool.ts and the search tools.
import type { ToolOutcome } from '../../core/ports';
import { formatSize, MAX_BYTES } from './output-caps';
import { readConfined } from './confined-io';
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

export const ok = (text: string, details: ToolOutcome['details'] = {}): ToolOutcome => ({
  text,
  details,
  isError: false,
});

/** The file's text, or null when it is binary (a NUL byte, or not UTF-8). */
export function decodeText(bytes: Buffer): string | null {
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
    if (stat.size > MAX_READ_FILE_BYTES)
      throw new Error(
        `${path} is ${formatSize(stat.size)}; read takes files up to ${formatSize(MAX_READ_FILE_BYTES)}.`,
      );
  });
  return { file, bytes };
}

/** The text of a file about to be overwritten, for the diff; null when new, binary or too large. */
export function previousText(workspace: string, file: WorkspacePath, path: string): string | null {
  if (!file.stat?.isFile() || file.stat.size > MAX_BYTES * 20) return null;
  return decodeText(readConfined(workspace, file, path, () => {}));
}

/** The card names the real file when a link makes it another than the typed path. */
export const realPath = (file: WorkspacePath): { realPath?: string } =>
  file.real !== file.relative ? { realPath: file.real } : {};

/** Workspace-relative, as the model's tools describe every path. */
export const workspacePath = (what: string) => `${what} (relative to the workspace)`;
export const optionalWorkspacePath = (what: string) => `${what} (relative to the workspace; default: the workspace)`;

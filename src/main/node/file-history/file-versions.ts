// A file's version as the file history sees it (docs/file-history.md): the SHA-256 of its bytes,
// its permission bits and size; a change between two versions with its lines added and removed
// (a bounded diff, change-diff.ts); and the version a workspace file has now, read through the
// tools' confinement. Used by the recording (write, edit, bash) and by the undo.
import { createHash } from 'node:crypto';
import type { FileChange, FileVersion } from '../../../shared/file-history';
import { changeDiff } from '../tools/change-diff';
import { readConfined } from '../tools/confined-io';
import { decodeText } from '../tools/file-access';
import { resolveInWorkspace, type WorkspacePath } from '../tools/workspace-fs';

/** A file larger than this is not recorded: the turn says so. */
export const MAX_RECORDED_FILE_BYTES = 16 * 1024 * 1024;
/** Lines are counted (and Review diffs) up to this size; larger text counts as binary. */
const MAX_DIFF_BYTES = 1024 * 1024;

export const hashBytes = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

export const versionOf = (bytes: Uint8Array, mode: number): FileVersion => ({
  hash: hashBytes(bytes),
  mode: mode & 0o7777,
  size: bytes.length,
});

export const sameVersion = (a: FileVersion | null, b: FileVersion | null): boolean =>
  a === null || b === null ? a === b : a.hash === b.hash && a.mode === b.mode;

/** Text for a diff, or null when either side is binary or too large to compare. */
function textOf(bytes: Uint8Array | null): string | null {
  if (bytes === null) return '';
  if (bytes.length > MAX_DIFF_BYTES) return null;
  return decodeText(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
}

/** The unified diff between two contents (null: binary), as Review shows it. */
export function diffOf(path: string, before: Uint8Array | null, after: Uint8Array | null): string | null {
  const [a, b] = [textOf(before), textOf(after)];
  if (a === null || b === null) return null;
  return changeDiff(path, a, b).diff;
}

/** The change from `before` to `after` (null: absent), with its lines counted. */
export function describeChange(
  path: string,
  before: { bytes: Uint8Array; mode: number } | null,
  after: { bytes: Uint8Array; mode: number } | null,
): FileChange {
  const diff = diffOf(path, before?.bytes ?? null, after?.bytes ?? null);
  const lines = diff?.split('\n') ?? [];
  return {
    path,
    kind: before === null ? 'created' : after === null ? 'deleted' : 'changed',
    before: before && versionOf(before.bytes, before.mode),
    after: after && versionOf(after.bytes, after.mode),
    added: lines.filter((line) => line.startsWith('+')).length,
    removed: lines.filter((line) => line.startsWith('-')).length,
    binary: diff === null,
  };
}

export interface CurrentFile {
  file: WorkspacePath;
  /** null: nothing there. */
  version: FileVersion | null;
  bytes: Buffer | null;
  /** Not a regular file (a folder, a link, a device): never overwritten by an undo. */
  irregular: boolean;
}

/**
 * What `path` holds now. A path that leads through a link (placed since the change) is refused: the
 * undo writes only the very file the change named.
 */
export function currentFile(workspace: string, path: string): CurrentFile {
  const file = resolveInWorkspace(workspace, path, true);
  if (file.real !== file.relative) throw new Error(`${path} now leads through a link to ${file.real}.`);
  if (!file.stat) return { file, version: null, bytes: null, irregular: false };
  if (!file.stat.isFile()) return { file, version: null, bytes: null, irregular: true };
  if (file.stat.size > MAX_RECORDED_FILE_BYTES)
    return {
      file,
      version: { hash: '', mode: file.stat.mode & 0o7777, size: file.stat.size },
      bytes: null,
      irregular: false,
    };
  const bytes = readConfined(workspace, file, path, () => {});
  return { file, version: versionOf(bytes, file.stat.mode), bytes, irregular: false };
}

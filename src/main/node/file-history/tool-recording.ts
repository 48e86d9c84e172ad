// Recording what `write` and `edit` change (docs/file-history.md): the file's bytes and mode before
// the call, read through the confinement, and after it; the change and both contents go to the
// call's record, which the history stores in the tool result's transaction. A file too large to
// keep is said on the turn ("not recorded: …"). Called by write-tool.ts and edit-tool.ts.
import { lstatSync } from 'node:fs';
import type { RecordedFiles } from '../../core/ports';
import { readConfined } from '../tools/confined-io';
import { formatSize } from '../tools/output-caps';
import type { WorkspacePath } from '../tools/workspace-fs';
import { describeChange, hashBytes, MAX_RECORDED_FILE_BYTES } from './file-versions';

/** A file's bytes and mode before a call; null when it did not exist; `tooLarge` when it is not kept. */
export type Before = { bytes: Buffer; mode: number } | { tooLarge: number } | null;

export function contentBefore(workspace: string, file: WorkspacePath, input: string, bytes?: Buffer): Before {
  if (!file.stat?.isFile()) return null;
  if (file.stat.size > MAX_RECORDED_FILE_BYTES) return { tooLarge: file.stat.size };
  return { bytes: bytes ?? readConfined(workspace, file, input, () => {}), mode: file.stat.mode & 0o7777 };
}

/** The call's record of one written file (nothing when its bytes and mode are unchanged). */
export function recordWritten(
  workspace: string,
  file: WorkspacePath,
  before: Before,
  after: string,
  record: ((recorded: RecordedFiles) => void) | undefined,
): void {
  if (!record) return;
  const path = file.real;
  if (before && 'tooLarge' in before) {
    const reason = `${path} (${formatSize(before.tooLarge)}: over the ${formatSize(MAX_RECORDED_FILE_BYTES)} the file history keeps)`;
    record({ workspace, changes: [], contents: [], notRecorded: [reason] });
    return;
  }
  const bytes = Buffer.from(after, 'utf8');
  const mode = lstatSync(file.absolute).mode & 0o7777;
  const change = describeChange(path, before, { bytes, mode });
  if (change.before && change.after && change.before.hash === change.after.hash && change.before.mode === mode) return;
  const contents: RecordedFiles['contents'] = [{ hash: hashBytes(bytes), bytes }];
  if (before) contents.push({ hash: change.before?.hash ?? '', bytes: before.bytes });
  record({ workspace, changes: [change], contents, notRecorded: [] });
}

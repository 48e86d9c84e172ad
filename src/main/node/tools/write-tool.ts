// `write`: a whole file, created with its parent folders or overwritten, written atomically inside
// the confinement (docs/tools.md, "The tools"); it asks first, its card previews the change as a
// diff. Listed in builtin-tools.ts.
import { lazySchema } from '../../core/llm/pi-runtime';
import { stringArg, type ToolDefinition } from '../../core/tools/tool-definition';
import type { ToolCallContext, ToolOutcome } from '../../core/ports';
import { contentBefore, recordWritten } from '../file-history/tool-recording';
import type { ApprovalPreview } from '../../../shared/tools';
import { changeDiff } from './change-diff';
import { unifiedDiff } from './edit-apply';
import { writeConfined } from './confined-io';
import { ok, previousText, realPath, workspacePath } from './file-access';
import { resolveInWorkspace } from './workspace-fs';

export function runWrite(
  workspace: string,
  args: Record<string, unknown>,
  record?: ToolCallContext['recordFiles'],
): ToolOutcome {
  const path = String(args.path);
  const content = String(args.content);
  const file = resolveInWorkspace(workspace, path, true);
  if (file.stat && !file.stat.isFile()) throw new Error(`${path} exists and is not a file.`);
  const before = previousText(workspace, file, path);
  const kept = contentBefore(workspace, file, path);
  writeConfined(workspace, file, path, content);
  recordWritten(workspace, file, kept, content, record);
  const bytes = Buffer.byteLength(content);
  return ok(`Wrote ${bytes} bytes to ${file.relative}.`, { diff: unifiedDiff(file.relative, before ?? '', content) });
}

/** The whole change, never cut (the card and RPC's confirm say what they leave out; docs/tools.md, "Approvals"). */
export function previewWrite(workspace: string, args: Record<string, unknown>): ApprovalPreview {
  const file = resolveInWorkspace(workspace, String(args.path), true);
  const before = previousText(workspace, file, String(args.path));
  const { diff, whole } = changeDiff(file.relative, before ?? '', String(args.content));
  return { kind: 'diff', path: file.relative, diff, isNewFile: file.stat === null, whole, ...realPath(file) };
}

const schema = lazySchema((Type) =>
  Type.Object({
    path: Type.String({ description: workspacePath('Path to the file to write') }),
    content: Type.String({ description: 'Content to write to the file' }),
  }),
);

export const writeTool: ToolDefinition = {
  name: 'write',
  description:
    "Write content to a file. Creates the file if it doesn't exist, overwrites it if it does. Creates parent directories.",
  get parameters() {
    return schema();
  },
  asksFirst: true,
  run: async (args, context) => runWrite(context.workspace, args, context.recordFiles),
  preview: async (args, { workspace }) => previewWrite(workspace, args),
  summary: (args) => stringArg(args, 'path'),
};

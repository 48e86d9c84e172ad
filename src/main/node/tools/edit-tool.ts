// `edit`: exact text replacements in one file, each matched against the original (edit-apply.ts);
// one that does not apply leaves the file byte-identical and fails with `patch_apply`, ending the
// turn (docs/tools.md, "The tools"). It asks first; its card previews the diff. Listed in
// builtin-tools.ts.
import { lazySchema } from '../../core/llm/pi-runtime';
import { stringArg, type ToolDefinition } from '../../core/tools/tool-definition';
import { ToolFailure } from '../../core/tools/tool-failure';
import type { ToolCallContext, ToolOutcome } from '../../core/ports';
import { contentBefore, recordWritten } from '../file-history/tool-recording';
import type { ApprovalPreview } from '../../../shared/tools';
import { applyEdits, type TextEdit } from './edit-apply';
import { writeConfined } from './confined-io';
import { decodeText, ok, readExisting, realPath, workspacePath } from './file-access';
import { resolveInWorkspace } from './workspace-fs';

function editArgs(args: Record<string, unknown>): { path: string; edits: TextEdit[] } {
  const edits = Array.isArray(args.edits) ? (args.edits as TextEdit[]) : [];
  return { path: String(args.path), edits };
}

export function runEdit(
  workspace: string,
  args: Record<string, unknown>,
  record?: ToolCallContext['recordFiles'],
): ToolOutcome {
  const { path, edits } = editArgs(args);
  const { file, bytes } = readExisting(workspace, path);
  const original = decodeText(bytes);
  if (original === null) throw new Error(`${path} is a binary file; edit changes text files only.`);
  const writable = resolveInWorkspace(workspace, path, true);
  const outcome = applyEdits(original, edits, file.relative);
  if (!outcome.ok) throw new ToolFailure('patch_apply', `${outcome.reason} The file was not changed.`, file.relative);
  if (!outcome.changed) throw new Error(`No changes made to ${path}: the replacements give identical content.`);
  const kept = contentBefore(workspace, writable, path, bytes);
  writeConfined(workspace, writable, path, outcome.content);
  recordWritten(workspace, writable, kept, outcome.content, record);
  return ok(`Replaced ${edits.length} block(s) in ${file.relative}.`, { diff: outcome.diff });
}

/** The approval card's diff; null when the edit cannot apply (running it reports why). */
export function previewEdit(workspace: string, args: Record<string, unknown>): ApprovalPreview | null {
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

/**
 * pi's compatibility shim for `edit`: some models send `edits` as a JSON string, or one
 * top-level oldText/newText pair; both become the edits[] shape before validation.
 */
export function prepareEditArguments(input: unknown): unknown {
  if (typeof input !== 'object' || input === null) return input;
  const args = { ...(input as Record<string, unknown>) };
  if (typeof args.edits === 'string') {
    try {
      const parsed = JSON.parse(args.edits) as unknown;
      if (Array.isArray(parsed)) args.edits = parsed;
    } catch {
      // Left as it is: validation names the problem.
    }
  }
  if (typeof args.oldText === 'string' && typeof args.newText === 'string') {
    const edits = Array.isArray(args.edits) ? [...(args.edits as unknown[])] : [];
    edits.push({ oldText: args.oldText, newText: args.newText });
    delete args.oldText;
    delete args.newText;
    args.edits = edits;
  }
  return args;
}

const schema = lazySchema((Type) =>
  Type.Object({
    path: Type.String({ description: workspacePath('Path to the file to edit') }),
    edits: Type.Array(
      Type.Object({
        oldText: Type.String({
          description:
            'Exact text for one targeted replacement. It must be unique in the original file and must not overlap with any other edits[].oldText in the same call.',
        }),
        newText: Type.String({ description: 'Replacement text for this targeted edit.' }),
      }),
      {
        minItems: 1,
        description:
          'One or more targeted replacements. Each edit is matched against the original file, not incrementally.',
      },
    ),
  }),
);

export const editTool: ToolDefinition = {
  name: 'edit',
  description:
    'Edit a single file using exact text replacement. Every edits[].oldText must match a unique, non-overlapping region of the original file. If two changes affect the same block or nearby lines, merge them into one edit instead of emitting overlapping edits.',
  get parameters() {
    return schema();
  },
  asksFirst: true,
  prepareArguments: prepareEditArguments as ToolDefinition['prepareArguments'],
  run: async (args, context) => runEdit(context.workspace, args, context.recordFiles),
  preview: async (args, { workspace }) => previewEdit(workspace, args),
  summary: (args) => stringArg(args, 'path'),
};

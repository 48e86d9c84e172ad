// `ls`: a directory's entries, sorted, '/' after directories, dotfiles included, cut to a limit and
// the byte cap (docs/tools.md, "The tools"). Listed in builtin-tools.ts.
import { lazySchema } from '../../core/llm/pi-runtime';
import { stringArg, type ToolDefinition } from '../../core/tools/tool-definition';
import type { ToolOutcome } from '../../core/ports';
import { MAX_BYTES, listOutput, listedName } from './output-caps';
import { listConfined } from './confined-io';
import { ok, optionalWorkspacePath, positiveInt } from './file-access';
import { resolveInWorkspace } from './workspace-fs';

export const LS_DEFAULT_LIMIT = 500;

export function runLs(workspace: string, args: Record<string, unknown>): ToolOutcome {
  const path = typeof args.path === 'string' ? args.path : '.';
  const dir = resolveInWorkspace(workspace, path, false);
  if (!dir.stat) throw new Error(`Path not found: ${path}`);
  if (!dir.stat.isDirectory()) throw new Error(`Not a directory: ${path}`);
  const limit = positiveInt(args.limit) ?? LS_DEFAULT_LIMIT;
  const entries = listConfined(workspace, dir, path)
    .sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()))
    .map((entry) => listedName(entry.name) + (entry.isDirectory() ? '/' : ''));
  if (entries.length === 0) return ok('(empty directory)');
  const list = listOutput(entries.slice(0, limit), [
    entries.length > limit && `${limit} entries limit reached. Use limit=${limit * 2} for more`,
  ]);
  return ok(list.text, list.truncated ? { truncated: true } : {});
}

const schema = lazySchema((Type) =>
  Type.Object({
    path: Type.Optional(Type.String({ description: optionalWorkspacePath('Directory to list') })),
    limit: Type.Optional(
      Type.Number({ description: `Maximum number of entries to return (default: ${LS_DEFAULT_LIMIT})` }),
    ),
  }),
);

export const lsTool: ToolDefinition = {
  name: 'ls',
  description: `List a directory. Entries are sorted alphabetically, with '/' after directories; dotfiles included. Cut to ${LS_DEFAULT_LIMIT} entries or ${MAX_BYTES / 1024}KB.`,
  get parameters() {
    return schema();
  },
  asksFirst: false,
  run: async (args, context) => runLs(context.workspace, args),
  summary: (args) => stringArg(args, 'path') || '.',
};

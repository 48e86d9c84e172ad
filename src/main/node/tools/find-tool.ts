// `find`: files by glob pattern, listed by `rg --files --glob` (ripgrep.ts), cut at the limit and
// the byte cap with a note (docs/tools.md, "find and grep"). Listed in builtin-tools.ts.
import { relative, resolve } from 'node:path';
import { lazySchema } from '../../core/llm/pi-runtime';
import { stringArg, type ToolDefinition } from '../../core/tools/tool-definition';
import type { ToolOutcome } from '../../core/ports';
import { MAX_BYTES, listOutput, listedName } from './output-caps';
import { optionalWorkspacePath, positiveInt } from './file-access';
import { BASE_ARGS, runRg, unreadableNote, type SearchOptions } from './ripgrep';
import { resolveInWorkspace } from './workspace-fs';

export const FIND_DEFAULT_LIMIT = 1000;

/** A capped list as a tool outcome. */
export function listResult(list: { text: string; truncated: boolean }): ToolOutcome {
  return { text: list.text, details: list.truncated ? { truncated: true } : {}, isError: false };
}

export async function runFind(
  workspace: string,
  args: Record<string, unknown>,
  options: SearchOptions = {},
): Promise<ToolOutcome> {
  const dir = resolveInWorkspace(workspace, typeof args.path === 'string' ? args.path : '.', false);
  if (!dir.stat?.isDirectory()) throw new Error(`Not a directory: ${String(args.path ?? '.')}`);
  const limit = positiveInt(args.limit) ?? FIND_DEFAULT_LIMIT;
  const found: string[] = [];
  const { unreadable } = await runRg({
    // NUL-separated: a name may hold a newline.
    args: ['--files', '--null', ...BASE_ARGS, '--sort', 'path', '--glob', String(args.pattern)],
    separator: '\0',
    workspace,
    cwd: dir.absolute,
    options,
    onLine: (line) => found.push(listedName(line.replace(/^\.\//, ''))) <= limit,
  });
  const unread = unreadableNote(unreadable, (path) => relative(dir.absolute, resolve(dir.absolute, path)));
  if (found.length === 0) {
    const text = `No files found matching the pattern.${unread ? `\n\n[${unread}]` : ''}`;
    return { text, details: {}, isError: false };
  }
  const limited = found.length > limit;
  return listResult(
    listOutput(found.slice(0, limit), [
      limited && `${limit} results limit reached. Use limit=${limit * 2} for more, or refine the pattern`,
      unread,
    ]),
  );
}

const schema = lazySchema((Type) =>
  Type.Object({
    pattern: Type.String({
      description: "Glob pattern to match files, e.g. '*.ts', '**/*.json', or 'src/**/*.spec.ts'",
    }),
    path: Type.Optional(Type.String({ description: optionalWorkspacePath('Directory to search in') })),
    limit: Type.Optional(Type.Number({ description: `Maximum number of results (default: ${FIND_DEFAULT_LIMIT})` })),
  }),
);

/** `hidden`: folders ripgrep must never see (Resolute's data folder, with its keys). */
export const findTool = (hidden: readonly string[]): ToolDefinition => ({
  name: 'find',
  description: `Search for files by glob pattern. Returns paths relative to the search directory. Respects .gitignore. Cut to ${FIND_DEFAULT_LIMIT} results or ${MAX_BYTES / 1024}KB.`,
  get parameters() {
    return schema();
  },
  asksFirst: false,
  run: (args, context) => runFind(context.workspace, args, { signal: context.signal, hidden }),
  summary: (args) => [stringArg(args, 'pattern'), stringArg(args, 'path')].filter(Boolean).join('  in '),
});

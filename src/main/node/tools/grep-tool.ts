// `grep`: file contents by pattern, searched by `rg --json` (ripgrep.ts), matches cut at the
// limit, per file and to the byte cap, long lines shortened, each with a note (docs/tools.md, "find
// and grep"). Listed in builtin-tools.ts.
import { relative, resolve } from 'node:path';
import { lazySchema } from '../../core/llm/pi-runtime';
import { stringArg, type ToolDefinition } from '../../core/tools/tool-definition';
import type { ToolOutcome } from '../../core/ports';
import { MAX_BYTES, MAX_MATCH_LINE_CHARS, capLine, listOutput, listedName } from './output-caps';
import { optionalWorkspacePath, positiveInt } from './file-access';
import { listResult } from './find-tool';
import { BASE_ARGS, runRg, unreadableNote, type SearchOptions } from './ripgrep';
import { resolveInWorkspace } from './workspace-fs';

export const GREP_DEFAULT_LIMIT = 100;

/** grep's `context` is cut to this many lines either side (a huge one would only fill memory). */
export const GREP_MAX_CONTEXT = 20;

/** Matches ripgrep reports per file at most: more lines than 50 KB could ever show. */
const GREP_MAX_PER_FILE = 10_000;

interface RgEvent {
  type: string;
  data?: { path?: { text?: string; bytes?: string }; lines?: { text?: string }; line_number?: number };
}

/** ripgrep gives a path that is not UTF-8 as base64 bytes. */
const pathOf = (event: RgEvent): string =>
  event.data?.path?.text ?? Buffer.from(event.data?.path?.bytes ?? '', 'base64').toString('utf8');

export async function runGrep(
  workspace: string,
  args: Record<string, unknown>,
  options: SearchOptions = {},
): Promise<ToolOutcome> {
  const target = resolveInWorkspace(workspace, typeof args.path === 'string' ? args.path : '.', false);
  if (!target.stat) throw new Error(`Path not found: ${String(args.path)}`);
  const limit = positiveInt(args.limit) ?? GREP_DEFAULT_LIMIT;
  const context = Math.min(positiveInt(args.context) ?? 0, GREP_MAX_CONTEXT);
  const rgArgs = ['--json', '--line-number', ...BASE_ARGS];
  if (args.ignoreCase === true) rgArgs.push('--ignore-case');
  if (args.literal === true) rgArgs.push('--fixed-strings');
  if (typeof args.glob === 'string') rgArgs.push('--glob', args.glob);
  if (context > 0) rgArgs.push('--context', String(context));
  // ripgrep holds each file's output until the file is done (its threads keep files apart): a cap
  // per file keeps that bounded (one past the limit, to know there were more). No file can show
  // more matches than fit the byte cap anyway.
  rgArgs.push('--max-count', String(Math.min(limit + 1, GREP_MAX_PER_FILE)));
  rgArgs.push('--regexp', String(args.pattern), '--', target.absolute);
  const base = target.stat.isDirectory() ? target.absolute : workspace;
  const lines: string[] = [];
  let matches = 0;
  let cutLines = false;
  // Context lines count too: past the byte cap nothing more could be shown, so ripgrep is stopped.
  let bytes = 0;
  const { unreadable } = await runRg({
    args: rgArgs,
    workspace,
    cwd: workspace,
    options,
    onLine: (line) => {
      const event = JSON.parse(line) as RgEvent;
      if (event.type !== 'match' && event.type !== 'context') return true;
      if (event.type === 'match') matches += 1;
      if (matches > limit) return false;
      const file = listedName(relative(base, pathOf(event)).split('\\').join('/'));
      const { text, cut } = capLine((event.data?.lines?.text ?? '').replace(/\r?\n$/, ''));
      cutLines ||= cut;
      const mark = event.type === 'match' ? ':' : '-';
      const shown = `${file}${mark}${event.data?.line_number ?? 0}${mark} ${text}`;
      lines.push(shown);
      bytes += Buffer.byteLength(shown) + 1;
      return bytes <= MAX_BYTES;
    },
  });
  const unread = unreadableNote(unreadable, (path) => relative(base, resolve(workspace, path)));
  if (matches === 0)
    return { text: `No matches found.${unread ? `\n\n[${unread}]` : ''}`, details: {}, isError: false };
  const limited = matches > limit;
  return listResult(
    listOutput(lines, [
      limited && `${limit} matches limit reached. Use limit=${limit * 2} for more, or refine the pattern`,
      cutLines && 'Some lines were shortened; use read to see them whole',
      unread,
    ]),
  );
}

const schema = lazySchema((Type) =>
  Type.Object({
    pattern: Type.String({ description: 'Search pattern (regex or literal string)' }),
    path: Type.Optional(Type.String({ description: optionalWorkspacePath('Directory or file to search') })),
    glob: Type.Optional(Type.String({ description: "Filter files by glob pattern, e.g. '*.ts' or '**/*.spec.ts'" })),
    ignoreCase: Type.Optional(Type.Boolean({ description: 'Case-insensitive search (default: false)' })),
    literal: Type.Optional(
      Type.Boolean({ description: 'Treat pattern as literal string instead of regex (default: false)' }),
    ),
    context: Type.Optional(
      Type.Number({ description: 'Number of lines to show before and after each match (default: 0)' }),
    ),
    limit: Type.Optional(
      Type.Number({ description: `Maximum number of matches to return (default: ${GREP_DEFAULT_LIMIT})` }),
    ),
  }),
);

/** `hidden`: folders ripgrep must never see (Resolute's data folder, with its keys). */
export const grepTool = (hidden: readonly string[]): ToolDefinition => ({
  name: 'grep',
  description: `Search file contents for a pattern. Returns matching lines with file paths and line numbers. Respects .gitignore. Cut to ${GREP_DEFAULT_LIMIT} matches or ${MAX_BYTES / 1024}KB; lines longer than ${MAX_MATCH_LINE_CHARS} characters are shortened.`,
  get parameters() {
    return schema();
  },
  asksFirst: false,
  run: (args, context) => runGrep(context.workspace, args, { signal: context.signal, hidden }),
  summary: (args) => [stringArg(args, 'pattern'), stringArg(args, 'path')].filter(Boolean).join('  in '),
});

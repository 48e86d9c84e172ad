// `find` and `grep`, run by ripgrep (docs/tools.md, "find and grep"): `rg --files --glob` lists
// files and `rg --json` searches them, both fast on a large workspace, respecting .gitignore,
// skipping .git and never following symbolic links. Results are cut at the limit (ripgrep is
// stopped there) and to the byte cap, with a note. Without ripgrep installed, both answer the
// model with an error that says how to install it. Called by NodeToolRuntime.
import { spawn } from 'node:child_process';
import { relative } from 'node:path';
import { MAX_BYTES, capLine, listOutput } from '../../core/tools/output-caps';
import { FIND_DEFAULT_LIMIT, GREP_DEFAULT_LIMIT } from '../../core/tools/tool-schemas';
import type { ToolOutcome } from '../../core/ports';
import { cachedExecutable } from './executables';
import { positiveInt } from './file-tools';
import { resolveInWorkspace } from './workspace-fs';

export const RG_MISSING =
  'ripgrep (rg) is not installed, and find and grep use it. Install it — Debian/Ubuntu: sudo apt install ripgrep; macOS: brew install ripgrep — then try again.';

interface RgRun {
  args: string[];
  cwd: string;
  signal?: AbortSignal;
  /** Called per stdout line; return false to stop ripgrep (the limit was reached). */
  onLine: (line: string) => boolean;
}

/** Run ripgrep; resolves with its exit code (0 found, 1 nothing found) or rejects with its error. */
function runRg({ args, cwd, signal, onLine }: RgRun): Promise<number> {
  return new Promise((resolve, reject) => {
    // By absolute path only: a bare "rg" could be the workspace's own (executables.ts).
    const rg = cachedExecutable('rg');
    if (rg === null) return reject(new Error(RG_MISSING));
    const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stopped = false;
    let buffered = '';
    let stderr = '';
    const stop = () => {
      stopped = true;
      child.kill('SIGKILL');
    };
    signal?.addEventListener('abort', stop, { once: true });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (stopped) return;
      const lines = (buffered + chunk).split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) if (line && !onLine(line)) return stop();
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(error.code === 'ENOENT' ? RG_MISSING : error.message)),
    );
    child.on('close', (code) => {
      signal?.removeEventListener('abort', stop);
      if (signal?.aborted) return reject(new Error('Search aborted'));
      if (!stopped && buffered) onLine(buffered);
      if (stopped || code === 0 || code === 1) return resolve(stopped ? 0 : (code ?? 0));
      reject(new Error(stderr.trim() || `ripgrep exited with code ${code}`));
    });
  });
}

/** grep's `context` is cut to this many lines either side (a huge one would only fill memory). */
export const GREP_MAX_CONTEXT = 20;

/** Matches ripgrep reports per file at most: more lines than 50 KB could ever show. */
const GREP_MAX_PER_FILE = 10_000;

const BASE_ARGS = ['--color=never', '--hidden', '--glob', '!.git', '--no-config'];

function result(list: { text: string; truncated: boolean }): ToolOutcome {
  return { text: list.text, details: list.truncated ? { truncated: true } : {}, isError: false };
}

export async function findTool(
  workspace: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<ToolOutcome> {
  const dir = resolveInWorkspace(workspace, typeof args.path === 'string' ? args.path : '.', false);
  if (!dir.stat?.isDirectory()) throw new Error(`Not a directory: ${String(args.path ?? '.')}`);
  const limit = positiveInt(args.limit) ?? FIND_DEFAULT_LIMIT;
  const found: string[] = [];
  await runRg({
    args: ['--files', ...BASE_ARGS, '--sort', 'path', '--glob', String(args.pattern)],
    cwd: dir.absolute,
    signal,
    onLine: (line) => found.push(line.replace(/^\.\//, '')) <= limit,
  });
  if (found.length === 0) return { text: 'No files found matching the pattern.', details: {}, isError: false };
  const limited = found.length > limit;
  return result(
    listOutput(found.slice(0, limit), [
      limited && `${limit} results limit reached. Use limit=${limit * 2} for more, or refine the pattern`,
    ]),
  );
}

interface RgEvent {
  type: string;
  data?: { path?: { text?: string }; lines?: { text?: string }; line_number?: number };
}

export async function grepTool(
  workspace: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
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
  await runRg({
    args: rgArgs,
    cwd: workspace,
    signal,
    onLine: (line) => {
      const event = JSON.parse(line) as RgEvent;
      if (event.type !== 'match' && event.type !== 'context') return true;
      if (event.type === 'match') matches += 1;
      if (matches > limit) return false;
      const file = relative(base, event.data?.path?.text ?? '')
        .split('\\')
        .join('/');
      const { text, cut } = capLine((event.data?.lines?.text ?? '').replace(/\r?\n$/, ''));
      cutLines ||= cut;
      const mark = event.type === 'match' ? ':' : '-';
      const shown = `${file}${mark}${event.data?.line_number ?? 0}${mark} ${text}`;
      lines.push(shown);
      bytes += Buffer.byteLength(shown) + 1;
      return bytes <= MAX_BYTES;
    },
  });
  if (matches === 0) return { text: 'No matches found.', details: {}, isError: false };
  const limited = matches > limit;
  return result(
    listOutput(lines, [
      limited && `${limit} matches limit reached. Use limit=${limit * 2} for more, or refine the pattern`,
      cutLines && 'Some lines were shortened; use read to see them whole',
    ]),
  );
}

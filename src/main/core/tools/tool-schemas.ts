// The seven tools as the model sees them: the names and parameter shapes of the `pi` coding
// agent's tools (so prompts written for pi work unchanged), their descriptions, and the defaults
// and caps the descriptions promise (docs/tools.md, "The tools"). Pure data; ToolCoordinator turns
// each into an AgentTool whose execute calls the node runtime. The parameter schemas are built with
// pi-ai's TypeBox the first time the model is shown them (in a run, which loads pi-ai): built at
// start-up, they would load it there (src/main/core/pi-runtime.ts).
import type { TSchema, Type as TypeBuilder } from '@mariozechner/pi-ai';
import type { ToolName } from '../../../shared/tools';
import { piRuntime } from '../pi-runtime';
import { MAX_BYTES, MAX_LINES, MAX_MATCH_LINE_CHARS } from './output-caps';

export const LS_DEFAULT_LIMIT = 500;
export const FIND_DEFAULT_LIMIT = 1000;
export const GREP_DEFAULT_LIMIT = 100;

const KB = `${MAX_BYTES / 1024}KB`;

type Builder = typeof TypeBuilder;
const path = (Type: Builder, what: string) => Type.String({ description: `${what} (relative to the workspace)` });
const optionalPath = (Type: Builder, what: string) =>
  Type.Optional(Type.String({ description: `${what} (relative to the workspace; default: the workspace)` }));

const editEntry = (Type: Builder) =>
  Type.Object({
    oldText: Type.String({
      description:
        'Exact text for one targeted replacement. It must be unique in the original file and must not overlap with any other edits[].oldText in the same call.',
    }),
    newText: Type.String({ description: 'Replacement text for this targeted edit.' }),
  });

export interface ToolSpec {
  name: ToolName;
  description: string;
  /** Built on first read (pi-ai is loaded by then), then kept. */
  readonly parameters: TSchema;
}

interface SpecSource {
  name: ToolName;
  description: string;
  build: (Type: Builder) => TSchema;
}

/** A spec whose schema is built the first time it is read. */
function lazySpec({ name, description, build }: SpecSource): ToolSpec {
  let built: TSchema | undefined;
  return {
    name,
    description,
    get parameters() {
      built ??= build(piRuntime().piAi.Type);
      return built;
    },
  };
}

const SOURCES: readonly SpecSource[] = [
  {
    name: 'read',
    description: `Read a text file. Output is cut to ${MAX_LINES} lines or ${KB} (whichever comes first); use offset/limit for large files and continue with offset until complete. Binary files are refused.`,
    build: (Type) =>
      Type.Object({
        path: path(Type, 'Path to the file to read'),
        offset: Type.Optional(Type.Number({ description: 'Line number to start reading from (1-indexed)' })),
        limit: Type.Optional(Type.Number({ description: 'Maximum number of lines to read' })),
      }),
  },
  {
    name: 'ls',
    description: `List a directory. Entries are sorted alphabetically, with '/' after directories; dotfiles included. Cut to ${LS_DEFAULT_LIMIT} entries or ${KB}.`,
    build: (Type) =>
      Type.Object({
        path: optionalPath(Type, 'Directory to list'),
        limit: Type.Optional(
          Type.Number({ description: `Maximum number of entries to return (default: ${LS_DEFAULT_LIMIT})` }),
        ),
      }),
  },
  {
    name: 'find',
    description: `Search for files by glob pattern. Returns paths relative to the search directory. Respects .gitignore. Cut to ${FIND_DEFAULT_LIMIT} results or ${KB}.`,
    build: (Type) =>
      Type.Object({
        pattern: Type.String({
          description: "Glob pattern to match files, e.g. '*.ts', '**/*.json', or 'src/**/*.spec.ts'",
        }),
        path: optionalPath(Type, 'Directory to search in'),
        limit: Type.Optional(
          Type.Number({ description: `Maximum number of results (default: ${FIND_DEFAULT_LIMIT})` }),
        ),
      }),
  },
  {
    name: 'grep',
    description: `Search file contents for a pattern. Returns matching lines with file paths and line numbers. Respects .gitignore. Cut to ${GREP_DEFAULT_LIMIT} matches or ${KB}; lines longer than ${MAX_MATCH_LINE_CHARS} characters are shortened.`,
    build: (Type) =>
      Type.Object({
        pattern: Type.String({ description: 'Search pattern (regex or literal string)' }),
        path: optionalPath(Type, 'Directory or file to search'),
        glob: Type.Optional(
          Type.String({ description: "Filter files by glob pattern, e.g. '*.ts' or '**/*.spec.ts'" }),
        ),
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
  },
  {
    name: 'write',
    description:
      "Write content to a file. Creates the file if it doesn't exist, overwrites it if it does. Creates parent directories.",
    build: (Type) =>
      Type.Object({
        path: path(Type, 'Path to the file to write'),
        content: Type.String({ description: 'Content to write to the file' }),
      }),
  },
  {
    name: 'edit',
    description:
      'Edit a single file using exact text replacement. Every edits[].oldText must match a unique, non-overlapping region of the original file. If two changes affect the same block or nearby lines, merge them into one edit instead of emitting overlapping edits.',
    build: (Type) =>
      Type.Object({
        path: path(Type, 'Path to the file to edit'),
        edits: Type.Array(editEntry(Type), {
          minItems: 1,
          description:
            'One or more targeted replacements. Each edit is matched against the original file, not incrementally.',
        }),
      }),
  },
  {
    name: 'bash',
    description: `Execute a bash command in the workspace, inside a sandbox: the workspace is writable, the rest of the system read-only, /tmp private, and the network off unless the person allows it. Returns stdout and stderr, cut to the last ${MAX_LINES} lines or ${KB}. Optionally provide a timeout in seconds.`,
    build: (Type) =>
      Type.Object({
        command: Type.String({ description: 'Bash command to execute' }),
        timeout: Type.Optional(Type.Number({ description: 'Timeout in seconds (optional)' })),
      }),
  },
];

export const TOOL_SPECS: readonly ToolSpec[] = SOURCES.map(lazySpec);

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

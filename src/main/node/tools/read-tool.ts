// `read`: a text file, cut to the output caps with a note saying how to go on (docs/tools.md, "The
// tools"); an image file comes back as an image (read-image.ts), other binary files are refused
// politely. Listed in builtin-tools.ts.
import { lazySchema } from '../../core/llm/pi-runtime';
import { stringArg, type ToolDefinition } from '../../core/tools/tool-definition';
import type { ToolOutcome } from '../../core/ports';
import { MAX_BYTES, MAX_LINES, capHead, formatSize } from './output-caps';
import { decodeText, ok, positiveInt, readExisting, workspacePath } from './file-access';
import { readImage } from './read-image';

export function runRead(workspace: string, args: Record<string, unknown>): ToolOutcome {
  const path = String(args.path);
  const { bytes } = readExisting(workspace, path);
  const text = decodeText(bytes);
  if (text === null) return ok(`${path} is a binary file (${formatSize(bytes.length)}); read shows text files only.`);
  const lines = text.split('\n');
  const offset = positiveInt(args.offset) ?? 1;
  const limit = positiveInt(args.limit);
  if (offset > lines.length) throw new Error(`Offset ${offset} is beyond the end of ${path} (${lines.length} lines).`);
  const end = limit === undefined ? lines.length : Math.min(lines.length, offset - 1 + limit);
  const capped = capHead(lines.slice(offset - 1, end).join('\n'));
  if (capped.lineTooLong)
    return ok(
      `[Line ${offset} of ${path} is longer than ${formatSize(MAX_BYTES)}. Use bash: sed -n '${offset}p' ${path} | head -c ${MAX_BYTES}]`,
      { truncated: true },
    );
  const last = offset + capped.keptLines - 1;
  let note = '';
  if (capped.truncated) {
    const limitNote = capped.cutBy === 'bytes' ? ` (${formatSize(MAX_BYTES)} limit)` : '';
    note = `\n\n[Showing lines ${offset}-${last} of ${lines.length}${limitNote}. Use offset=${last + 1} to continue.]`;
  } else if (end < lines.length) {
    note = `\n\n[${lines.length - end} more lines in the file. Use offset=${end + 1} to continue.]`;
  }
  return ok(capped.text + note, capped.truncated ? { truncated: true } : {});
}

const schema = lazySchema((Type) =>
  Type.Object({
    path: Type.String({ description: workspacePath('Path to the file to read') }),
    offset: Type.Optional(Type.Number({ description: 'Line number to start reading from (1-indexed)' })),
    limit: Type.Optional(Type.Number({ description: 'Maximum number of lines to read' })),
  }),
);

export const readTool: ToolDefinition = {
  name: 'read',
  description: `Read a text file. Output is cut to ${MAX_LINES} lines or ${MAX_BYTES / 1024}KB (whichever comes first); use offset/limit for large files and continue with offset until complete. Binary files are refused.`,
  get parameters() {
    return schema();
  },
  asksFirst: false,
  // An image file comes back as an image, for a model that reads images (read-image.ts).
  run: async (args, context) => (await readImage(context.workspace, args)) ?? runRead(context.workspace, args),
  summary: (args) => stringArg(args, 'path'),
};

// The workspace's project instructions for the system prompt (docs/tools.md, "Instructions"):
// AGENTS.md, else CLAUDE.md, at the workspace's top, read like any file a tool reads — confined to
// the workspace (a hostile repository's AGENTS.md may be a link to a key) — no more of it than a
// size cap, cut there with a note. Nothing there, a folder that does not exist yet, or a file that cannot be read as
// text: no instructions, and the session goes on. Called by NodeToolRuntime before each run.
import { realpathSync } from 'node:fs';
import type { ProjectInstructions } from '../../core/session/system-prompt';
import { readConfinedHead } from './confined-io';
import { resolveInWorkspace } from './workspace-fs';

/** The names looked for, in order: the first that exists is used. */
export const INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md'] as const;
/** How much of the file reaches the model, bytes (cut at a line's end). */
export const INSTRUCTIONS_CAP_BYTES = 32 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function readProjectInstructions(workspace: string): ProjectInstructions | null {
  let root: string;
  try {
    root = realpathSync(workspace);
  } catch {
    return null; // not created yet: nothing to read
  }
  for (const file of INSTRUCTION_FILES) {
    try {
      const found = resolveInWorkspace(root, file, false);
      if (!found.stat?.isFile()) continue;
      // One byte past the cap tells whether there is more; the rest is never read.
      return capped(file, readConfinedHead(root, found, file, INSTRUCTIONS_CAP_BYTES + 1));
    } catch {
      // A link leading out, a file we may not read, not UTF-8: leave it out rather than fail the turn.
      continue;
    }
  }
  return null;
}

function capped(file: string, bytes: Buffer): ProjectInstructions {
  const truncated = bytes.length > INSTRUCTIONS_CAP_BYTES;
  let head = truncated ? bytes.subarray(0, INSTRUCTIONS_CAP_BYTES) : bytes;
  if (truncated) {
    const lastNewline = head.lastIndexOf(0x0a);
    if (lastNewline > 0) head = head.subarray(0, lastNewline);
  }
  // A cut in the middle of a character is not an error: decode leniently only the cut copy.
  const text = truncated ? new TextDecoder('utf-8').decode(head) : utf8.decode(head);
  return { file, text, truncated, capBytes: INSTRUCTIONS_CAP_BYTES };
}

// After a sandboxed call (docs/tools.md, "The bash sandbox"): a file the call changed that carries
// a set-uid or set-gid bit has them cleared, so the workspace never holds a set-uid program of the
// app's user that another user could run. The seccomp filter refuses the calls that set them;
// this catches what it cannot see (an architecture without the filter). Only files changed since
// the call began are touched (ctime), so the person's own files stay as they are. Called by
// bash-sandbox.ts and mcp-sandbox.ts.
import { chmodSync, lstatSync } from 'node:fs';
import { walkWorkspace } from './workspace-walk';

const SET_ID_BITS = 0o6000;
/** File times come from the kernel's coarse clock, a tick or so behind Date.now(). */
const CLOCK_SLACK_MS = 1000;

/** Clears set-uid and set-gid on regular files changed at or after `sinceMs`; returns the paths cleared. */
export function clearSetIdBits(workspace: string, sinceMs: number): string[] {
  const cleared: string[] = [];
  walkWorkspace(workspace, (path, entry) => {
    if (entry.isFile() && clearOne(path, sinceMs)) cleared.push(path);
    return true;
  });
  return cleared;
}

function clearOne(path: string, sinceMs: number): boolean {
  try {
    const stat = lstatSync(path);
    if ((stat.mode & SET_ID_BITS) === 0 || stat.ctimeMs < sinceMs - CLOCK_SLACK_MS) return false;
    chmodSync(path, stat.mode & 0o7777 & ~SET_ID_BITS);
    return true;
  } catch {
    // Gone, or not ours to change (then the command could not have set it either).
    return false;
  }
}

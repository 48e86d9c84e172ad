// One bounded walk of the workspace for the checks around a sandboxed call (git-guard.ts,
// set-id-sweep.ts): every entry once, links never followed, at most MAX_ENTRIES entries so a huge
// workspace costs a bounded time per call (about 25 ms per 26 000 entries).
import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';

/** The walk stops after this many entries. */
export const MAX_ENTRIES = 200_000;

/** Calls `visit` for each entry under `root`; a folder is entered when `visit` returns true. */
export function walkWorkspace(root: string, visit: (path: string, entry: Dirent) => boolean): void {
  const stack = [root];
  let entries = 0;
  while (stack.length > 0 && entries < MAX_ENTRIES) {
    const dir = stack.pop() as string;
    let list: Dirent[];
    try {
      list = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of list) {
      entries += 1;
      const path = join(dir, entry.name);
      if (visit(path, entry) && entry.isDirectory()) stack.push(path);
    }
  }
}

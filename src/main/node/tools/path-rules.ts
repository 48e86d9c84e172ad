// The lexical half of workspace confinement (docs/tools.md, "Confinement"): a path a tool was given
// becomes a list of segments under the workspace, or a refusal saying why it would leave it —
// `..` above the workspace, an absolute path elsewhere, `~`, a drive or UNC prefix, a NUL byte.
// Symlinks and hard links need the file system; src/main/node/tools/workspace-fs.ts checks them
// on these segments. Pure, so the table of hostile paths in the unit tests covers it exactly.

export type PathVerdict = { ok: true; segments: string[]; relative: string } | { ok: false; reason: string };

/** Both separators count: a backslash path means the same on every platform (docs/tools.md). */
const SEPARATORS = /[\\/]+/;
const DRIVE = /^[a-zA-Z]:(?:[\\/]|$)/;

/** Split an absolute path into its segments, `.` and `..` resolved; a `..` at the root stays at the root. */
function absoluteSegments(path: string): string[] {
  const out: string[] = [];
  for (const part of path.split(SEPARATORS)) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return out;
}

function isAbsolute(path: string): boolean {
  return path.startsWith('/') || path.startsWith('\\') || DRIVE.test(path);
}

const refuse = (reason: string): PathVerdict => ({ ok: false, reason });

/**
 * Where `input` points inside `workspace` (an absolute path). Relative paths are taken from the
 * workspace; an absolute path is accepted only when it lies inside it (compared exactly, case
 * included). Segments are literal: Unicode look-alikes of `.` are ordinary names.
 */
export function confinePath(input: string, workspace: string): PathVerdict {
  if (typeof input !== 'string') return refuse('the path is not a string');
  if (input.includes('\0')) return refuse('the path contains a NUL byte');
  const path = input.trim() === '' ? '.' : input;
  if (path.startsWith('~')) return refuse('"~" is your home folder, outside the workspace');
  // A path starting with two backslashes (\\server\share) names another machine's folder ("//etc" on POSIX is just "/etc").
  if (path.startsWith('\\\\')) return refuse('a network (UNC) path is outside the workspace');
  const root = absoluteSegments(workspace);
  let segments: string[];
  if (isAbsolute(path)) {
    const absolute = absoluteSegments(path);
    const inside = absolute.length >= root.length && root.every((segment, i) => absolute[i] === segment);
    if (!inside) return refuse(`${input} is outside the workspace ${workspace}`);
    segments = absolute.slice(root.length);
  } else {
    segments = [];
    for (const part of path.split(SEPARATORS)) {
      if (part === '' || part === '.') continue;
      if (part !== '..') {
        segments.push(part);
        continue;
      }
      if (segments.length === 0) return refuse(`${input} leaves the workspace through ".."`);
      segments.pop();
    }
  }
  return { ok: true, segments, relative: segments.length ? segments.join('/') : '.' };
}

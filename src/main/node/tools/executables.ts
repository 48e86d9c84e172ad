// Where `rg` and `bwrap` are (docs/tools.md, "Threat model: the bash sandbox"): looked up once, in
// the absolute entries of PATH only, and then always spawned by that absolute path. A bare name
// would let the workspace's own `rg` run unsandboxed: Windows searches the working directory
// first, and on Linux an empty, "." or relative PATH entry means the working directory — which for
// find and grep is the workspace. Called by ripgrep.ts and NodeToolRuntime.
import { accessSync, constants, statSync } from 'node:fs';
import { posix, win32 } from 'node:path';
import type { SandboxHost } from './bash-sandbox';

const WINDOWS_EXTENSIONS = ['.exe', '.cmd', '.bat', '.com'];

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    if (process.platform !== 'win32') accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The absolute path of `name` in the absolute entries of `pathEnv`, or null. Relative and empty
 * entries are skipped: they name the working directory, never a place for a trusted binary.
 */
export function findExecutable(
  name: string,
  pathEnv: string | undefined,
  platform: NodeJS.Platform = process.platform,
): string | null {
  const paths = platform === 'win32' ? win32 : posix;
  const names = platform === 'win32' ? WINDOWS_EXTENSIONS.map((ext) => name + ext) : [name];
  for (const dir of (pathEnv ?? '').split(paths.delimiter)) {
    if (dir === '' || !paths.isAbsolute(dir)) continue;
    for (const candidate of names) {
      const path = paths.join(dir, candidate);
      if (isExecutableFile(path)) return path;
    }
  }
  return null;
}

const cache = new Map<string, string | null>();

/** `findExecutable(name, PATH)`, looked up on first use and then kept for the process's life. */
export function cachedExecutable(name: string): string | null {
  if (!cache.has(name)) cache.set(name, findExecutable(name, process.env.PATH));
  return cache.get(name) ?? null;
}

/**
 * The sandbox binaries by absolute path. A bwrap not found stays a path that does not exist, so
 * spawning it fails with ENOENT and the "install bubblewrap" message.
 */
export function defaultSandboxHost(overrides: Partial<SandboxHost> = {}): SandboxHost {
  return {
    platform: overrides.platform ?? process.platform,
    bwrap: overrides.bwrap ?? cachedExecutable('bwrap') ?? '/nonexistent/bwrap',
    sandboxExec: overrides.sandboxExec ?? '/usr/bin/sandbox-exec',
  };
}

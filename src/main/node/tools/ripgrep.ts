// ripgrep for `find` and `grep` (docs/tools.md, "find and grep"): fast on a large workspace,
// respecting .gitignore, skipping .git and never following symbolic links; stopped as soon as the
// caller has enough. Without ripgrep installed, both answer the model with an error that says how
// to install it. Called by find-tool.ts and grep-tool.ts.
import { spawn } from 'node:child_process';
import { cachedExecutable } from './executables';

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
export function runRg({ args, cwd, signal, onLine }: RgRun): Promise<number> {
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

export const BASE_ARGS = ['--color=never', '--hidden', '--glob', '!.git', '--no-config'];

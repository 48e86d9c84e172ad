// What a `sandbox: true` MCP server gets of bash's hardening (docs/mcp.md, "Confinement"): the
// seccomp filter (no Unix sockets, no set-id bits), a process limit, and every git folder of its
// working folder bound read-only for the server's whole life — a per-call guard cannot cover a
// server that lives for the session. After each of its tool calls, and when it stops, set-id bits
// it left are cleared and a repository it left is checked, as after a bash command. Called by
// mcp-connection.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { McpStdioServer } from '../../../shared/mcp';
import { checkNewRepositories, guardGit, type GitGuard } from '../tools/git-guard';
import { createProcessLimit, userNamespaceLimit, type ProcessLimit } from '../tools/process-limit';
import { filterArch, unixSocketFilter } from '../tools/seccomp-filter';
import { clearSetIdBits } from '../tools/set-id-sweep';
import { serverCwd, type LaunchContext, type ServerHardening } from './mcp-launch';

export interface ServerSandbox {
  hardening: ServerHardening;
  /** Checks what the server left in its folder's git metadata; throws a sandbox_security ToolFailure. */
  check(): void;
  /** Removes the filter's file and the process limit's cgroup (once the server has gone). */
  release(): void;
}

/** Prepares the hardening of one start of a sandboxed server. */
export function serverSandbox(config: McpStdioServer, context: LaunchContext): ServerSandbox {
  const cwd = serverCwd(config, context.workspace);
  const git: GitGuard = guardGit(cwd);
  let since = Date.now();
  const limit: ProcessLimit | null = createProcessLimit();
  const arch = filterArch(process.arch);
  let dir: string | null = null;
  let seccompFile: string | undefined;
  if (arch) {
    dir = mkdtempSync(join(tmpdir(), 'resolute-mcp-'));
    seccompFile = join(dir, 'seccomp.bpf');
    writeFileSync(seccompFile, unixSocketFilter(arch), { mode: 0o600 });
  }
  return {
    hardening: {
      // Whole git folders, outer first, then the files inside bound already by the bash guard's rules.
      gitReadOnly: [...git.pinned, ...git.readOnly],
      seccompFile,
      wrap: limit ? (command, args) => limit.wrap(command, args) : undefined,
      userNamespaceProcessLimit: limit ? undefined : userNamespaceLimit(),
    },
    check: () => {
      const now = Date.now();
      clearSetIdBits(cwd, since);
      since = now;
      checkNewRepositories(cwd, git);
    },
    release: () => {
      limit?.release();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

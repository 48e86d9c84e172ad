// `bash`, only ever inside an OS sandbox (docs/tools.md, "The sandbox"): bubblewrap on Linux,
// sandbox-exec on macOS, and never on Windows. The output streams as it comes (tool_execution_update),
// the tail is kept under the caps, and Stop or the timeout kills the whole process tree: bwrap runs
// in its own process group with --die-with-parent, and its PID namespace dies with it. A command that
// fails or times out is an ordinary result; the sandbox failing to run is a `sandbox` ToolFailure
// whose message says how to fix it. Each call also gets the seccomp filter, the git guard and the
// process limit (docs/tools.md, "Threat model"). Called by bash-tool.ts; bench/sandbox-startup.ts
// times it.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolOutcome } from '../../core/ports';
import { MAX_BYTES, capTail, tailNote } from './output-caps';
import type { Writable } from 'node:stream';
import { BWRAP_SECCOMP_FD, BWRAP_STATUS_FD, bubblewrapArgs, sandboxEnv, seatbeltProfile } from './sandbox-plan';
import { filterArch, unixSocketFilter } from './seccomp-filter';
import { ToolAborted, ToolFailure } from '../../core/tools/tool-failure';
import { checkNewRepositories, guardGit } from './git-guard';
import { clearSetIdBits } from './set-id-sweep';
import { MAX_PROCESSES, createProcessLimit, userNamespaceLimit } from './process-limit';

export interface BashRun {
  command: string;
  /** The workspace's real path. */
  workspace: string;
  timeoutMs: number;
  network: boolean;
  /** Folders the command must not see (the data folder). */
  hidden: readonly string[];
  signal?: AbortSignal;
  onUpdate?: (text: string) => void;
}

export interface SandboxHost {
  platform: NodeJS.Platform;
  /** The bubblewrap binary; default "bwrap" from PATH. */
  bwrap: string;
  /** macOS: default /usr/bin/sandbox-exec. */
  sandboxExec: string;
}

export const BWRAP_MISSING =
  'bash runs only inside the bubblewrap sandbox, and bubblewrap (bwrap) is not installed. Install it — Debian/Ubuntu: sudo apt install bubblewrap; Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap — then press Continue.';
export const WINDOWS_NO_SANDBOX =
  'bash is off on Windows: there is no OS sandbox here that Resolute can run commands in, and commands never run unsandboxed. The file tools (read, ls, find, grep, write, edit) still work.';
const BWRAP_REFUSED_FIX =
  'The kernel may not allow unprivileged user namespaces: enable them (sudo sysctl -w kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 and later allow bwrap in AppArmor), then press Continue.';

/** Updates of the live output are sent at most this often, ms. */
const UPDATE_INTERVAL_MS = 100;
/** Paths of the system that get their own empty tmpfs inside, besides /tmp. */
const PRIVATE_TMP = ['/var/tmp'];

interface Launch {
  child: ChildProcess;
  /** Why the sandbox itself failed (given the start of stderr), or null when the command ran. */
  sandboxFailure: (stderrHead: string) => string | null;
  /** The command's exit code as the sandbox reports it, when it does. */
  reportedExit: () => number | null;
  /** Calls back once the command hit the sandbox's process limit. */
  watchLimit: (onExceeded: () => void) => void;
  /** Checks what the command left behind once nothing of it runs (git-guard.ts); throws a ToolFailure. */
  afterExit: () => void;
  cleanup: () => void;
}

/** How much of stderr is kept to explain a sandbox that failed to start. */
const STDERR_HEAD_BYTES = 4096;

function launchBwrap(run: BashRun, host: SandboxHost): Launch {
  const tmp = '/tmp';
  const startedAt = Date.now();
  const git = guardGit(run.workspace);
  const limit = createProcessLimit();
  const arch = filterArch(process.arch);
  const args = bubblewrapArgs({
    workspace: run.workspace,
    network: run.network,
    hidden: run.hidden,
    privateTmp: PRIVATE_TMP,
    env: sandboxEnv(process.env, tmp),
    command: run.command,
    pinned: git.pinned,
    readOnly: git.readOnly,
    seccompFd: arch ? BWRAP_SECCOMP_FD : undefined,
    userNamespaceProcessLimit: limit ? undefined : userNamespaceLimit(),
  });
  const stdio: ('ignore' | 'pipe')[] = ['ignore', 'pipe', 'pipe'];
  while (stdio.length <= BWRAP_SECCOMP_FD) stdio.push('pipe');
  const start = limit ? limit.wrap(host.bwrap, args) : { command: host.bwrap, args };
  // bwrap's own environment carries only PATH; the command's is set by --setenv.
  const child = spawn(start.command, start.args, { detached: true, stdio, env: { PATH: process.env.PATH } });
  const seccomp = child.stdio[BWRAP_SECCOMP_FD] as Writable | null;
  seccomp?.on('error', () => undefined);
  seccomp?.end(arch ? unixSocketFilter(arch) : undefined);
  let exit: number | null = null;
  child.stdio[BWRAP_STATUS_FD]?.on('data', (chunk: Buffer) => {
    const code = /"exit-code"\s*:\s*(\d+)/.exec(chunk.toString('utf8'))?.[1];
    if (code !== undefined) exit = Number(code);
  });
  return {
    child,
    // bwrap reports an exit code only for a command that ran; without one, setting up failed (stderr says why).
    sandboxFailure: (stderrHead) =>
      exit !== null
        ? null
        : `bubblewrap could not create the sandbox (${stderrHead || 'no reason given'}). ${BWRAP_REFUSED_FIX}`,
    reportedExit: () => exit,
    watchLimit: (onExceeded) => limit?.watch(onExceeded),
    afterExit: () => {
      clearSetIdBits(run.workspace, startedAt);
      checkNewRepositories(run.workspace, git);
    },
    cleanup: () => limit?.release(),
  };
}

function launchSeatbelt(run: BashRun, host: SandboxHost): Launch {
  const tmp = mkdtempSync(join(tmpdir(), 'resolute-bash-'));
  const startedAt = Date.now();
  const profile = seatbeltProfile({ workspace: run.workspace, network: run.network, hidden: run.hidden, tmpDir: tmp });
  const child = spawn(host.sandboxExec, ['-p', profile, '/bin/bash', '-c', run.command], {
    cwd: run.workspace,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: sandboxEnv(process.env, tmp),
  });
  return {
    child,
    // sandbox-exec reports a profile it cannot apply on stderr, before running anything.
    sandboxFailure: (stderrHead) =>
      /^sandbox-exec:/.test(stderrHead) ? `sandbox-exec could not create the sandbox (${stderrHead}).` : null,
    reportedExit: () => null,
    watchLimit: () => undefined,
    // Seatbelt cannot refuse a set-uid bit: it is cleared after.
    afterExit: () => void clearSetIdBits(run.workspace, startedAt),
    cleanup: () => rmSync(tmp, { recursive: true, force: true }),
  };
}

/** Kill the sandbox's whole process group; the PID namespace takes the rest with it. */
function killTree(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/**
 * Keeps the tail of the output (twice the byte cap) and sends throttled live updates — the last
 * one too, once the interval has passed, so a command that prints and then waits is seen (and
 * stored, docs/tools.md, "Runs cut by a quit or a crash") with all it printed.
 */
class OutputTail {
  private chunks: Buffer[] = [];
  private bytes = 0;
  private lastUpdate = 0;
  private trailing: NodeJS.Timeout | null = null;

  constructor(private readonly onUpdate?: (text: string) => void) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    while (this.bytes > MAX_BYTES * 2 && this.chunks.length > 1) this.bytes -= this.chunks.shift()?.length ?? 0;
    if (!this.onUpdate || this.trailing) return;
    const wait = this.lastUpdate + UPDATE_INTERVAL_MS - Date.now();
    if (wait <= 0) this.send();
    else this.trailing = setTimeout(() => this.send(), wait);
  }

  /** No more updates: the result carries the rest. */
  stop(): void {
    if (this.trailing) clearTimeout(this.trailing);
    this.trailing = null;
  }

  private send(): void {
    this.trailing = null;
    this.lastUpdate = Date.now();
    this.onUpdate?.(capTail(this.text()).text);
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/** Run one command in the sandbox; resolves with its result, or rejects (abort, sandbox failure). */
export function runSandboxed(run: BashRun, host: SandboxHost): Promise<ToolOutcome> {
  if (host.platform === 'win32') return Promise.reject(new ToolFailure('sandbox', WINDOWS_NO_SANDBOX, 'bash'));
  // Checked here: with the process limit, bwrap is started through /bin/sh, which would not say ENOENT.
  if (host.platform !== 'darwin' && !existsSync(host.bwrap))
    return Promise.reject(new ToolFailure('sandbox', BWRAP_MISSING, 'bwrap'));
  const launch = host.platform === 'darwin' ? launchSeatbelt(run, host) : launchBwrap(run, host);
  return watch(run, launch);
}

function watch(run: BashRun, launch: Launch): Promise<ToolOutcome> {
  const { child } = launch;
  const output = new OutputTail(run.onUpdate);
  let stderrHead = '';
  let killedBy: 'abort' | 'timeout' | 'limit' | null = null;
  const stop = (why: 'abort' | 'timeout' | 'limit') => {
    killedBy ??= why;
    killTree(child);
  };
  launch.watchLimit(() => stop('limit'));
  const onAbort = () => stop('abort');
  if (run.signal?.aborted) queueMicrotask(onAbort);
  else run.signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => stop('timeout'), run.timeoutMs);
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderrHead.length < STDERR_HEAD_BYTES) stderrHead += chunk.toString('utf8');
    output.push(chunk);
  });
  return new Promise<ToolOutcome>((resolve, reject) => {
    const finish = () => {
      clearTimeout(timer);
      output.stop();
      run.signal?.removeEventListener('abort', onAbort);
      launch.cleanup();
    };
    child.once('error', (error: NodeJS.ErrnoException) => {
      finish();
      reject(
        error.code === 'ENOENT'
          ? new ToolFailure('sandbox', BWRAP_MISSING, 'bwrap')
          : new ToolFailure('sandbox', `The sandbox could not be started: ${error.message}`, 'bwrap'),
      );
    });
    child.once('close', (code, signal) => {
      finish();
      try {
        resolve(settle({ run, launch, text: output.text(), stderrHead, killedBy, code, signal }));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

interface Ended {
  run: BashRun;
  launch: Launch;
  text: string;
  stderrHead: string;
  killedBy: 'abort' | 'timeout' | 'limit' | null;
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** What a finished sandbox process means: a result, or (thrown) an abort or a failure. */
function settle({ run, launch, text, stderrHead, killedBy, code, signal }: Ended): ToolOutcome {
  // What the command left behind is checked first, even after an abort or a timeout: it ran.
  launch.afterExit();
  if (killedBy === 'limit') return result(text, null, 'limit', run);
  if (killedBy === 'abort') {
    const output = capTail(text).text;
    throw new ToolAborted(output, `${output ? `${output}\n\n` : ''}Command aborted`);
  }
  if (killedBy === null && signal !== null && launch.reportedExit() === null)
    throw new ToolFailure(
      'sandbox',
      `The sandbox process was killed (${signal}) before the command finished.`,
      'sandbox',
    );
  const failure = killedBy === null ? launch.sandboxFailure(stderrHead.trim()) : null;
  if (failure) throw new ToolFailure('sandbox', failure, 'sandbox');
  const timedOut = killedBy === 'timeout';
  return result(text, timedOut ? null : (launch.reportedExit() ?? code), timedOut ? 'timeout' : null, run);
}

function result(
  output: string,
  exitCode: number | null,
  stoppedBy: 'timeout' | 'limit' | null,
  run: BashRun,
): ToolOutcome {
  const capped = capTail(output);
  const note = tailNote(capped);
  let text = (capped.text.replace(/\n+$/, '') || '(no output)') + (note ? `\n\n${note}` : '');
  const timedOut = stoppedBy === 'timeout';
  if (timedOut) text += `\n\nCommand timed out after ${Math.round(run.timeoutMs / 100) / 10} seconds`;
  else if (stoppedBy === 'limit')
    text += `\n\nCommand stopped: it reached the sandbox's process limit (${MAX_PROCESSES} processes and threads)`;
  else if (exitCode !== 0) text += `\n\nCommand exited with code ${exitCode}`;
  return {
    text,
    details: {
      exitCode,
      ...(timedOut ? { timedOut } : {}),
      ...(stoppedBy === 'limit' ? { processLimit: true } : {}),
      ...(capped.truncated ? { truncated: true } : {}),
    },
    isError: stoppedBy !== null || exitCode !== 0,
  };
}

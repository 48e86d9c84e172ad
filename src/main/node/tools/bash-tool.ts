// `bash`: a command in the workspace, inside the OS sandbox (bash-sandbox.ts; docs/tools.md, "The
// sandbox"), its output streamed as it comes and cut to the last lines. It asks first; its card
// shows the command. Not offered on Windows, where there is no sandbox to run it in. Made by
// builtin-tools.ts, which knows the sandbox binaries and the folders to hide.
import { lazySchema } from '../../core/llm/pi-runtime';
import { stringArg, type ToolDefinition } from '../../core/tools/tool-definition';
import { MAX_BYTES, MAX_LINES } from './output-caps';
import { runSandboxed, type SandboxHost } from './bash-sandbox';
import type { ToolCallContext, ToolOutcome } from '../../core/ports';
import { errorText } from '../../../shared/text';
import type { Snapshot, WorkspaceSnapshots } from '../file-history/workspace-snapshot';

/**
 * Runs the command between two snapshots of the workspace and records what it changed — also when
 * it failed, timed out or was stopped: it ran. A snapshot that fails is said, and the command runs.
 */
async function recordingChanges(
  snapshots: WorkspaceSnapshots | undefined,
  context: ToolCallContext,
  command: () => Promise<ToolOutcome>,
): Promise<ToolOutcome> {
  const record = context.recordFiles;
  if (!snapshots || !record) return command();
  const failed = (error: unknown) =>
    record({
      workspace: context.workspace,
      changes: [],
      contents: [],
      notRecorded: [`the snapshot failed: ${errorText(error)}`],
    });
  let before: Snapshot | null = null;
  try {
    before = await snapshots.before(context.workspace);
  } catch (error) {
    failed(error);
  }
  try {
    return await command();
  } finally {
    try {
      if (before) record(await snapshots.after(before));
    } catch (error) {
      failed(error);
    }
  }
}

/** The model's timeout (seconds) within the `tools.timeoutMs` ceiling, ms. */
export function bashTimeoutMs(requestedSeconds: unknown, ceilingMs: number): number {
  const requested =
    typeof requestedSeconds === 'number' && Number.isFinite(requestedSeconds) && requestedSeconds > 0
      ? requestedSeconds * 1000
      : ceilingMs;
  return Math.min(requested, ceilingMs);
}

const schema = lazySchema((Type) =>
  Type.Object({
    command: Type.String({ description: 'Bash command to execute' }),
    timeout: Type.Optional(Type.Number({ description: 'Timeout in seconds (optional)' })),
  }),
);

/**
 * `hidden`: folders the command must not see (Resolute's data folder, with its keys). `snapshots`:
 * the file history's index of the workspace, taken around each command (docs/file-history.md).
 */
export function bashTool(host: SandboxHost, hidden: readonly string[], snapshots?: WorkspaceSnapshots): ToolDefinition {
  return {
    name: 'bash',
    description: `Execute a bash command in the workspace, inside a sandbox: the workspace is writable, the rest of the system read-only, /tmp private, and the network off unless the person allows it. Returns stdout and stderr, cut to the last ${MAX_LINES} lines or ${MAX_BYTES / 1024}KB. Optionally provide a timeout in seconds.`,
    get parameters() {
      return schema();
    },
    asksFirst: true,
    run: (args, context) =>
      recordingChanges(snapshots, context, () =>
        runSandboxed(
          {
            command: String(args.command),
            workspace: context.workspace,
            timeoutMs: bashTimeoutMs(args.timeout, context.settings.timeoutMs),
            network: context.settings.network,
            hidden,
            signal: context.signal,
            onUpdate: context.onUpdate,
          },
          host,
        ),
      ),
    preview: async (args) => {
      const timeout = args.timeout;
      const timeoutSeconds = typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0 ? timeout : null;
      return { kind: 'command', command: String(args.command), timeoutSeconds };
    },
    summary: (args) => stringArg(args, 'command'),
    guideline: ({ network }) =>
      `bash runs in a sandbox: only the workspace is writable${network ? '' : ', and there is no network'}.`,
  };
}

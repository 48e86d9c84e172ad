// The ToolRuntime the core's ToolCoordinator calls (docs/tools.md): one entry that opens the
// workspace (creating the default one on first use), dispatches to the file, search and bash tools,
// and builds the approval card's preview. Built by the composition root (AppServices).
import type { ToolCallContext, ToolOutcome, ToolRuntime } from '../../core/ports';
import { codedNotice, type NoticeText } from '../../../shared/notices';
import type { ApprovalPreview, ToolName } from '../../../shared/tools';
import { runSandboxed, WINDOWS_NO_SANDBOX, type SandboxHost } from './bash-sandbox';
import { editTool, lsTool, previewFileChange, readTool, writeTool } from './file-tools';
import { readImage } from './read-image';
import { defaultSandboxHost } from './executables';
import { findTool, grepTool } from './search-tools';
import { openWorkspace } from './workspace-fs';
import { readProjectInstructions } from './project-instructions';
import type { ProjectInstructions } from '../../core/system-prompt';

export interface NodeToolRuntimeOptions {
  /** The default workspace, created on first use; any other must exist. */
  defaultWorkspace: string;
  /** Hidden from bash (Resolute's data folder, with its keys). */
  hidden: readonly string[];
  /** Where the sandbox binaries are; default bwrap from PATH's absolute entries, /usr/bin/sandbox-exec. */
  sandbox?: Partial<SandboxHost>;
}

export class NodeToolRuntime implements ToolRuntime {
  private readonly host: SandboxHost;

  constructor(private readonly options: NodeToolRuntimeOptions) {
    this.host = defaultSandboxHost(options.sandbox);
  }

  readonly platform = platformName();

  projectInstructions(workspace: string): ProjectInstructions | null {
    return readProjectInstructions(workspace);
  }

  get bashUnavailable(): NoticeText | null {
    return this.host.platform === 'win32' ? codedNotice('bash_off_on_windows', {}, WINDOWS_NO_SANDBOX) : null;
  }

  private open(workspace: string): string {
    return openWorkspace(workspace, workspace === this.options.defaultWorkspace);
  }

  async run(name: ToolName, args: Record<string, unknown>, context: ToolCallContext): Promise<ToolOutcome> {
    const workspace = this.open(context.workspace);
    switch (name) {
      case 'read':
        return (await readImage(workspace, args)) ?? readTool(workspace, args);
      case 'ls':
        return lsTool(workspace, args);
      case 'find':
        return findTool(workspace, args, context.signal);
      case 'grep':
        return grepTool(workspace, args, context.signal);
      case 'write':
        return writeTool(workspace, args);
      case 'edit':
        return editTool(workspace, args);
      case 'bash':
        return runSandboxed(
          {
            command: String(args.command),
            workspace,
            timeoutMs: bashTimeoutMs(args.timeout, context.settings.timeoutMs),
            network: context.settings.network,
            hidden: this.options.hidden,
            signal: context.signal,
            onUpdate: context.onUpdate,
          },
          this.host,
        );
    }
  }

  async preview(name: ToolName, args: Record<string, unknown>, workspace: string): Promise<ApprovalPreview | null> {
    if (name === 'bash') {
      const timeout = args.timeout;
      const timeoutSeconds = typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0 ? timeout : null;
      return { kind: 'command', command: String(args.command), timeoutSeconds };
    }
    if (name !== 'write' && name !== 'edit') return null;
    return previewFileChange(this.open(workspace), name, args);
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

/** "Linux (x64)", "macOS (arm64)", "Windows (x64)": how the system prompt names the system. */
function platformName(): string {
  const names: Partial<Record<NodeJS.Platform, string>> = { linux: 'Linux', darwin: 'macOS', win32: 'Windows' };
  return `${names[process.platform] ?? process.platform} (${process.arch})`;
}

// The ToolRuntime the core's ToolCoordinator uses (docs/tools.md): the registry of tools (the
// built-in ones from builtin-tools.ts; run-time sources add theirs), how a session's workspace is
// opened for a call (the default one is created on first use), and the facts the system prompt
// states. Built by the composition root (AppServices).
import type { ToolRuntime } from '../../core/ports';
import { ToolRegistry } from '../../core/tools/tool-registry';
import type { ProjectInstructions } from '../../core/session/system-prompt';
import { codedNotice } from '../../../shared/notices';
import { type NoticeText } from '../../../shared/notice-params';
import { WINDOWS_NO_SANDBOX, type SandboxHost } from './bash-sandbox';
import { builtinTools } from './builtin-tools';
import type { WorkspaceSnapshots } from '../file-history/workspace-snapshot';
import { defaultSandboxHost } from './executables';
import { openWorkspace } from './workspace-fs';
import { readProjectInstructions } from './project-instructions';

export interface NodeToolRuntimeOptions {
  /** The default workspace, created on first use; any other must exist. */
  defaultWorkspace: string;
  /** Hidden from bash (Resolute's data folder, with its keys). */
  hidden: readonly string[];
  /** Where the sandbox binaries are; default bwrap from PATH's absolute entries, /usr/bin/sandbox-exec. */
  sandbox?: Partial<SandboxHost>;
  /** The file history's snapshots around bash (docs/file-history.md); absent: bash's changes are not recorded. */
  snapshots?: WorkspaceSnapshots;
}

export class NodeToolRuntime implements ToolRuntime {
  private readonly host: SandboxHost;
  readonly registry: ToolRegistry;
  readonly platform = platformName();

  constructor(private readonly options: NodeToolRuntimeOptions) {
    this.host = defaultSandboxHost(options.sandbox);
    this.registry = new ToolRegistry(builtinTools(this.host, options.hidden, options.snapshots));
  }

  projectInstructions(workspace: string): ProjectInstructions | null {
    return readProjectInstructions(workspace);
  }

  get bashUnavailable(): NoticeText | null {
    return this.host.platform === 'win32' ? codedNotice('bash_off_on_windows', {}, WINDOWS_NO_SANDBOX) : null;
  }

  openWorkspace(workspace: string): string {
    return openWorkspace(workspace, workspace === this.options.defaultWorkspace);
  }
}

/** "Linux (x64)", "macOS (arm64)", "Windows (x64)": how the system prompt names the system. */
function platformName(): string {
  const names: Partial<Record<NodeJS.Platform, string>> = { linux: 'Linux', darwin: 'macOS', win32: 'Windows' };
  return `${names[process.platform] ?? process.platform} (${process.arch})`;
}

// The built-in tools, the one list (docs/tools.md, "Adding a tool"): the names and parameter shapes
// of the `pi` coding agent's seven tools, in the order the model is shown them. A new built-in
// tool is its own file beside this one and one line here; its name, whether it asks first and how
// it runs all come from its definition. bash is left out where it cannot be sandboxed (Windows).
import type { ToolDefinition } from '../../core/tools/tool-definition';
import type { SandboxHost } from './bash-sandbox';
import type { WorkspaceSnapshots } from '../file-history/workspace-snapshot';
import { bashTool } from './bash-tool';
import { editTool } from './edit-tool';
import { findTool } from './find-tool';
import { grepTool } from './grep-tool';
import { lsTool } from './ls-tool';
import { readTool } from './read-tool';
import { writeTool } from './write-tool';

export function builtinTools(
  host: SandboxHost,
  hidden: readonly string[],
  snapshots?: WorkspaceSnapshots,
): ToolDefinition[] {
  const bash = bashTool(host, hidden, snapshots);
  const tools = [readTool, lsTool, findTool(hidden), grepTool(hidden), writeTool, editTool, bash];
  return host.platform === 'win32' ? tools.filter((tool) => tool.name !== 'bash') : tools;
}

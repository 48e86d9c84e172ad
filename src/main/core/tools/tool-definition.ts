// What one agent tool is (docs/tools.md, "Adding a tool"): its name and description as the model
// sees them, its parameter schema, whether it asks the person first, how it runs, what its approval
// card previews and the one line its card is known by. The built-in tools are one file each under
// src/main/node/tools, listed in builtin-tools.ts; tools that arrive at run time (MCP servers) are
// the same shape. The ToolCoordinator reads them from the ToolRegistry.
import type { AgentTool } from '@mariozechner/pi-agent-core';
import type { TSchema } from '@mariozechner/pi-ai';
import type { ApprovalPreview } from '../../../shared/tools';
import type { ToolCallContext, ToolOutcome } from '../ports';

export interface ToolDefinition {
  /** As the model calls it: unique in the registry. */
  readonly name: string;
  readonly description: string;
  /**
   * JSON schema (TypeBox) of the arguments; read when the model is shown the tools, so a built-in
   * tool builds it then (lazySchema in core/llm/pi-runtime.ts).
   */
  readonly parameters: TSchema;
  /** With `tools.approval` = `ask`, the call waits for the person before it runs. */
  readonly asksFirst: boolean;
  /** Mends a model's near-miss arguments before validation (pi's `prepareArguments`). */
  readonly prepareArguments?: AgentTool['prepareArguments'];
  /**
   * Runs the call. Throws ToolFailure (tool-failure.ts) for a failure that ends the turn, a plain
   * Error for one the model should just hear about.
   */
  run(args: Record<string, unknown>, context: ToolCallContext): Promise<ToolOutcome>;
  /** What the approval card shows; null (or absent) when the call cannot run as given. */
  preview?(args: Record<string, unknown>, context: { workspace: string }): Promise<ApprovalPreview | null>;
  /** The one line a person recognises the call by on its card: a path, a command, a pattern. */
  summary(args: Record<string, unknown>): string;
  /** What it does to files is out of the file history's reach (an MCP server's tool): its card says so. */
  readonly filesUntracked?: boolean;
  /** A line for the system prompt's tools section, when the tool has a rule the model must know. */
  guideline?(facts: { network: boolean }): string;
}

/** The string value of an argument, or '' (models send all sorts). */
export function stringArg(args: Record<string, unknown>, key: string): string {
  const value = args[key];
  return typeof value === 'string' ? value : '';
}

// What one agent tool is (docs/tools.md, "Adding a tool"): its name and description as the model
// sees them, its parameter schema, whether it asks the person first, how it runs, what its approval
// card previews and the one line its card is known by. The built-in tools are one file each under
// src/main/node/tools, listed in builtin-tools.ts; tools that arrive at run time (MCP servers) are
// the same shape. The ToolCoordinator reads them from the ToolRegistry.
import type { AgentTool } from '@mariozechner/pi-agent-core';
import type { TSchema, Type as TypeBuilder } from '@mariozechner/pi-ai';
import type { ApprovalPreview } from '../../../shared/tools';
import type { ToolCallContext, ToolOutcome } from '../ports';
import { piRuntime } from '../llm/pi-runtime';

export interface ToolDefinition {
  /** As the model calls it: unique in the registry. */
  readonly name: string;
  readonly description: string;
  /** JSON schema (TypeBox) of the arguments; read when the model is shown the tools. */
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

type Builder = typeof TypeBuilder;

/**
 * A parameter schema built with pi-ai's TypeBox the first time it is asked for, then kept: built at
 * start-up, it would load pi-ai there (src/main/core/llm/pi-runtime.ts). A definition reads it from a
 * `get parameters()` (a spread would call the getter at once).
 */
export function lazySchema(build: (Type: Builder) => TSchema): () => TSchema {
  let built: TSchema | undefined;
  return () => (built ??= build(piRuntime().piAi.Type));
}

/** The string value of an argument, or '' (models send all sorts). */
export function stringArg(args: Record<string, unknown>, key: string): string {
  const value = args[key];
  return typeof value === 'string' ? value : '';
}

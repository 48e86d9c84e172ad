// The one list of tools a session can offer (docs/tools.md, "Adding a tool"): the built-in ones,
// fixed at start-up, then the sets that sources add and replace at run time (an MCP server's tools
// when it connects or its list changes). A name is taken by the first tool that has it; a later
// one with the same name is left out, so a server cannot shadow `bash`. The ToolCoordinator reads
// it before each run and hears of each change.
import type { ToolDefinition } from './tool-definition';

export class ToolRegistry {
  private readonly sources = new Map<string, readonly ToolDefinition[]>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly builtins: readonly ToolDefinition[]) {}

  /** Every tool, built-in first, then each source in the order it was first added. */
  list(): ToolDefinition[] {
    const seen = new Set<string>();
    const out: ToolDefinition[] = [];
    for (const tool of [...this.builtins, ...[...this.sources.values()].flat()]) {
      if (seen.has(tool.name)) continue;
      seen.add(tool.name);
      out.push(tool);
    }
    return out;
  }

  get(name: string): ToolDefinition | undefined {
    return this.list().find((tool) => tool.name === name);
  }

  /** Put (or replace) a source's tools; an empty list keeps the source's place. */
  setSource(source: string, tools: readonly ToolDefinition[]): void {
    this.sources.set(source, [...tools]);
    this.changed();
  }

  removeSource(source: string): void {
    if (this.sources.delete(source)) this.changed();
  }

  /** Called after every change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

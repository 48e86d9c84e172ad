// The agent's tools inside a session (docs/tools.md): it hands the Agent the tools of the registry
// (the built-in ones and those that arrive at run time), runs each call by its definition, asks
// for approval first where the settings say so, and turns a failure into a fault for the
// ToolFailureGate — a security failure audited before anything else — which ends the run and hands
// the fault to the retry controller's decision. It also spots the model's invalid calls (an
// unknown tool, arguments that fail the schema): `invalid_output`. AgentSession owns one and
// attaches it to its Agent.
import type { AgentTool, AgentToolResult, AgentToolUpdateCallback } from '@mariozechner/pi-agent-core';
import type { AgentEvent, BeforeToolCallContext, BeforeToolCallResult } from '@mariozechner/pi-agent-core';
import type { ApprovalEvent } from '../../../shared/events';
import type { ApprovalChoice, ToolApproval } from '../../../shared/tools';
import {
  DENIED_RESULT,
  interruptedToolText,
  type ApprovalPreview,
  type ToolResultDetails,
} from '../../../shared/tools';
import type {
  AgentPort,
  AuditSink,
  HistoryWriter,
  RecordedFiles,
  SettingsStore,
  ToolOutcome,
  ToolRunJournal,
  ToolRuntime,
} from '../ports';
import { mergeRecorded, summaryOfRecorded } from './recorded-files';
import { buildSystemPrompt, type CustomInstructions } from '../session/system-prompt';
import { ApprovalBroker, HELD } from './approvals';
import { ToolAborted, ToolFailure, type ToolFailureCategory } from './tool-failure';
import { ToolFailureGate, type ToolFault } from './tool-gate';
import type { ToolDefinition } from './tool-definition';
import { contentText, errorText } from '../../../shared/text';

export interface ToolCoordinatorOptions {
  runtime: ToolRuntime;
  audit: AuditSink;
  history: Pick<HistoryWriter, 'recordAudit'>;
  settings: SettingsStore;
  /** The folder the first session works in. */
  workspace: string;
  emit: (event: ApprovalEvent) => void;
  sessionId: () => string;
  newId: () => string;
  now: () => number;
  /** A conversation's own instructions, which stand in for `agent.systemPrompt` (null: none). */
  instructions?: (sessionId: string) => CustomInstructions | null;
  /** The calls in flight, kept for a restart (docs/tools.md, "Runs cut by a quit or a crash"). */
  journal?: ToolRunJournal;
  /** The app is quitting: a call it stops is interrupted, not stopped by the person. */
  shuttingDown?: () => boolean;
}

/** What the coordinator knows about one tool call of the current run. */
interface CallState {
  ran: boolean;
  blocked: boolean;
  isError: boolean;
  failure?: ToolFault['category'];
  /** Its approval's answer and how long it waited, stored with its result (docs/tools.md, "Approvals"). */
  approval?: ToolApproval;
}

const SKIPPED = 'Not run: an earlier tool call in this turn failed.';
const HELD_RESULT =
  'Not run: Resolute stopped while this call waited for approval; it is asked again after the restart.';

export class ToolCoordinator {
  readonly gate = new ToolFailureGate();
  readonly approvals: ApprovalBroker;
  private readonly calls = new Map<string, CallState>();
  /** What each call of this run changed in the workspace, until its result is stored with it. */
  private readonly files = new Map<string, RecordedFiles & { toolName: string }>();
  private workspaceValue: string;
  private agent: AgentPort | null = null;
  private held = false;

  constructor(private readonly options: ToolCoordinatorOptions) {
    this.workspaceValue = options.workspace;
    const { journal } = options;
    this.approvals = new ApprovalBroker({
      emit: options.emit,
      newId: options.newId,
      now: options.now,
      keep: journal && {
        asked: (request) => journal.asked(options.sessionId(), request),
        answered: (id) => journal.answered(id),
      },
      holding: options.shuttingDown,
    });
  }

  get workspace(): string {
    return this.workspaceValue;
  }

  /** Point the tools at another folder (validated by the caller); the system prompt follows. */
  setWorkspace(workspace: string): void {
    this.workspaceValue = workspace;
    this.refresh();
  }

  /** Install the tools, the approval hook and the gate on the Agent (once, by AgentSession). */
  attach(agent: AgentPort): () => void {
    this.agent = agent;
    // One call at a time: a failed call stops the ones after it, and approvals come one by one.
    agent.toolExecution = 'sequential';
    agent.streamFn = this.gate.wrap(agent.streamFn);
    agent.beforeToolCall = (context, signal) => this.beforeToolCall(context, signal);
    agent.afterToolCall = async ({ toolCall }) => {
      const call = this.calls.get(toolCall.id);
      return call?.ran ? { isError: call.isError } : undefined;
    };
    this.refresh();
    const unsubscribeSettings = this.options.settings.subscribe(() => this.refresh());
    const unsubscribeTools = this.options.runtime.registry.subscribe(() => this.refresh());
    return () => {
      unsubscribeSettings();
      unsubscribeTools();
    };
  }

  /** A new prompt or Continue: no fault or call state carries over; the instructions are read afresh. */
  startRun(): void {
    this.gate.clear();
    this.calls.clear();
    this.files.clear();
    this.updatePrompt(this.offered());
  }

  /** Another conversation: nothing waits for approval and nothing is allowed any more. */
  reset(): void {
    this.approvals.reset();
    this.startRun();
  }

  /**
   * A quit held an approval of this run for the restart: what the run does after it (the call's
   * result, the stopped reply) is not stored, so the restart finds the run where the question was.
   */
  get holdsForRestart(): boolean {
    return this.held;
  }

  /**
   * Run a call whose approval was asked before a restart and answered now, as the agent's loop
   * would have (docs/tools.md, "Approvals"): a denied one gives the model the denial; a tool that is
   * not offered now (an MCP server not connected) gives an error result.
   */
  async runAnswered(
    toolCall: { id: string; name: string; args: Record<string, unknown>; requestedAt: number },
    choice: ApprovalChoice,
    signal: AbortSignal,
    onUpdate: AgentToolUpdateCallback,
  ): Promise<{ result: AgentToolResult<ToolResultDetails>; isError: boolean }> {
    const call = this.call(toolCall.id);
    call.approval = { choice, waitedMs: Math.max(0, this.options.now() - toolCall.requestedAt) };
    const tool = this.offered().find((t) => t.name === toolCall.name);
    if (choice === 'deny' || !tool) {
      call.blocked = true;
      const said = tool ? DENIED_RESULT : `Tool ${toolCall.name} is not available now.`;
      return { result: text(said, {}), isError: true };
    }
    const result = await this.execute(tool, toolCall.id, toolCall.args, signal, onUpdate);
    return { result, isError: call.isError };
  }

  /** A call's result is stored: the journal of calls in flight forgets it. */
  resultStored(toolCallId: string): void {
    this.options.journal?.settled(toolCallId);
  }

  /** The failure category of a tool call of this run, for its stored result. */
  failureOf(toolCallId: string): ToolFault['category'] | undefined {
    return this.calls.get(toolCallId)?.failure;
  }

  /** The answer a call's approval got and how long it waited; undefined when it did not ask. */
  approvalOf(toolCallId: string): ToolApproval | undefined {
    return this.calls.get(toolCallId)?.approval;
  }

  /** A call's file changes, handed once to the turn that stores its result (docs/file-history.md). */
  takeFileChanges(toolCallId: string): (RecordedFiles & { toolCallId: string; toolName: string }) | null {
    const recorded = this.files.get(toolCallId);
    if (!recorded) return null;
    this.files.delete(toolCallId);
    return { ...recorded, toolCallId };
  }

  /** Watches the agent's events for calls the loop refused before any tool ran: invalid output. */
  onAgentEvent(event: AgentEvent): void {
    if (event.type !== 'tool_execution_end' || !event.isError) return;
    const call = this.call(event.toolCallId);
    if (call.ran || call.blocked) return;
    call.failure = 'invalid_output';
    const said = resultText(event.result);
    this.gate.report({
      category: 'invalid_output',
      message: `The model made an invalid call of "${event.toolName}": ${said}`,
      toolCallId: event.toolCallId,
      toolName: event.toolName,
    });
  }

  /** The event as the windows get it: a tool call's start carries the line its card is known by. */
  describe(event: AgentEvent): AgentEvent & { summary?: string } {
    if (event.type !== 'tool_execution_start') return event;
    const summary = this.summaryOf(event.toolName, event.args);
    return summary === undefined ? event : { ...event, summary };
  }

  /** The tools this session offers now (none when they are switched off). */
  private offered(): ToolDefinition[] {
    if (!this.options.settings.get().tools.enabled) return [];
    return this.options.runtime.registry.list();
  }

  private summaryOf(toolName: string, args: unknown): string | undefined {
    const tool = this.options.runtime.registry.get(toolName);
    if (!tool || typeof args !== 'object' || args === null) return undefined;
    try {
      return tool.summary(args as Record<string, unknown>);
    } catch {
      return undefined; // A tool's summary must not break the event; the card falls back to the arguments.
    }
  }

  private refresh(): void {
    if (!this.agent) return;
    const offered = this.offered();
    this.agent.state.tools = offered.map((tool) => this.agentTool(tool));
    this.updatePrompt(offered);
  }

  /** The system prompt follows the tools, the workspace, the settings and the workspace's AGENTS.md. */
  private updatePrompt(offered: readonly ToolDefinition[]): void {
    if (!this.agent) return;
    const { tools, agent } = this.options.settings.get();
    const { runtime } = this.options;
    this.agent.state.systemPrompt = buildSystemPrompt({
      tools: offered.map((tool) => tool.name),
      guidelines: offered.flatMap((tool) => tool.guideline?.({ network: tools.network }) ?? []),
      workspace: this.workspaceValue,
      now: new Date(this.options.now()),
      platform: runtime.platform ?? 'an unknown system',
      custom: this.options.instructions?.(this.options.sessionId()) ?? {
        text: agent.systemPrompt,
        mode: agent.systemPromptMode,
      },
      project: runtime.projectInstructions?.(this.workspaceValue) ?? null,
    });
  }

  private call(toolCallId: string): CallState {
    let call = this.calls.get(toolCallId);
    if (!call) {
      call = { ran: false, blocked: false, isError: false };
      this.calls.set(toolCallId, call);
    }
    return call;
  }

  private agentTool(tool: ToolDefinition): AgentTool {
    return {
      name: tool.name,
      label: tool.name,
      description: tool.description,
      // Read when the model is shown the tools (a run), not now: the schema needs pi-ai (tool-definition.ts).
      get parameters() {
        return tool.parameters;
      },
      ...(tool.prepareArguments ? { prepareArguments: tool.prepareArguments } : {}),
      execute: (toolCallId, params, signal, onUpdate) =>
        this.execute(tool, toolCallId, params as Record<string, unknown>, signal, onUpdate),
    };
  }

  private async execute(
    tool: ToolDefinition,
    toolCallId: string,
    args: Record<string, unknown>,
    signal: AbortSignal | undefined,
    onUpdate: AgentToolUpdateCallback | undefined,
  ): Promise<AgentToolResult<ToolResultDetails>> {
    const call = this.call(toolCallId);
    call.ran = true;
    const started = this.options.now();
    const summary = this.summaryOf(tool.name, args);
    const recordFiles = (recorded: RecordedFiles) => {
      this.files.set(toolCallId, { ...mergeRecorded(this.files.get(toolCallId), recorded), toolName: tool.name });
    };
    const details = (more: ToolResultDetails = {}): ToolResultDetails => ({
      ...more,
      durationMs: Math.max(0, this.options.now() - started),
      ...(summary ? { summary } : {}),
      ...summaryOfRecorded(this.files.get(toolCallId)),
      ...(tool.filesUntracked ? { filesUntracked: true } : {}),
    });
    const { journal } = this.options;
    const sessionId = this.options.sessionId();
    journal?.began({ sessionId, toolCallId, toolName: tool.name, startedAt: started, ...(summary ? { summary } : {}) });
    let printed = '';
    try {
      const outcome = await tool.run(args, {
        toolCallId,
        workspace: this.options.runtime.openWorkspace(this.workspaceValue),
        signal,
        settings: this.options.settings.get().tools,
        onUpdate: (said) => {
          printed = said;
          journal?.output(toolCallId, said);
          onUpdate?.({ content: [{ type: 'text', text: said }], details: {} });
        },
        recordFiles,
      });
      call.isError = outcome.isError;
      return text(outcome.text, details(outcome.details), outcome.images);
    } catch (error) {
      call.isError = true;
      // A quit stopped it: the next start must read it as cut off, not as stopped by the person.
      if (signal?.aborted && this.options.shuttingDown?.()) {
        const output = error instanceof ToolAborted ? error.output : printed;
        return text(interruptedToolText(tool.name, output), details({ interrupted: true }));
      }
      if (!(error instanceof ToolFailure)) return text(errorText(error), details());
      this.onFailure(tool.name, toolCallId, args, error);
      call.failure = error.category;
      return text(error.message, details({ failure: error.category }));
    }
  }

  /** Policy: a security failure is audited first, then the turn is ended through the gate. */
  private onFailure(name: string, toolCallId: string, args: Record<string, unknown>, failure: ToolFailure): void {
    if (failure.category === 'sandbox_security') this.audit(name, toolCallId, args, failure);
    this.gate.report({
      category: failure.category as ToolFailureCategory,
      message: `${name}: ${failure.message}`,
      toolCallId,
      toolName: name,
    });
  }

  private audit(name: string, toolCallId: string, args: Record<string, unknown>, failure: ToolFailure): void {
    const record = {
      id: this.options.newId(),
      timestamp: new Date(this.options.now()).toISOString(),
      sessionId: this.options.sessionId(),
      toolCallId,
      toolName: name,
      args,
      workspace: this.workspaceValue,
      target: failure.target,
      reason: failure.message,
    };
    this.options.audit.write(record);
    try {
      this.options.history.recordAudit(record);
    } catch {
      // The JSON-lines audit log has it; a history write failure must not let the call through.
    }
  }

  private async preview(tool: ToolDefinition, args: Record<string, unknown>): Promise<ApprovalPreview | null> {
    if (!tool.preview) return { kind: 'arguments', arguments: JSON.stringify(args, null, 2) };
    try {
      return await tool.preview(args, { workspace: this.options.runtime.openWorkspace(this.workspaceValue) });
    } catch {
      return null;
    }
  }

  private async beforeToolCall(
    { toolCall, args }: BeforeToolCallContext,
    signal?: AbortSignal,
  ): Promise<BeforeToolCallResult | undefined> {
    const call = this.call(toolCall.id);
    const block = (reason: string): BeforeToolCallResult => {
      call.blocked = true;
      return { block: true, reason };
    };
    if (this.gate.pending) return block(SKIPPED);
    const name = toolCall.name;
    const tool = this.options.runtime.registry.get(name);
    if (!tool || this.options.settings.get().tools.approval === 'auto' || !tool.asksFirst) return undefined;
    if (this.approvals.isAllowedForSession(name)) return undefined;
    const input = args as Record<string, unknown>;
    const preview = await this.preview(tool, input);
    // A call that cannot run as given is not shown for approval: running it reports the failure.
    if (!preview) return undefined;
    const askedAt = this.options.now();
    const choice = await this.approvals.ask({ toolCallId: toolCall.id, toolName: name, args: input, preview }, signal);
    if (choice === HELD) {
      this.held = true;
      return block(HELD_RESULT);
    }
    call.approval = { choice, waitedMs: Math.max(0, this.options.now() - askedAt) };
    return choice === 'deny' ? block(DENIED_RESULT) : undefined;
  }
}

function text(
  value: string,
  details: ToolResultDetails,
  images: ToolOutcome['images'] = [],
): AgentToolResult<ToolResultDetails> {
  const pictures = images.map(({ data, mimeType, file }) => ({
    type: 'image' as const,
    data,
    mimeType,
    ...(file ? { file } : {}),
  }));
  return {
    content: [...(value || !pictures.length ? [{ type: 'text' as const, text: value }] : []), ...pictures],
    details,
  };
}

function resultText(result: unknown): string {
  const said = contentText((result as { content?: unknown } | null)?.content).trim();
  return said.slice(0, 2000) || 'no details';
}

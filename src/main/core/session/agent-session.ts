// AgentSession: one conversation with the agent, shared by every host (Electron, browser, RPC).
// It wraps pi-agent-core's Agent, persists every turn as it ends (errored turns included), hands
// a run's failure (a provider's or a tool's) to the RetryController, which retries or stops it,
// and an overflow to the compaction path, and publishes everything as SessionEvents through
// subscribe(). Its parts — recorder, retry controller, compactor, tools, rate-limit pacing, what is
// done with each agent event — come from session-parts.ts.
import type { Agent, AgentEvent, AgentMessage, ThinkingLevel } from '@mariozechner/pi-agent-core';
import type { Api, Model } from '@mariozechner/pi-ai';
import type {
  InterruptedRetry,
  PacingWait,
  PendingRetry,
  ScheduledRetry,
  SessionEvent,
  SessionEventListener,
  SessionSnapshot,
} from '../../../shared/events';
import {
  messageText,
  type AttachmentBlock,
  type ChatMessage,
  type TextBlock,
  type UserChatMessage,
} from '../../../shared/messages';
import type { AttachmentUpload } from '../../../shared/attachments';
import type { ApprovalChoice, ApprovalRequest } from '../../../shared/tools';
import type { ChatBudget, SpendingCapChoice, SpendingCapRequest } from '../../../shared/spending-cap';
import { errorNotice, noticeDetail } from '../../../shared/notices';
import { type AnsweredApprovalParts, goOnAfterApproval, runAnsweredCall, stoppedAt } from './answered-approval';
import type { Compactor } from './compaction';
import type { AgentPort } from '../ports';
import { type PromptPacing, findInterruptedRetry, interruptedDecision, type RetryController } from '../retry';
import { buildSessionParts, type AgentSessionOptions, type SessionParts } from './session-parts';
import { sessionStats, type SessionStats } from './session-stats';
import type { TurnEvents } from './turn-events';
import type { TurnRecorder } from './turn-recorder';
import { contextToContinue, contextToContinuePartial } from '../llm/continue-partial';
import type { ToolCoordinator } from '../tools/tool-coordinator';
import { LiveToolCalls } from '../tools/live-tool-calls';

export type { AgentSessionOptions };

/**
 * Where an edit or a regenerate rewinds to: the runtime context before the replaced turn (the
 * host reads it from the history), and the seq of that turn, which the new turns branch from
 * (null: nothing is replaced, as when a failed reply is tried again).
 */
export interface Rewind {
  messages: ChatMessage[];
  branchFrom: number | null;
}

/** The session as a client shows it, but the other chats' activity (which the session pool adds). */
export type SessionState = Omit<SessionSnapshot, 'activity'>;

export class AgentSession {
  private readonly agent: AgentPort;
  private readonly listeners = new Set<SessionEventListener>();
  /** What the session's tool calls running now have streamed, for a window that comes late (snapshot). */
  private readonly liveTools = new LiveToolCalls();
  private readonly retry: RetryController;
  private readonly compactor: Compactor;
  private readonly recorder: TurnRecorder;
  private readonly pacing: PromptPacing;
  private readonly turnEvents: TurnEvents;
  private readonly promptWait: SessionParts['promptWait'];
  private readonly spendingCap: SessionParts['spendingCap'];
  /** The tools, their approvals and the gate that ends a turn on a tool failure; null without tools. */
  readonly tools: ToolCoordinator | null;
  private sessionIdValue: string;
  private shuttingDown = false;
  /** The run a person's command started (prompt, edit, regenerate, Continue), until all it started has ended. */
  private currentRun: Promise<void> | null = null;
  /**
   * A run of the person's has started and its agent has not (the pacing check, a restored approval's
   * denial): busy, though nothing streams yet. Two prompts in one read of the socket both arrive
   * before a first await, and the second must be refused, not reach the agent beside the first.
   */
  private isStarting = false;
  private unsubscribeAgent: () => void;
  private unsubscribeTools: () => void = () => undefined;
  /** Stops the run an approval answered after a restart started (its call runs outside the agent). */
  private answeredRun: AbortController | null = null;

  constructor(private readonly options: AgentSessionOptions) {
    this.agent = options.agent;
    this.sessionIdValue = options.sessionId;
    const parts = buildSessionParts(options, {
      emit: (event) => this.emit(event),
      sessionId: () => this.sessionIdValue,
      shuttingDown: () => this.shuttingDown,
    });
    this.recorder = parts.recorder;
    this.retry = parts.retry;
    this.compactor = parts.compactor;
    this.tools = parts.tools;
    this.pacing = parts.pacing;
    this.turnEvents = parts.turnEvents;
    this.promptWait = parts.promptWait;
    this.spendingCap = parts.spendingCap;
    if (this.tools) this.unsubscribeTools = this.tools.attach(this.agent);
    this.unsubscribeAgent = this.agent.subscribe((event) => this.onAgentEvent(event));
  }

  // ---- public API (docs/retry-policy.md, "The session API"); every mode calls only these ----

  get sessionId(): string {
    return this.sessionIdValue;
  }

  get title(): string {
    return this.recorder.title;
  }

  get autoRetryEnabled(): boolean {
    return this.options.settings.get().retry.enabled;
  }

  get autoCompactionEnabled(): boolean {
    return this.options.settings.get().compaction.enabled;
  }

  get isRetrying(): boolean {
    return this.retry.isRetrying;
  }

  get retryAttempt(): number {
    return this.retry.attempt;
  }

  get pendingRetry(): PendingRetry | null {
    return this.retry.pendingRetry;
  }

  /** A summary is being made (overflow or manual compaction); the retried turn after it is not compacting. */
  get isCompacting(): boolean {
    return this.compactor.isCompacting;
  }

  get isStreaming(): boolean {
    return this.agent.state.isStreaming;
  }

  /** Busy: streaming, retrying, compacting or holding a prompt for a rate limit; a new prompt must wait. */
  get isBusy(): boolean {
    return (
      this.isStarting || this.isStreaming || this.retry.isRetrying || this.compactor.isRunning || this.pacing.isWaiting
    );
  }

  /**
   * Busy, or a run the person started has not ended yet (it may be between steps: checking the
   * rate-limit pacing). A chat left in this state runs on in the background (session-pool.ts).
   */
  get isWorking(): boolean {
    return this.isBusy || this.currentRun !== null;
  }

  /** Tool calls waiting for the person's answer (docs/tools.md, "Approvals"). */
  get pendingApprovalCount(): number {
    return this.tools?.approvals.pending.length ?? 0;
  }

  /** The prompt held back for a rate limit now, or null. */
  get pacingWait(): PacingWait | null {
    return this.pacing.current;
  }

  /**
   * Resolves once the work under way has ended: the person's run, a chain (a scheduled one
   * included), a summary. The session may be busy again by then: callers check isBusy.
   */
  async settled(): Promise<void> {
    await this.currentRun?.catch(() => undefined);
    await this.waitForPendingWork();
  }

  /** The agent's runtime context: errored turns trimmed as the retry controller leaves them. */
  get messages(): ChatMessage[] {
    return this.agent.state.messages as ChatMessage[];
  }

  get model(): Model<Api> {
    return this.agent.state.model;
  }

  /** Point the agent at another model; the next request uses it. */
  setModel(model: Model<Api>): void {
    this.agent.state.model = model;
  }

  get thinkingLevel(): ThinkingLevel {
    return this.agent.state.thinkingLevel;
  }

  setThinkingLevel(level: ThinkingLevel): void {
    this.agent.state.thinkingLevel = level;
  }

  /** How the agent delivers queued steering and follow-up messages (pi's queue modes). */
  get queueModes(): { steeringMode: Agent['steeringMode']; followUpMode: Agent['followUpMode'] } {
    return { steeringMode: this.agent.steeringMode, followUpMode: this.agent.followUpMode };
  }

  stats(): SessionStats {
    return sessionStats(this.sessionIdValue, this.messages);
  }

  /** The text of the newest assistant message in the runtime context, or null. */
  lastAssistantText(): string | null {
    const last = this.messages.findLast((m) => m.role === 'assistant');
    return last ? messageText(last) : null;
  }

  subscribe(listener: SessionEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setAutoRetryEnabled(enabled: boolean): void {
    this.options.settings.update({ retry: { enabled } });
  }

  setAutoCompactionEnabled(enabled: boolean): void {
    this.options.settings.update({ compaction: { enabled } });
  }

  /**
   * Run one logical prompt: resolves only after agent.prompt() returned AND any retry chain or
   * compaction it started has ended (success, failure or cancel). `uploads`: the files as attached,
   * which a Stop during a rate-limit wait gives back (the blocks are what the model would read).
   */
  async prompt(
    text: string,
    attachments: readonly AttachmentBlock[] = [],
    uploads: readonly AttachmentUpload[] = [],
  ): Promise<void> {
    return this.running(this.denyingRestored(() => this.runPrompt(text, attachments, uploads)));
  }

  private async runPrompt(
    text: string,
    attachments: readonly AttachmentBlock[],
    uploads: readonly AttachmentUpload[],
  ): Promise<void> {
    // A failover held for the prompt it happened in: a new one goes to the model before it (docs/retry-policy.md).
    this.options.fallback?.newPrompt?.();
    // Rate-limit pacing: a known limit is waited out first (Stop sends nothing, "Send anyway" sends now).
    if (!(await this.pacing.beforePrompt(this.options.modelInfo(), text, uploads))) return;
    // MCP servers still starting hold nothing: their tools join the next prompt once up (docs/mcp.md).
    this.recorder.ensureSession(text || (attachments[0]?.file?.name ?? ''));
    this.compactor.resetForPrompt();
    this.tools?.startRun();
    await this.send(text, attachments);
    await this.waitForPendingWork();
  }

  /** A plain prompt as text (as before attachments); with attachments, as a whole user message. */
  private send(text: string, attachments: readonly AttachmentBlock[]): Promise<void> {
    return attachments.length ? this.agent.prompt(this.userMessage(text, attachments)) : this.agent.prompt(text);
  }

  /** The person's message with its attachments after their words (docs/attachments.md). */
  private userMessage(text: string, attachments: readonly AttachmentBlock[]): AgentMessage {
    const words: TextBlock[] = text.trim() ? [{ type: 'text', text }] : [];
    const message: UserChatMessage = {
      role: 'user',
      content: [...words, ...attachments],
      timestamp: this.options.clock?.now() ?? Date.now(),
    };
    return message as AgentMessage;
  }

  /**
   * Continue after a stopped or failed turn (docs/tools.md, "Continue"; docs/retry-policy.md,
   * "Nothing streamed is lost"): a reply cut off after some words goes back to the model, which
   * goes on from them (continue-partial.ts); one with no words leaves the runtime context (the
   * history keeps it) and the model is asked again. A new attempt by the person, not a retry: no
   * chain, no decision. `failedReply`: the session's last stored turn, when it is a failed reply.
   */
  continueTurn(failedReply?: ChatMessage): Promise<void> {
    // The checks throw at once (not as a rejection), so a caller can refuse the request.
    return this.running(this.denyingRestored(() => this.runContinue(failedReply)));
  }

  private runContinue(failedReply?: ChatMessage): Promise<void> {
    // After a restart the failed reply is in the history only (the context leaves errors out).
    const last = this.messages[this.messages.length - 1];
    const endsFailed = last?.role === 'assistant' && (last.stopReason === 'error' || last.stopReason === 'aborted');
    const messages = failedReply && !endsFailed ? [...this.messages, failedReply] : this.messages;
    // A reply that streamed words goes on from them; one that streamed none is asked for again.
    const now = this.options.clock?.now() ?? Date.now();
    const context = contextToContinuePartial(messages, now) ?? contextToContinue(messages);
    this.agent.state.messages = context as AgentMessage[];
    this.compactor.resetForPrompt();
    this.tools?.startRun();
    return this.agent.continue().then(() => this.waitForPendingWork());
  }

  private refuseIfBusy(): void {
    if (this.isBusy) throw new Error('A turn is already running; wait for it or press Stop.');
  }

  /** Start a run of the person's, refused while one runs; busy until `work` has ended (a sync throw refuses it). */
  private running(work: () => Promise<void>): Promise<void> {
    this.refuseIfBusy();
    this.isStarting = true;
    const run = work().finally(() => {
      this.isStarting = false;
      if (this.currentRun === run) this.currentRun = null;
    });
    this.currentRun = run;
    return run;
  }

  /** Answer a tool call's approval request; false when nothing with that id waits. */
  answerApproval(id: string, choice: ApprovalChoice): boolean {
    return this.tools?.approvals.answer(id, choice) ?? false;
  }

  /** Raise the cap and go on, or stop the turn (docs/tools.md, "The spending cap"); false when nothing with that id waits. */
  answerSpendingCap(id: string, choice: SpendingCapChoice): boolean {
    return this.spendingCap?.answer(id, choice) ?? false;
  }

  /** The run waits at the spending cap (its question), or null. */
  get spendingCapRequest(): SpendingCapRequest | null {
    return this.spendingCap?.pending ?? null;
  }

  /** This chat's own spending cap; null goes back to `agent.budget`'s. */
  setBudget(budget: ChatBudget | null): void {
    if (!this.spendingCap) throw new Error('This session keeps no spending cap.');
    this.spendingCap.setChatBudget(budget);
  }

  /**
   * Approvals asked before a restart in this conversation, waiting again (docs/tools.md,
   * "Approvals"): the one the run stopped at; its answer goes on with the run. Others are stale.
   */
  restoreApprovals(requests: readonly ApprovalRequest[]): void {
    const { tools } = this;
    if (!tools) return;
    for (const request of requests) {
      if (!stoppedAt(this.agent.state.messages, request)) tools.approvals.drop(request.id);
      else tools.approvals.restore(request, (choice) => this.goOnAfterApproval(tools, request, choice));
    }
  }

  /**
   * The spending cap's question asked before a restart in this conversation, waiting again
   * (docs/tools.md, "The spending cap"), when the run stopped before the request it held: Raise
   * sends the request, Stop ends the turn as a stop. A question that no longer fits is forgotten.
   */
  restoreSpendingCap(request: SpendingCapRequest | null): void {
    const cap = this.spendingCap;
    if (!cap || !request) return;
    const last = this.agent.state.messages.at(-1);
    if (request.sessionId !== this.sessionIdValue || (last?.role !== 'user' && last?.role !== 'toolResult'))
      return cap.drop(request.sessionId);
    cap.restore(request, () => this.goOnAfterSpendingCap());
  }

  /** The restored question is answered: the run goes on from where the question stopped it. */
  private goOnAfterSpendingCap(): void {
    try {
      void this.running(() => {
        this.compactor.resetForPrompt();
        this.tools?.startRun();
        return this.agent.continue().then(() => this.waitForPendingWork());
      }).catch((error: unknown) => this.reportInternal(error));
    } catch (error) {
      this.reportInternal(error);
    }
  }

  /**
   * A new run instead of an answer: each card restored after a restart counts as Deny (docs/tools.md,
   * "Approvals"), its call given the denial before `work`. With none, `work` itself, so its checks
   * still throw at once.
   */
  private denyingRestored(work: () => Promise<void>): () => Promise<void> {
    const { tools } = this;
    this.refuseIfBusy();
    this.spendingCap?.endRestored();
    const denied = tools?.approvals.denyRestored() ?? [];
    if (!tools || denied.length === 0) return work;
    return async () => {
      for (const request of denied)
        await runAnsweredCall(this.answeredParts(tools), request, 'deny', new AbortController().signal);
      await work();
    };
  }

  private answeredParts(tools: ToolCoordinator): AnsweredApprovalParts {
    return {
      agent: this.agent,
      tools,
      turnEvents: this.turnEvents,
      now: () => this.options.clock?.now() ?? Date.now(),
    };
  }

  private goOnAfterApproval(tools: ToolCoordinator, request: ApprovalRequest, choice: ApprovalChoice): void {
    const stop = new AbortController();
    const parts = this.answeredParts(tools);
    try {
      this.answeredRun = stop;
      void this.running(() =>
        goOnAfterApproval(parts, request, choice, stop.signal).then(() => this.waitForPendingWork()),
      )
        .catch((error: unknown) => this.reportInternal(error))
        .finally(() => {
          if (this.answeredRun === stop) this.answeredRun = null;
        });
    } catch (error) {
      this.reportInternal(error);
    }
  }

  private reportInternal(error: unknown): void {
    this.emit({
      type: 'notice',
      level: 'error',
      ...errorNotice('turn_internal_error', 'Internal error while handling a turn', noticeDetail(error)),
    });
  }

  /** Move this session's tools to another folder (validated by the caller) and record it. */
  setWorkspace(workspace: string): void {
    if (!this.tools) throw new Error('Tools are not available in this session.');
    if (this.isBusy) throw new Error('Cannot change the workspace while a turn is running; press Stop first.');
    this.tools.setWorkspace(workspace);
    this.recorder.workspaceChanged(workspace);
  }

  /** Edit and resend: rewind to before the edited message, then send the new text as a branch. */
  async rewindAndPrompt(rewind: Rewind, text: string, attachments: readonly AttachmentBlock[] = []): Promise<void> {
    return this.running(() => this.runRewindAndPrompt(rewind, text, attachments));
  }

  private async runRewindAndPrompt(
    rewind: Rewind,
    text: string,
    attachments: readonly AttachmentBlock[],
  ): Promise<void> {
    if (!(await this.rewind(rewind, text))) return;
    await this.send(text, attachments);
    await this.waitForPendingWork();
  }

  /** Regenerate (or try a failed reply again): rewind to the person's message and ask for a reply. */
  async rewindAndContinue(rewind: Rewind): Promise<void> {
    return this.running(() => this.runRewindAndContinue(rewind));
  }

  private async runRewindAndContinue(rewind: Rewind): Promise<void> {
    const last = rewind.messages[rewind.messages.length - 1];
    if (last?.role !== 'user') throw new Error('There is no message of yours to answer.');
    if (!(await this.rewind(rewind, messageText(last)))) return;
    await this.agent.continue();
    await this.waitForPendingWork();
  }

  /** Like a prompt, a rewound turn waits out a known rate limit first; false when Stop ended that wait. */
  private async rewind(rewind: Rewind, text: string): Promise<boolean> {
    if (!(await this.pacing.beforePrompt(this.options.modelInfo(), text))) return false;
    this.compactor.resetForPrompt();
    this.tools?.startRun();
    this.agent.state.messages = rewind.messages as AgentMessage[];
    this.recorder.branchNext(rewind.branchFrom);
    return true;
  }

  /** The person renamed this conversation. */
  setTitle(title: string): void {
    this.recorder.setTitle(title);
  }

  /** Wait until no retry chain, compaction or agent run is left. */
  async waitForPendingWork(): Promise<void> {
    // A chain can start a continued run that itself starts compaction (or the reverse): loop until quiet.
    for (let i = 0; i < 100; i += 1) {
      await this.retry.waitForRetry();
      await this.compactor.waitForIdle();
      await this.agent.waitForIdle();
      if (!this.retry.isRetrying && !this.compactor.isRunning && !this.agent.state.isStreaming) return;
    }
  }

  /** Global abort: cancel a retry first (docs/retry-policy.md, "Cancel and abort"), then the active stream. */
  async abort(): Promise<void> {
    this.answeredRun?.abort();
    this.pacing.cancel();
    this.abortRetry();
    this.compactor.abort();
    this.agent.abort();
    await this.agent.waitForIdle();
  }

  abortRetry(): boolean {
    return this.retry.abortRetry();
  }

  retryNow(): boolean {
    return this.retry.retryNow();
  }

  /** "Send anyway": end the rate-limit wait of a held prompt now. */
  sendAnyway(): boolean {
    return this.pacing.sendAnyway();
  }

  /** "Retry now" on the interrupted-turn card: continue the chain with its counter. */
  resumeInterruptedRetry(offer: InterruptedRetry): void {
    // Its run starts once the agent is idle (the RetryHost's run.continue), a withdrawn retried run settled.
    this.refuseIfBusy();
    this.tools?.startRun();
    this.retry.resumeChain(offer);
  }

  /**
   * A retry at a clock time (docs/retry-policy.md, "Scheduled retries"): "Retry at …" on a chain
   * that stopped for a long wait (`person`), or a schedule a quit or a crash cut (`restart`).
   */
  scheduleRetry(offer: ScheduledRetry, by: 'restart' | 'person'): void {
    this.refuseIfBusy();
    this.tools?.startRun();
    this.retry.resumeChain(offer, by);
  }

  /** "Discard" on the interrupted-turn card: a final record, so the chain is not offered again. */
  discardInterruptedRetry(offer: InterruptedRetry): void {
    this.recorder.decided(interruptedDecision(offer, 'discard'));
  }

  /**
   * The app is quitting: a chain that waits is closed as interrupted (offered again on the next
   * start) instead of cancelled; a request in flight is stopped and its chain closed the same way.
   */
  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    this.answeredRun?.abort();
    this.pacing.cancel();
    if (!this.isStreaming) this.retry.interrupt();
    this.compactor.abort();
    this.agent.abort();
    await this.agent.waitForIdle();
    this.retry.interrupt();
  }

  /** Manual compaction (RPC `compact`). */
  async compact(): Promise<{ summary: string; tokensBefore: number }> {
    if (this.isBusy) throw new Error('Cannot compact while a turn is running.');
    return this.compactor.compactNow();
  }

  /** Point this session at another conversation (new or resumed). */
  replaceConversation(next: {
    sessionId: string;
    title: string;
    messages: ChatMessage[];
    stored: boolean;
    workspace?: string;
  }): void {
    if (this.isBusy) throw new Error('Cannot switch sessions while a turn is running; press Stop first.');
    this.tools?.reset();
    this.spendingCap?.reset();
    if (next.workspace) this.tools?.setWorkspace(next.workspace);
    this.sessionIdValue = next.sessionId;
    this.recorder.useSession(next.sessionId, next.title, next.stored);
    this.agent.reset();
    this.agent.state.messages = next.messages as AgentMessage[];
  }

  /** The session as a client shows it; `stored` is what the history holds for it (empty before its first turn). */
  snapshot(stored: Pick<SessionSnapshot, 'turns' | 'chains' | 'decisions' | 'hasOlderTurns'>): SessionState {
    const state = this.agent.state;
    return {
      sessionId: this.sessionIdValue,
      title: this.recorder.title,
      turns: stored.turns,
      chains: stored.chains,
      decisions: stored.decisions,
      hasOlderTurns: stored.hasOlderTurns,
      isStreaming: this.isStreaming,
      streamingMessage: this.isStreaming ? ((state.streamingMessage as ChatMessage | undefined) ?? null) : null,
      isRetrying: this.retry.isRetrying,
      retryAttempt: this.retry.attempt,
      pendingRetry: this.retry.pendingRetry,
      model: this.options.modelInfo(),
      workspace: this.tools?.workspace ?? '',
      pendingApprovals: this.tools?.approvals.pending ?? [],
      interruptedRetry: this.retry.isRetrying ? null : findInterruptedRetry(stored, this.options.settings.get().retry),
      pacing: this.pacing.current,
      promptWait: this.isStreaming ? this.promptWait() : null,
      spendingCap: this.spendingCap?.pending ?? null,
      budget: this.spendingCap?.chatBudget ?? null,
      liveTools: this.liveTools.list(),
    };
  }

  dispose(): void {
    this.abortRetry();
    this.tools?.reset();
    this.unsubscribeTools();
    this.unsubscribeAgent();
    this.listeners.clear();
  }

  // ---- agent events ----

  private onAgentEvent(event: AgentEvent): void {
    if (event.type === 'agent_start') this.isStarting = false;
    this.turnEvents.handle(event);
  }

  private emit(event: SessionEvent): void {
    this.liveTools.observe(event);
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // A failing subscriber (an extension, a closed socket) must not break the session.
      }
    }
  }
}

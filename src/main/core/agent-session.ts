// AgentSession: one conversation with the agent, shared by every host (Electron, browser, RPC).
// It wraps pi-agent-core's Agent, persists every turn as it ends (errored turns included),
// classifies failures (a tool's too), hands retryable ones to the RetryController and overflows to
// the compaction path, and publishes everything as SessionEvents through subscribe(). Its parts —
// recorder, retry controller, compactor, tools, rate-limit pacing — come from session-parts.ts.
import type { Agent, AgentEvent, AgentMessage, ThinkingLevel } from '@mariozechner/pi-agent-core';
import type { Api, Model } from '@mariozechner/pi-ai';
import type {
  InterruptedRetry,
  PendingRetry,
  SessionEvent,
  SessionEventListener,
  SessionSnapshot,
} from '../../shared/events';
import { messageText, type AssistantChatMessage, type ChatMessage } from '../../shared/messages';
import type { Classification } from './classify-error';
import { classifyAssistantMessage } from './classify-message';
import { providerFactsOf } from './provider-facts';
import { resolveRow } from '../../shared/retry-policy/decision-table';
import type { ApprovalChoice } from '../../shared/tools';
import type { Compactor } from './compaction';
import type { AgentPort } from './ports';
import type { PromptPacing } from './rate-pacing';
import { findInterruptedRetry, interruptedDecision } from './resume-state';
import type { RetryController } from './retry-controller';
import type { RetryPrelaunch } from './retry-prelaunch';
import { buildSessionParts, type AgentSessionOptions } from './session-parts';
import { sessionStats, type SessionStats } from './session-stats';
import type { DecisionEntry, TurnRecorder } from './turn-recorder';
import { contextToContinue, isToolUse, recordInternalError, recordStop, type StopHost } from './turn-stops';
import type { ToolCoordinator } from './tools/tool-coordinator';
import { toolFaultOf } from './tools/tool-gate';

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

export class AgentSession {
  private readonly agent: AgentPort;
  private readonly listeners = new Set<SessionEventListener>();
  private readonly retry: RetryController;
  private readonly compactor: Compactor;
  private readonly recorder: TurnRecorder;
  private readonly stops: StopHost;
  private readonly pacing: PromptPacing;
  private readonly prelaunch: RetryPrelaunch | null;
  /** The tools, their approvals and the gate that ends a turn on a tool failure; null without tools. */
  readonly tools: ToolCoordinator | null;
  private sessionIdValue: string;
  private shuttingDown = false;
  private unsubscribeAgent: () => void;
  private unsubscribeTools: () => void = () => undefined;
  /** The session's clock (the options' clock, else Date.now). */
  private readonly now: () => number;
  /** When the newest assistant message ended (its message_end). */
  private lastEndedAt = 0;

  constructor(private readonly options: AgentSessionOptions) {
    this.agent = options.agent;
    this.sessionIdValue = options.sessionId;
    const parts = buildSessionParts(options, {
      emit: (event) => this.emit(event),
      sessionId: () => this.sessionIdValue,
      currentTurnId: () => this.currentTurnId(),
      recordDecision: (entry) => this.recordDecision(entry),
      agentEvent: (event) => this.handleAgentEvent(event),
    });
    this.recorder = parts.recorder;
    this.retry = parts.retry;
    this.stops = parts.stops;
    this.compactor = parts.compactor;
    this.tools = parts.tools;
    this.pacing = parts.pacing;
    this.prelaunch = parts.prelaunch;
    this.now = parts.now;
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

  /** A retried run built ahead of its deadline is not streaming yet (retry-prelaunch.ts). */
  get isStreaming(): boolean {
    return this.agent.state.isStreaming && !this.prelaunch?.active;
  }

  /** Busy: streaming, retrying, compacting or holding a prompt for a rate limit; a new prompt must wait. */
  get isBusy(): boolean {
    return this.agent.state.isStreaming || this.retry.isRetrying || this.compactor.isRunning || this.pacing.isWaiting;
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
    if (model !== this.agent.state.model) this.retry.rebuildRetry();
    this.agent.state.model = model;
  }

  get thinkingLevel(): ThinkingLevel {
    return this.agent.state.thinkingLevel;
  }

  setThinkingLevel(level: ThinkingLevel): void {
    if (level !== this.agent.state.thinkingLevel) this.retry.rebuildRetry();
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
   * compaction it started has ended (success, failure or cancel).
   */
  async prompt(text: string): Promise<void> {
    const settling = this.prelaunch?.settled(); // a retried run that a cancel withdrew just now
    if (settling) await settling;
    if (this.isBusy) throw new Error('A turn is already running; wait for it or press Stop.');
    // Rate-limit pacing: a known limit is waited out first (Stop sends nothing, "Send anyway" sends now).
    if (!(await this.pacing.beforePrompt(this.options.modelInfo(), text))) return;
    this.recorder.ensureSession(text);
    this.compactor.resetForPrompt();
    this.tools?.startRun();
    await this.agent.prompt(text);
    await this.waitForPendingWork();
  }

  /**
   * Continue after a stopped turn (docs/tools.md, "Continue"): the failed or stopped reply leaves
   * the runtime context (the history keeps it) and the model is asked again. A new attempt by the
   * person, not a retry: no chain, no decision.
   */
  continueTurn(): Promise<void> {
    // The checks throw at once (not as a rejection), so a caller can refuse the request.
    if (this.isBusy) throw new Error('A turn is already running; wait for it or press Stop.');
    this.agent.state.messages = contextToContinue(this.messages) as AgentMessage[];
    this.compactor.resetForPrompt();
    this.tools?.startRun();
    return this.agent.continue().then(() => this.waitForPendingWork());
  }

  /** Answer a tool call's approval request; false when nothing with that id waits. */
  answerApproval(id: string, choice: ApprovalChoice): boolean {
    return this.tools?.approvals.answer(id, choice) ?? false;
  }

  /** Move this session's tools to another folder (validated by the caller) and record it. */
  setWorkspace(workspace: string): void {
    if (!this.tools) throw new Error('Tools are not available in this session.');
    if (this.isBusy) throw new Error('Cannot change the workspace while a turn is running; press Stop first.');
    this.tools.setWorkspace(workspace);
    this.recorder.workspaceChanged(workspace);
  }

  /** Edit and resend: rewind to before the edited message, then send the new text as a branch. */
  async rewindAndPrompt(rewind: Rewind, text: string): Promise<void> {
    if (!(await this.rewind(rewind, text))) return;
    await this.agent.prompt(text);
    await this.waitForPendingWork();
  }

  /** Regenerate (or try a failed reply again): rewind to the person's message and ask for a reply. */
  async rewindAndContinue(rewind: Rewind): Promise<void> {
    const last = rewind.messages[rewind.messages.length - 1];
    if (last?.role !== 'user') throw new Error('There is no message of yours to answer.');
    if (!(await this.rewind(rewind, messageText(last)))) return;
    await this.agent.continue();
    await this.waitForPendingWork();
  }

  /** Like a prompt, a rewound turn waits out a known rate limit first; false when Stop ended that wait. */
  private async rewind(rewind: Rewind, text: string): Promise<boolean> {
    if (this.isBusy) throw new Error('A turn is already running; wait for it or press Stop.');
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
    if (this.isBusy) throw new Error('A turn is already running; wait for it or press Stop.');
    this.tools?.startRun();
    this.retry.resumeChain(offer);
  }

  /** "Discard" on the interrupted-turn card: a final record, so the chain is not offered again. */
  discardInterruptedRetry(offer: InterruptedRetry): void {
    this.recordDecision(interruptedDecision(offer, 'discard'));
  }

  /**
   * The app is quitting: a chain that waits is closed as interrupted (offered again on the next
   * start) instead of cancelled; a request in flight is stopped and its chain closed the same way.
   */
  async shutdown(): Promise<void> {
    this.shuttingDown = true;
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
    if (next.workspace) this.tools?.setWorkspace(next.workspace);
    this.sessionIdValue = next.sessionId;
    this.recorder.useSession(next.sessionId, next.title, next.stored);
    this.agent.reset();
    this.agent.state.messages = next.messages as AgentMessage[];
  }

  /** The session as a client shows it; `stored` is what the history holds for it (empty before its first turn). */
  snapshot(stored: Pick<SessionSnapshot, 'turns' | 'chains' | 'decisions' | 'hasOlderTurns'>): SessionSnapshot {
    const state = this.agent.state;
    return {
      sessionId: this.sessionIdValue,
      title: this.recorder.title,
      turns: stored.turns,
      chains: stored.chains,
      decisions: stored.decisions,
      hasOlderTurns: stored.hasOlderTurns,
      messages: this.messages,
      isStreaming: this.isStreaming,
      streamingMessage: (state.streamingMessage as ChatMessage | undefined) ?? null,
      isRetrying: this.retry.isRetrying,
      retryAttempt: this.retry.attempt,
      pendingRetry: this.retry.pendingRetry,
      model: this.options.modelInfo(),
      workspace: this.tools?.workspace ?? '',
      pendingApprovals: this.tools?.approvals.pending ?? [],
      interruptedRetry: this.retry.isRetrying ? null : findInterruptedRetry(stored, this.options.settings.get().retry),
      pacing: this.pacing.current,
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
    if (!this.prelaunch?.intercept(event)) this.handleAgentEvent(event);
  }

  private handleAgentEvent(event: AgentEvent): void {
    this.emit(event as SessionEvent);
    try {
      this.tools?.onAgentEvent(event);
      if (event.type === 'message_end') this.onMessageEnd(event.message as ChatMessage);
      // A reply that called tools has succeeded only once its calls ran without a tool fault.
      if (event.type === 'turn_end' && isToolUse(event.message as ChatMessage) && !this.tools?.gate.pending)
        this.retry.onAssistantMessageEnd(event.message as AssistantChatMessage);
      if (event.type === 'agent_end') this.onAgentEnd(event.messages as ChatMessage[]);
    } catch (error) {
      // A bug of ours must not take the session down: log it at ERROR (docs/retry-policy.md) and say so.
      const text = error instanceof Error ? error.message : String(error);
      recordInternalError(this.stops, text);
      this.emit({ type: 'notice', level: 'error', message: `Internal error while handling a turn: ${text}` });
    }
  }

  private onMessageEnd(message: ChatMessage): void {
    // Taken before the turn is stored: a retry's wait runs from when its error arrived.
    if (message.role === 'assistant') this.lastEndedAt = this.now();
    this.persist(message, message.role === 'assistant' ? this.classify(message) : undefined);
    if (message.role !== 'assistant') return;
    this.pacing.observe(message);
    // A reply that called tools is judged at turn_end, once its calls have run (onAgentEvent).
    if (!isToolUse(message)) this.retry.onAssistantMessageEnd(message);
  }

  private onAgentEnd(messages: ChatMessage[]): void {
    const last = messages.findLast((m): m is AssistantChatMessage => m.role === 'assistant');
    if (!last) return;
    const classification = this.classify(last);
    // A failure raised outside the stream gets agent_end without message_end: persist it here.
    // When the error reached us: the HTTP layer knows best; else when the message ended.
    const arrivedAt =
      providerFactsOf(last)?.errorAt ?? (this.recorder.isPersisted(last) ? this.lastEndedAt : this.now());
    if (!this.recorder.isPersisted(last)) this.persist(last, classification);
    if (last.stopReason !== 'error' && last.stopReason !== 'aborted') return;
    // Stopped by a quit in the middle of a retried request: the chain is interrupted, not cancelled.
    if (this.shuttingDown && last.stopReason === 'aborted' && this.retry.interrupt()) return;

    // The retry check runs first; if a retry started, the compaction check is skipped.
    if (this.isRetryable(last, classification)) {
      if (this.retry.handleRetryableError(last, classification, arrivedAt)) return;
      if (!this.autoRetryEnabled) recordStop(this.stops, last, classification, 'disabled');
      return;
    }
    const overflow = classification.category === 'context_overflow';
    recordStop(
      this.stops,
      last,
      classification,
      overflow ? 'compacted' : last.stopReason === 'aborted' ? 'cancelled' : 'not_retryable',
    );
    if (overflow) this.compactor.onOverflow(last, this.autoCompactionEnabled);
  }

  /** Retryable: an error with a message, not an overflow, whose category's row retries (docs/retry-policy.md). */
  private isRetryable(message: AssistantChatMessage, classification: Classification): boolean {
    if (message.stopReason !== 'error' || !message.errorMessage) return false;
    if (classification.category === 'context_overflow') return false;
    return resolveRow(classification.category, this.options.settings.get().retry).action === 'retry';
  }

  private classify(message: AssistantChatMessage): Classification {
    return classifyAssistantMessage(message, this.agent.state.model?.contextWindow, toolFaultOf(message)?.category);
  }

  // ---- persistence ----

  private persist(message: ChatMessage, classification: Classification | undefined): void {
    const errored =
      message.role === 'assistant' && (message.stopReason === 'error' || message.stopReason === 'aborted');
    const chainId = this.retry.isRetrying ? (this.retry.activeChainId ?? null) : null;
    // A tool result keeps the category of the failure that ended its turn, so history finds it.
    const toolFailure = message.role === 'toolResult' ? (this.tools?.failureOf(message.toolCallId) ?? null) : null;
    this.recorder.persist(message, errored ? (classification?.category ?? null) : toolFailure, chainId);
  }

  private recordDecision(entry: DecisionEntry): void {
    this.recorder.recordDecision(entry, this.currentTurnId());
  }

  /** The turn a decision is about: the newest persisted message still in the runtime context. */
  private currentTurnId(): string | null {
    const messages = this.agent.state.messages;
    for (let i = messages.length - 1; i >= 0; i -= 1) {
      const id = this.recorder.turnIdOf(messages[i] as object);
      if (id) return id;
    }
    return this.recorder.lastTurnId;
  }

  private emit(event: SessionEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // A failing subscriber (an extension, a closed socket) must not break the session.
      }
    }
  }
}

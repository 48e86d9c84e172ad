// AgentSession: one conversation with the agent, shared by every host (Electron, browser, RPC).
// It wraps pi-agent-core's Agent, persists every turn as it ends (errored turns included),
// classifies failures, hands retryable ones to the RetryController and overflows to the
// compaction path, and publishes everything as SessionEvents through subscribe().
import type { Agent, AgentEvent, AgentMessage, ThinkingLevel } from '@mariozechner/pi-agent-core';
import type { Api, Model } from '@mariozechner/pi-ai';
import type { PendingRetry, SessionEvent, SessionEventListener, SessionSnapshot, ModelInfo } from '../../shared/events';
import { messageText, type AssistantChatMessage, type ChatMessage } from '../../shared/messages';
import type { Classification } from './classify-error';
import { classifyAssistantMessage } from './classify-message';
import { providerFactsOf } from './provider-facts';
import { resolveRow } from '../../shared/retry-policy/decision-table';
import { Compactor } from './compaction';
import type { AgentPort, Clock, CredentialStore, DecisionLogSink, HistoryWriter, SettingsStore } from './ports';
import { RetryController, type RetryHost } from './retry-controller';
import { sessionStats, type SessionStats } from './session-stats';
import { TurnRecorder, type DecisionEntry } from './turn-recorder';
import { recordInternalError, recordStop, type StopHost } from './turn-stops';

export interface AgentSessionOptions {
  /** pi-agent-core's Agent, or the DeferredAgent that builds it on first use. */
  agent: AgentPort;
  history: HistoryWriter;
  decisionLog: DecisionLogSink;
  settings: SettingsStore;
  credentials: CredentialStore;
  /** The model the agent talks to now, for events, history and the decision log. */
  modelInfo: () => ModelInfo;
  sessionId: string;
  title?: string;
  clock?: Clock;
  newId?: () => string;
}

export class AgentSession {
  private readonly agent: AgentPort;
  private readonly listeners = new Set<SessionEventListener>();
  private readonly retry: RetryController;
  private readonly compactor: Compactor;
  private readonly recorder: TurnRecorder;
  private readonly stops: StopHost;
  private readonly clock: Clock;
  private readonly newId: () => string;
  private sessionIdValue: string;
  private unsubscribeAgent: () => void;
  /** When the newest assistant message ended (its message_end). */
  private lastEndedAt = 0;

  constructor(private readonly options: AgentSessionOptions) {
    this.agent = options.agent;
    this.sessionIdValue = options.sessionId;
    this.clock = options.clock ?? { now: () => Date.now() };
    this.newId = options.newId ?? (() => globalThis.crypto.randomUUID());
    this.recorder = new TurnRecorder({
      history: options.history,
      decisionLog: options.decisionLog,
      modelInfo: options.modelInfo,
      clock: this.clock,
      newId: this.newId,
      emit: (event) => this.emit(event),
    });
    this.recorder.useSession(options.sessionId, options.title ?? '', Boolean(options.title));
    this.retry = new RetryController(this.retryHost());
    this.stops = {
      retry: this.retry,
      recorder: this.recorder,
      retrySettings: () => this.options.settings.get().retry,
      newId: this.newId,
      recordDecision: (entry) => this.recordDecision(entry),
    };
    this.compactor = new Compactor({
      agent: this.agent,
      emit: (event) => this.emit(event),
      now: () => this.clock.now(),
    });
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

  /** Busy: streaming, retrying or compacting; a new prompt must wait. */
  get isBusy(): boolean {
    return this.agent.state.isStreaming || this.retry.isRetrying || this.compactor.isRunning;
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
   * compaction it started has ended (success, failure or cancel).
   */
  async prompt(text: string): Promise<void> {
    if (this.isBusy) throw new Error('A turn is already running; wait for it or press Stop.');
    this.recorder.ensureSession(text);
    this.compactor.resetForPrompt();
    await this.agent.prompt(text);
    await this.waitForPendingWork();
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

  /** Manual compaction (RPC `compact`). */
  async compact(): Promise<{ summary: string; tokensBefore: number }> {
    if (this.isBusy) throw new Error('Cannot compact while a turn is running.');
    return this.compactor.compactNow();
  }

  /** Point this session at another conversation (new or resumed). */
  replaceConversation(next: { sessionId: string; title: string; messages: ChatMessage[]; stored: boolean }): void {
    if (this.isBusy) throw new Error('Cannot switch sessions while a turn is running; press Stop first.');
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
      isStreaming: state.isStreaming,
      streamingMessage: (state.streamingMessage as ChatMessage | undefined) ?? null,
      isRetrying: this.retry.isRetrying,
      retryAttempt: this.retry.attempt,
      pendingRetry: this.retry.pendingRetry,
      model: this.options.modelInfo(),
    };
  }

  dispose(): void {
    this.abortRetry();
    this.unsubscribeAgent();
    this.listeners.clear();
  }

  // ---- agent events ----

  private onAgentEvent(event: AgentEvent): void {
    this.emit(event as SessionEvent);
    try {
      if (event.type === 'message_end') this.onMessageEnd(event.message as ChatMessage);
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
    if (message.role === 'assistant') this.lastEndedAt = this.clock.now();
    this.persist(message, message.role === 'assistant' ? this.classify(message) : undefined);
    if (message.role === 'assistant') this.retry.onAssistantMessageEnd(message);
  }

  private onAgentEnd(messages: ChatMessage[]): void {
    const last = messages.findLast((m): m is AssistantChatMessage => m.role === 'assistant');
    if (!last) return;
    const classification = this.classify(last);
    // A failure raised outside the stream gets agent_end without message_end: persist it here.
    // When the error reached us: the HTTP layer knows best; else when the message ended.
    const arrivedAt =
      providerFactsOf(last)?.errorAt ?? (this.recorder.isPersisted(last) ? this.lastEndedAt : this.clock.now());
    if (!this.recorder.isPersisted(last)) this.persist(last, classification);
    if (last.stopReason !== 'error' && last.stopReason !== 'aborted') return;

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
    return classifyAssistantMessage(message, this.agent.state.model?.contextWindow);
  }

  // ---- persistence ----

  private persist(message: ChatMessage, classification: Classification | undefined): void {
    const errored =
      message.role === 'assistant' && (message.stopReason === 'error' || message.stopReason === 'aborted');
    const chainId = this.retry.isRetrying ? (this.retry.activeChainId ?? null) : null;
    this.recorder.persist(message, errored ? (classification?.category ?? null) : null, chainId);
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

  private retryHost(): RetryHost {
    return {
      retrySettings: () => this.options.settings.get().retry,
      emit: (event) => this.emit(event),
      trimTrailingError: () => {
        const messages = this.agent.state.messages;
        const last = messages[messages.length - 1] as ChatMessage | undefined;
        if (last?.role === 'assistant' && last.stopReason === 'error')
          this.agent.state.messages = messages.slice(0, -1);
      },
      continueAgent: async () => {
        await this.agent.waitForIdle();
        await this.agent.continue();
      },
      markUsageLimitReached: (opts) => {
        const provider = this.options.modelInfo().provider;
        return this.options.credentials.markUsageLimitReached(provider, this.sessionIdValue, opts);
      },
      decisionContext: () => {
        const model = this.options.modelInfo();
        return {
          taskType: 'chat',
          modelId: model.id,
          provider: model.provider,
          sessionId: this.sessionIdValue,
          turnId: this.currentTurnId(),
        };
      },
      chainOpened: (chainId) => this.recorder.openChain(chainId),
      chainClosed: (chainId, end) => this.recorder.closeChain(chainId, end),
      decisionMade: (entry) => this.recordDecision(entry),
      newId: () => this.newId(),
      now: () => this.clock.now(),
      batch: (writes) => this.recorder.batch(writes),
    };
  }
}

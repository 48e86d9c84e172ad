// AgentSession: one conversation with the agent, shared by every host (Electron, browser, RPC).
// It wraps pi-agent-core's Agent, persists every turn as it ends (errored turns included),
// classifies failures, hands retryable ones to the RetryController and overflows to the
// compaction path, and publishes everything as SessionEvents through subscribe().
import type { Agent, AgentEvent, AgentMessage } from '@mariozechner/pi-agent-core';
import { isContextOverflow, type AssistantMessage } from '@mariozechner/pi-ai';
import type { ChainOutcome } from '../../shared/error-category';
import type { PendingRetry, SessionEvent, SessionEventListener, SessionSnapshot, ModelInfo } from '../../shared/events';
import type { AssistantChatMessage, ChatMessage } from '../../shared/messages';
import { messageText } from '../../shared/messages';
import { classifyError, type Classification } from './classify-error';
import { buildDecisionRecord, UNEXPECTED_EXCEPTION } from './decision-log';
import { resolveRow } from './decision-table';
import { Compactor } from './compaction';
import { providerFactsOf } from './provider-facts';
import type { Clock, CredentialStore, DecisionLogSink, HistoryWriter, SettingsStore } from './ports';
import { RetryController } from './retry-controller';

export interface AgentSessionOptions {
  agent: Agent;
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

const TITLE_LENGTH = 60;

export class AgentSession {
  readonly agent: Agent;
  private readonly listeners = new Set<SessionEventListener>();
  private readonly retry: RetryController;
  private readonly compactor: Compactor;
  private readonly persisted = new WeakMap<object, string>();
  private readonly clock: Clock;
  private readonly newId: () => string;
  private sessionIdValue: string;
  private titleValue: string;
  private sessionStored = false;
  private unsubscribeAgent: () => void;

  constructor(private readonly options: AgentSessionOptions) {
    this.agent = options.agent;
    this.sessionIdValue = options.sessionId;
    this.titleValue = options.title ?? '';
    this.sessionStored = Boolean(options.title);
    this.clock = options.clock ?? { now: () => Date.now() };
    this.newId = options.newId ?? (() => globalThis.crypto.randomUUID());
    this.retry = new RetryController(this.retryHost());
    this.compactor = new Compactor({
      agent: this.agent,
      emit: (event) => this.emit(event),
      now: () => this.clock.now(),
    });
    this.unsubscribeAgent = this.agent.subscribe((event) => this.onAgentEvent(event));
  }

  // ---- public API (SPEC §5 "Session API") ----

  get sessionId(): string {
    return this.sessionIdValue;
  }

  get title(): string {
    return this.titleValue;
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

  get isCompacting(): boolean {
    return this.compactor.isRunning;
  }

  get isStreaming(): boolean {
    return this.agent.state.isStreaming;
  }

  /** Busy: streaming, retrying or compacting; a new prompt must wait. */
  get isBusy(): boolean {
    return this.agent.state.isStreaming || this.retry.isRetrying || this.compactor.isRunning;
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
    this.ensureSessionStored(text);
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

  /** Global abort: cancel a retry first (policy A), then the active stream. */
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
    this.titleValue = next.title;
    this.sessionStored = next.stored;
    this.agent.reset();
    this.agent.state.messages = next.messages as AgentMessage[];
  }

  snapshot(turns: SessionSnapshot['turns']): SessionSnapshot {
    const state = this.agent.state;
    return {
      sessionId: this.sessionIdValue,
      title: this.titleValue,
      turns,
      messages: state.messages as ChatMessage[],
      isStreaming: state.isStreaming,
      streamingMessage: (state.streamingMessage as ChatMessage | undefined) ?? null,
      isRetrying: this.retry.isRetrying,
      retryAttempt: this.retry.attempt,
      pendingRetry: this.retry.pendingRetry,
      autoRetryEnabled: this.autoRetryEnabled,
      autoCompactionEnabled: this.autoCompactionEnabled,
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
      // A bug of ours must not take the session down: log it at ERROR (policy B §7.2) and say so.
      this.logUnexpected(error);
    }
  }

  private logUnexpected(error: unknown): void {
    const text = error instanceof Error ? error.message : String(error);
    this.recordDecision({
      decision: { action: 'abort', reason: `internal error: ${text}`, waitMs: 0, shouldRetry: false, maxAttempts: 0, category: 'unexpected', backoff: 'none' },
      classification: { category: 'unexpected', errorType: UNEXPECTED_EXCEPTION, source: 'fallback' },
      errorMessage: text,
      chainId: this.retry.activeChainId ?? null,
      finalDecision: 'abort',
      attempt: this.retry.attempt + 1,
    });
    this.retry.abandon(`Internal error: ${text}`);
    this.emit({ type: 'notice', level: 'error', message: `Internal error while handling a turn: ${text}` });
  }

  private onMessageEnd(message: ChatMessage): void {
    const classification = message.role === 'assistant' ? this.classify(message) : undefined;
    this.persist(message, classification);
    if (message.role === 'assistant') this.retry.onAssistantMessageEnd(message);
  }

  private onAgentEnd(messages: ChatMessage[]): void {
    const last = [...messages].reverse().find((m): m is AssistantChatMessage => m.role === 'assistant');
    if (!last) return;
    const classification = this.classify(last);
    // A failure raised outside the stream gets agent_end without message_end: persist it here.
    if (!this.persisted.has(last)) this.persist(last, classification);
    if (last.stopReason !== 'error' && last.stopReason !== 'aborted') return;

    // The retry check runs first; if a retry started, the compaction check is skipped (policy A).
    if (this.isRetryable(last, classification)) {
      if (this.retry.handleRetryableError(last, classification)) return;
      if (!this.autoRetryEnabled) this.recordStop(last, classification, 'disabled');
      return;
    }
    const overflow = classification.category === 'context_overflow';
    this.recordStop(last, classification, overflow ? 'compacted' : last.stopReason === 'aborted' ? 'cancelled' : 'not_retryable');
    if (overflow) this.compactor.onOverflow(last, this.autoCompactionEnabled);
  }

  /** Policy A's #isRetryableError, with the category's row deciding instead of the regex alone. */
  private isRetryable(message: AssistantChatMessage, classification: Classification): boolean {
    if (message.stopReason !== 'error' || !message.errorMessage) return false;
    if (classification.category === 'context_overflow') return false;
    return resolveRow(classification.category, this.options.settings.get().retry).action === 'retry';
  }

  /** An errored turn that will not be retried: log the decision and end any chain it was part of. */
  private recordStop(message: AssistantChatMessage, classification: Classification, outcome: ChainOutcome): void {
    const chainId = this.retry.activeChainId;
    if (chainId && this.retry.isRetrying) {
      this.logAbort(message, classification, chainId, outcome);
      this.retry.endChainWithoutRetry(message, outcome);
      return;
    }
    const standalone = this.newId();
    this.options.history.openChain({ id: standalone, sessionId: this.sessionIdValue, startedAt: this.clock.now() });
    this.linkLastTurn(message, standalone);
    this.logAbort(message, classification, standalone, outcome);
    this.options.history.closeChain(standalone, {
      outcome,
      attempts: 0,
      finalError: message.errorMessage ?? null,
      endedAt: this.clock.now(),
    });
  }

  private logAbort(message: AssistantChatMessage, classification: Classification, chainId: string, outcome: ChainOutcome): void {
    const reasons: Partial<Record<ChainOutcome, string>> = {
      disabled: 'auto-retry is turned off',
      cancelled: 'the request was aborted by the user',
      compacted: 'context overflow goes to the compaction path, never to retry',
    };
    const row = resolveRow(classification.category, this.options.settings.get().retry);
    this.recordDecision({
      decision: {
        action: outcome === 'compacted' ? 'compact' : 'abort',
        reason: reasons[outcome] ?? `${classification.category} is not retried`,
        waitMs: 0,
        shouldRetry: false,
        maxAttempts: row.maxAttempts,
        category: classification.category,
        backoff: 'none',
      },
      classification,
      errorMessage: message.errorMessage ?? '',
      chainId,
      finalDecision: outcome === 'compacted' ? null : 'abort',
      // Inside a running chain this is the failure after retryAttempt retries; alone it is the first try.
      attempt: this.retry.isRetrying ? this.retry.attempt + 1 : 1,
    });
  }

  private classify(message: AssistantChatMessage): Classification {
    const model = this.agent.state.model;
    const overflow = (() => {
      try {
        return isContextOverflow(message as AssistantMessage, model?.contextWindow);
      } catch {
        return false;
      }
    })();
    const facts = providerFactsOf(message);
    return classifyError({
      message: message.errorMessage,
      stopReason: message.stopReason,
      isContextOverflow: message.stopReason === 'error' && overflow,
      status: facts?.status,
      headers: facts?.headers,
      errorType: facts?.errorType,
    });
  }

  // ---- persistence ----

  private ensureSessionStored(firstText: string): void {
    if (this.sessionStored) return;
    const model = this.options.modelInfo();
    this.titleValue = firstText.replace(/\s+/g, ' ').trim().slice(0, TITLE_LENGTH) || 'New chat';
    this.options.history.ensureSession({
      id: this.sessionIdValue,
      title: this.titleValue,
      model: model.id,
      provider: model.provider,
      createdAt: this.clock.now(),
    });
    this.sessionStored = true;
  }

  private persist(message: ChatMessage, classification: Classification | undefined): void {
    if (this.persisted.has(message)) return;
    if (!this.sessionStored) this.ensureSessionStored(messageText(message));
    const errored = message.role === 'assistant' && (message.stopReason === 'error' || message.stopReason === 'aborted');
    const chainId = this.retry.isRetrying ? (this.retry.activeChainId ?? null) : null;
    try {
      const turn = this.options.history.appendTurn({
        sessionId: this.sessionIdValue,
        message,
        errorCategory: errored ? (classification?.category ?? null) : null,
        chainId,
      });
      this.persisted.set(message, turn.id);
      this.emit({ type: 'turn_persisted', turn });
      // Lists (sidebar, history view) refresh on this; the title exists from the first turn on.
      this.emit({ type: 'history_changed', sessionId: this.sessionIdValue });
    } catch (error) {
      this.emit({ type: 'notice', level: 'error', message: `Could not save a turn to history: ${String(error)}` });
    }
  }

  private linkLastTurn(message: ChatMessage, chainId: string): void {
    const turnId = this.persisted.get(message);
    if (turnId) this.options.history.linkTurnToChain(turnId, chainId);
  }

  private recordDecision(entry: Parameters<RetryHostDecision>[0]): void {
    const model = this.options.modelInfo();
    const record = buildDecisionRecord({
      id: this.newId(),
      now: this.clock.now(),
      decision: entry.decision,
      classification: entry.classification,
      errorMessage: entry.errorMessage,
      chainId: entry.chainId,
      finalDecision: entry.finalDecision,
      attempt: entry.attempt,
      context: {
        taskType: 'chat',
        modelId: model.id,
        provider: model.provider,
        sessionId: this.sessionIdValue,
        turnId: this.lastTurnId(),
      },
    });
    try {
      this.options.history.recordDecision(record);
    } catch (error) {
      this.emit({ type: 'notice', level: 'error', message: `Could not save a retry decision: ${String(error)}` });
    }
    this.options.decisionLog.write(record);
    this.emit({ type: 'retry_decision', decision: record });
  }

  private lastTurnId(): string | null {
    const messages = this.agent.state.messages;
    for (let i = messages.length - 1; i >= 0; i -= 1) {
      const id = this.persisted.get(messages[i] as object);
      if (id) return id;
    }
    return this.lastPersistedId;
  }

  private lastPersistedId: string | null = null;

  private emit(event: SessionEvent): void {
    if (event.type === 'turn_persisted') this.lastPersistedId = event.turn.id;
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // A failing subscriber (an extension, a closed socket) must not break the session.
      }
    }
  }

  private retryHost(): ConstructorParameters<typeof RetryController>[0] {
    return {
      retrySettings: () => this.options.settings.get().retry,
      emit: (event) => this.emit(event),
      trimTrailingError: () => {
        const messages = this.agent.state.messages;
        const last = messages[messages.length - 1] as ChatMessage | undefined;
        if (last?.role === 'assistant' && last.stopReason === 'error') this.agent.state.messages = messages.slice(0, -1);
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
        return { taskType: 'chat', modelId: model.id, provider: model.provider, sessionId: this.sessionIdValue, turnId: this.lastTurnId() };
      },
      chainOpened: (chainId) => {
        this.options.history.openChain({ id: chainId, sessionId: this.sessionIdValue, startedAt: this.clock.now() });
        if (this.lastPersistedId) this.options.history.linkTurnToChain(this.lastPersistedId, chainId);
      },
      chainClosed: (chainId, end) => {
        if (this.lastPersistedId) this.options.history.linkTurnToChain(this.lastPersistedId, chainId);
        this.options.history.closeChain(chainId, { ...end, endedAt: this.clock.now() });
      },
      decisionMade: (entry) => this.recordDecision(entry),
      newId: () => this.newId(),
      now: () => this.clock.now(),
    };
  }
}

type RetryHostDecision = ConstructorParameters<typeof RetryController>[0]['decisionMade'];

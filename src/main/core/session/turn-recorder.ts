// Writes what a session does into the history and the decision log: the session row on the
// first turn, every turn as it ends (errored ones included), retry chains and decisions, with
// the links between them. A failed write becomes a notice and never breaks the turn. Owned by
// AgentSession; it is the retry chain's records (ChainRecords), which the RetryController writes
// through the session's RetryHost.
import type { ChainOutcome } from '../../../shared/error-category';
import type { ModelInfo, SessionEvent } from '../../../shared/events';
import type { ChatMessage } from '../../../shared/messages';
import { messageText } from '../../../shared/messages';
import { titleFromText } from '../../../shared/history';
import { errorNotice } from '../../../shared/notices';
import { attemptCostUsd, type ModelPrice } from './attempt-cost';
import { buildDecisionRecord, type ChainRecords, type DecisionEntry } from '../retry';
import type { Clock, DecisionLogSink, HistoryWriter, NewTurn } from '../ports';

export type { DecisionEntry };

export interface TurnRecorderOptions {
  history: HistoryWriter;
  decisionLog: DecisionLogSink;
  modelInfo: () => ModelInfo;
  clock: Clock;
  newId: () => string;
  emit: (event: SessionEvent) => void;
  /** The session's workspace, recorded with its row. */
  workspace: () => string;
  /** The agent's runtime context: a decision is about its newest stored message. */
  runtimeContext: () => readonly object[];
  /** A model's list price; absent or null = unknown, and the attempt's cost is stored as unknown. */
  priceOf?: (provider: string, modelId: string) => ModelPrice | null;
}

export class TurnRecorder implements ChainRecords {
  private readonly persisted = new WeakMap<object, string>();
  private lastPersisted: string | null = null;
  private sessionId = '';
  private stored = false;
  private titleValue = '';
  /** The seq the next stored turn branches from (an edit or a regenerate), once. */
  private nextBranchFrom: number | null = null;

  constructor(private readonly options: TurnRecorderOptions) {}

  /** Switch to a conversation; `stored` says whether its session row exists already. */
  useSession(sessionId: string, title: string, stored: boolean): void {
    this.sessionId = sessionId;
    this.titleValue = title;
    this.stored = stored;
    this.lastPersisted = null;
    this.nextBranchFrom = null;
  }

  /** The next turn stored starts a branch that replaces the turns from `seq` on (docs/architecture.md, "Branches"). */
  branchNext(seq: number | null): void {
    this.nextBranchFrom = seq;
  }

  /** The person renamed the session. */
  setTitle(title: string): void {
    this.titleValue = title;
  }

  get title(): string {
    return this.titleValue;
  }

  /** Create the session row on the first turn, titled after its text. */
  ensureSession(firstText: string): void {
    if (this.stored) return;
    const model = this.options.modelInfo();
    this.titleValue = titleFromText(firstText) || 'New chat';
    this.options.history.ensureSession({
      id: this.sessionId,
      title: this.titleValue,
      model: model.id,
      provider: model.provider,
      createdAt: this.options.clock.now(),
      workspace: this.options.workspace(),
    });
    this.stored = true;
  }

  /** A stored session's row follows a change of workspace; an unstored one records it at its first turn. */
  workspaceChanged(workspace: string): void {
    if (this.stored) this.guard(() => this.options.history.setSessionWorkspace(this.sessionId, workspace));
  }

  isPersisted(message: object): boolean {
    return this.persisted.has(message);
  }

  turnIdOf(message: object): string | undefined {
    return this.persisted.get(message);
  }

  /** The newest turn written in this session. */
  get lastTurnId(): string | null {
    return this.lastPersisted;
  }

  persist(
    message: ChatMessage,
    errorCategory: DecisionEntry['classification']['category'] | null,
    chainId: string | null,
    fileChanges: NewTurn['fileChanges'] = null,
  ): void {
    if (this.persisted.has(message)) return;
    try {
      if (!this.stored) this.ensureSession(messageText(message));
      const costUsd =
        message.role === 'assistant'
          ? attemptCostUsd(message.usage, this.options.priceOf?.(message.provider, message.model) ?? null)
          : null;
      const branchFrom = this.nextBranchFrom;
      const turn = this.options.history.appendTurn({
        sessionId: this.sessionId,
        message,
        errorCategory,
        chainId,
        costUsd,
        ...(branchFrom === null ? {} : { branchFrom }),
        ...(fileChanges ? { fileChanges } : {}),
      });
      this.nextBranchFrom = null;
      this.persisted.set(message, turn.id);
      this.lastPersisted = turn.id;
      // The composition root follows this with history_changed, carrying the session's new row.
      this.options.emit({ type: 'turn_persisted', turn });
    } catch (error) {
      this.options.emit({
        type: 'notice',
        level: 'error',
        ...errorNotice('turn_save_failed', 'Could not save a turn to history', error),
      });
    }
  }

  newChainId(): string {
    return this.options.newId();
  }

  opened(chainId: string): void {
    this.guard(() => {
      this.options.history.openChain({ id: chainId, sessionId: this.sessionId, startedAt: this.options.clock.now() });
      if (this.lastPersisted) this.options.history.linkTurnToChain(this.lastPersisted, chainId);
    });
  }

  /** An interrupted chain is continued: pending again. */
  reopened(chainId: string): void {
    this.guard(() => this.options.history.reopenChain(chainId));
  }

  /** A scheduled retry's time (null: it went, or the chain ended), kept so a restart can run it. */
  scheduled(chainId: string, at: number | null): void {
    this.guard(() => this.options.history.scheduleChain(chainId, at));
  }

  /** Close a chain, linking the newest turn (the answer that recovered it, or the last failure). */
  closed(chainId: string, end: { outcome: ChainOutcome; attempts: number; finalError: string | null }): void {
    this.guard(() => {
      if (this.lastPersisted) this.options.history.linkTurnToChain(this.lastPersisted, chainId);
      this.options.history.closeChain(chainId, { ...end, endedAt: this.options.clock.now() });
    });
    this.options.emit({ type: 'retry_chain_closed', sessionId: this.sessionId, chainId, ...end });
  }

  /** The writes of one event in one transaction; a failure becomes a notice, like any other write. */
  batch(writes: () => void): void {
    this.guard(() => this.options.history.batch(writes));
  }

  /** A decision, about the turn in question now (currentTurnId). */
  decided(entry: DecisionEntry): void {
    const turnId = this.currentTurnId();
    const model = this.options.modelInfo();
    // After a switch of model the record is about the model that hit the limit, and names the new one.
    const switched = entry.switchedModel;
    const context = {
      taskType: 'chat',
      modelId: switched?.from.model ?? model.id,
      provider: switched?.from.provider ?? model.provider,
      sessionId: this.sessionId,
      turnId,
      ...(switched ? { switchedTo: { provider: switched.to.provider, modelId: switched.to.model } } : {}),
    };
    const record = buildDecisionRecord({
      id: this.options.newId(),
      now: this.options.clock.now(),
      decision: entry.decision,
      classification: entry.classification,
      errorMessage: entry.errorMessage,
      chainId: entry.chainId,
      finalDecision: entry.finalDecision,
      attempt: entry.attempt,
      context,
    });
    this.guard(() => this.options.history.recordDecision(record));
    this.options.decisionLog.write(record);
    this.options.emit({ type: 'retry_decision', decision: record });
  }

  /** The turn a decision is about: the newest stored message still in the runtime context. */
  currentTurnId(): string | null {
    const messages = this.options.runtimeContext();
    for (let i = messages.length - 1; i >= 0; i -= 1) {
      const id = this.persisted.get(messages[i]);
      if (id) return id;
    }
    return this.lastPersisted;
  }

  private guard(write: () => void): void {
    try {
      write();
    } catch (error) {
      this.options.emit({
        type: 'notice',
        level: 'error',
        ...errorNotice('retry_history_save_failed', 'Could not save retry history', error),
      });
    }
  }
}

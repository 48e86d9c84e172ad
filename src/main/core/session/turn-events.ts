// What an AgentSession does with each event of its agent's runs: publish it, let the tools see it,
// store every message as it ends (errored turns too, with their category), and at a run's end hand
// a failure to the retry controller as one typed value — a provider's failure or the tool fault that
// ended the batch — judged once (docs/retry-policy.md, "The retry lifecycle"); the controller
// retries or stops it, and an overflow comes back here for the compaction path. A reply's thinking
// is timed first (thinking-time.ts). Built by buildSessionParts; AgentSession passes it every agent event.
import type { AgentEvent } from '@mariozechner/pi-agent-core';
import type { SessionEvent } from '../../../shared/events';
import type { AssistantChatMessage, ChatMessage, ToolResultChatMessage } from '../../../shared/messages';
import type { ToolApproval } from '../../../shared/tools';
import { errorNotice, noticeDetail } from '../../../shared/notices';
import {
  type Classification,
  classifyFailure,
  type Failure,
  providerFactsOf,
  type PromptPacing,
  type RetryController,
  isToolUse,
} from '../retry';
import type { Compactor } from './compaction';
import type { AgentPort, SettingsStore } from '../ports';
import type { TurnRecorder } from './turn-recorder';
import type { ToolCoordinator } from '../tools/tool-coordinator';
import { ThinkingClock } from './thinking-time';
import { providerFailure } from '../llm/failed-message';

export interface TurnEventParts {
  agent: AgentPort;
  settings: SettingsStore;
  recorder: TurnRecorder;
  retry: RetryController;
  compactor: Compactor;
  tools: ToolCoordinator | null;
  /** The spending cap: a quit may hold its question as it holds an approval. */
  spendingCap?: { readonly holdsForRestart: boolean } | null;
  pacing: PromptPacing;
  emit: (event: SessionEvent) => void;
  now: () => number;
  /** The app is quitting: a retried request it stopped closes its chain as interrupted. */
  shuttingDown: () => boolean;
}

/** A failed message with its Failure and the one classification of it. */
interface Judged {
  message: AssistantChatMessage;
  failure: Failure;
  classification: Classification;
}

const isFailed = (message: ChatMessage): message is AssistantChatMessage =>
  message.role === 'assistant' && (message.stopReason === 'error' || message.stopReason === 'aborted');

export class TurnEvents {
  /** When the newest assistant message ended (its message_end). */
  private lastEndedAt = 0;
  /** The newest failed message, judged when it ended; its run's end takes the same verdict. */
  private judged: Judged | null = null;
  private readonly thinking: ThinkingClock;

  constructor(private readonly parts: TurnEventParts) {
    this.thinking = new ThinkingClock(parts.now);
  }

  handle(event: AgentEvent): void {
    const { emit, tools, retry } = this.parts;
    // Before it is published: the event's message then says how long its thinking took.
    this.thinking.observe(event);
    emit((tools?.describe(event) ?? event) as SessionEvent);
    try {
      tools?.onAgentEvent(event);
      if (event.type === 'message_end') this.onMessageEnd(event.message as ChatMessage);
      // A reply that called tools has succeeded only once its calls ran without a tool fault.
      if (event.type === 'turn_end' && isToolUse(event.message as ChatMessage) && !tools?.gate.pending)
        retry.onToolsRan(event.message as AssistantChatMessage);
      if (event.type === 'agent_end') this.onAgentEnd(event.messages as ChatMessage[]);
    } catch (error) {
      // A bug of ours must not take the session down: log it at ERROR (docs/retry-policy.md) and say so.
      const text = noticeDetail(error);
      retry.onInternalError(text);
      emit({
        type: 'notice',
        level: 'error',
        ...errorNotice('turn_internal_error', 'Internal error while handling a turn', text),
      });
    }
  }

  private onMessageEnd(message: ChatMessage): void {
    // Taken before the turn is stored: a retry's wait runs from when its error arrived.
    if (message.role === 'assistant') this.lastEndedAt = this.parts.now();
    this.persist(message);
    if (message.role !== 'assistant') return;
    this.parts.pacing.observe(message, isFailed(message) ? this.judge(message).classification.category : null);
    this.parts.retry.onAssistantMessageEnd(message);
  }

  private onAgentEnd(messages: ChatMessage[]): void {
    const { recorder, retry } = this.parts;
    const last = messages.findLast((m): m is AssistantChatMessage => m.role === 'assistant');
    if (!last) return;
    // When the error reached us: the HTTP layer knows best; else when the message ended.
    const arrivedAt =
      providerFactsOf(last)?.errorAt ?? (recorder.isPersisted(last) ? this.lastEndedAt : this.parts.now());
    // A failure raised outside the stream gets agent_end without message_end: persist it here.
    this.persist(last);
    if (!isFailed(last)) return;
    // Stopped by a quit in the middle of a retried request: the chain is interrupted, not cancelled.
    if (this.parts.shuttingDown() && last.stopReason === 'aborted' && retry.interrupt()) return;
    const { failure, classification } = this.judge(last);
    const verdict = retry.onRunEnd({
      message: last,
      failure,
      classification,
      arrivedAt,
      canCompact: () => this.hasOlderConversation(messages),
    });
    if (verdict === 'compact') this.parts.compactor.onOverflow(last, this.parts.settings.get().compaction.enabled);
  }

  /** Whether the run's context holds anything before its last prompt (what compaction would summarise). */
  private hasOlderConversation(messages: ChatMessage[]): boolean {
    const context = this.parts.agent.state.messages.length > 0 ? this.parts.agent.state.messages : messages;
    return context.findLastIndex((m) => m.role === 'user') > 0;
  }

  /**
   * The failed message's Failure — the tool fault that ended the batch, or the provider's failure —
   * classified once, when the message ended (its stored turn keeps the category); the run's end
   * takes the same verdict.
   */
  private judge(message: AssistantChatMessage): Judged {
    if (this.judged?.message === message) return this.judged;
    const fault = this.parts.tools?.gate.takeEndedRun();
    const failure: Failure = fault
      ? { kind: 'tool', fault }
      : providerFailure(message, this.parts.agent.state.model?.contextWindow);
    this.judged = { message, failure, classification: classifyFailure(failure) };
    return this.judged;
  }

  private persist(message: ChatMessage): void {
    const { retry, tools, recorder } = this.parts;
    if (recorder.isPersisted(message)) return;
    // A quit held an approval or the cap's question: the run after it is not kept, so the restart
    // asks it again (docs/tools.md).
    const held = tools?.holdsForRestart || this.parts.spendingCap?.holdsForRestart;
    if (held && this.parts.shuttingDown()) return;
    const category = isFailed(message) ? this.judge(message).classification.category : null;
    const chainId = retry.isRetrying ? (retry.activeChainId ?? null) : null;
    // A tool result keeps the category of the failure that ended its turn, so history finds it.
    const toolFailure = message.role === 'toolResult' ? (tools?.failureOf(message.toolCallId) ?? null) : null;
    // Its file changes go in the same transaction as the result (docs/file-history.md).
    const files = message.role === 'toolResult' ? (tools?.takeFileChanges(message.toolCallId) ?? null) : null;
    if (message.role === 'toolResult') withApproval(message, tools?.approvalOf(message.toolCallId));
    recorder.persist(message, category ?? toolFailure, chainId, files);
    if (message.role === 'toolResult' && recorder.isPersisted(message)) tools?.resultStored(message.toolCallId);
  }
}

/**
 * A call that asked first keeps the answer and its wait on its stored result (the away summary
 * reads them: docs/tools.md, "Approvals"). Details never reach the model, so the agent's own
 * message may carry them: a denied call's result is made by pi-agent-core, not by the tool.
 */
function withApproval(message: ToolResultChatMessage, approval: ToolApproval | undefined): void {
  if (!approval) return;
  const details = typeof message.details === 'object' && message.details !== null ? message.details : {};
  message.details = { ...details, approval };
}

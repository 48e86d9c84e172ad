// What an AgentSession does with each event of its agent's runs: publish it, let the tools see it,
// store every message as it ends (errored turns too), and at a run's end classify a failure and
// hand it to the retry controller, the stop records or the compaction path (docs/retry-policy.md);
// a reply's thinking is timed first (thinking-time.ts).
// Built by buildSessionParts; AgentSession passes it every agent event.
import type { AgentEvent } from '@mariozechner/pi-agent-core';
import type { SessionEvent } from '../../../shared/events';
import type { AssistantChatMessage, ChatMessage } from '../../../shared/messages';
import { errorNotice, noticeDetail } from '../../../shared/notices';
import { resolveRow } from '../../../shared/retry-policy/decision-table';
import {
  type Classification,
  classifyAssistantMessage,
  providerFactsOf,
  type PromptPacing,
  type RetryController,
  isToolUse,
  recordInternalError,
  recordStop,
  type StopHost,
} from '../retry';
import type { Compactor } from './compaction';
import type { AgentPort, SettingsStore } from '../ports';
import type { TurnRecorder } from './turn-recorder';
import type { ToolCoordinator } from '../tools/tool-coordinator';
import { ThinkingClock } from './thinking-time';
import { toolFaultOf } from '../tools/tool-gate';

export interface TurnEventParts {
  agent: AgentPort;
  settings: SettingsStore;
  recorder: TurnRecorder;
  retry: RetryController;
  stops: StopHost;
  compactor: Compactor;
  tools: ToolCoordinator | null;
  pacing: PromptPacing;
  emit: (event: SessionEvent) => void;
  now: () => number;
  /** The app is quitting: a retried request it stopped closes its chain as interrupted. */
  shuttingDown: () => boolean;
}

export class TurnEvents {
  /** When the newest assistant message ended (its message_end). */
  private lastEndedAt = 0;
  /** The open chain retries a tool fault (invalid_output…): its retried reply is judged once its calls ran. */
  private isToolFaultChain = false;
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
        retry.onAssistantMessageEnd(event.message as AssistantChatMessage);
      if (event.type === 'agent_end') this.onAgentEnd(event.messages as ChatMessage[]);
    } catch (error) {
      // A bug of ours must not take the session down: log it at ERROR (docs/retry-policy.md) and say so.
      const text = noticeDetail(error);
      recordInternalError(this.parts.stops, text);
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
    this.persist(message, message.role === 'assistant' ? this.classify(message) : undefined);
    if (message.role !== 'assistant') return;
    this.parts.pacing.observe(message);
    // A provider failure is recovered once the retried attempt streams a reply, tool calls
    // included: an approval it waits for is no longer that retry. A chain retrying a tool fault
    // judges a reply that called tools at turn_end, once its calls have run (handle).
    if (!isToolUse(message) || !this.isToolFaultChain) this.parts.retry.onAssistantMessageEnd(message);
  }

  private onAgentEnd(messages: ChatMessage[]): void {
    const { recorder, retry, stops } = this.parts;
    const last = messages.findLast((m): m is AssistantChatMessage => m.role === 'assistant');
    if (!last) return;
    const classification = this.classify(last);
    // A failure raised outside the stream gets agent_end without message_end: persist it here.
    // When the error reached us: the HTTP layer knows best; else when the message ended.
    const arrivedAt =
      providerFactsOf(last)?.errorAt ?? (recorder.isPersisted(last) ? this.lastEndedAt : this.parts.now());
    if (!recorder.isPersisted(last)) this.persist(last, classification);
    if (last.stopReason !== 'error' && last.stopReason !== 'aborted') return;
    // Stopped by a quit in the middle of a retried request: the chain is interrupted, not cancelled.
    if (this.parts.shuttingDown() && last.stopReason === 'aborted' && retry.interrupt()) return;

    // The retry check runs first; if a retry started, the compaction check is skipped.
    if (this.isRetryable(last, classification)) {
      if (!retry.isRetrying) this.isToolFaultChain = false;
      this.isToolFaultChain ||= toolFaultOf(last) !== undefined;
      if (retry.handleRetryableError(last, classification, arrivedAt)) return;
      if (!this.parts.settings.get().retry.enabled) recordStop(stops, last, classification, 'disabled');
      return;
    }
    // An overflow with nothing older to summarise (a first message too long for the model) cannot
    // be compacted: it stops here, so the card says so and the person's text goes back.
    const overflow = classification.category === 'context_overflow' && this.hasOlderConversation(messages);
    recordStop(
      stops,
      last,
      classification,
      overflow ? 'compacted' : last.stopReason === 'aborted' ? 'cancelled' : 'not_retryable',
    );
    if (overflow) this.parts.compactor.onOverflow(last, this.parts.settings.get().compaction.enabled);
  }

  /** Whether the run's context holds anything before its last prompt (what compaction would summarise). */
  private hasOlderConversation(messages: ChatMessage[]): boolean {
    const context = this.parts.agent.state.messages.length > 0 ? this.parts.agent.state.messages : messages;
    return context.findLastIndex((m) => m.role === 'user') > 0;
  }

  /** Retryable: an error with a message, not an overflow, whose category's row retries (docs/retry-policy.md). */
  private isRetryable(message: AssistantChatMessage, classification: Classification): boolean {
    if (message.stopReason !== 'error' || !message.errorMessage) return false;
    if (classification.category === 'context_overflow') return false;
    return resolveRow(classification.category, this.parts.settings.get().retry).action === 'retry';
  }

  private classify(message: AssistantChatMessage): Classification {
    const contextWindow = this.parts.agent.state.model?.contextWindow;
    return classifyAssistantMessage(message, contextWindow, toolFaultOf(message)?.category);
  }

  private persist(message: ChatMessage, classification: Classification | undefined): void {
    const { retry, tools } = this.parts;
    const errored =
      message.role === 'assistant' && (message.stopReason === 'error' || message.stopReason === 'aborted');
    const chainId = retry.isRetrying ? (retry.activeChainId ?? null) : null;
    // A tool result keeps the category of the failure that ended its turn, so history finds it.
    const toolFailure = message.role === 'toolResult' ? (tools?.failureOf(message.toolCallId) ?? null) : null;
    this.parts.recorder.persist(message, errored ? (classification?.category ?? null) : toolFailure, chainId);
  }
}

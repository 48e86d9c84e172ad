// The compaction path (docs/retry-policy.md, "Context overflow: the compaction path"): a context
// overflow is never retried by the retry controller; instead the older part of the conversation is
// summarised by the model, the overflowing turn is dropped from the runtime context (history keeps
// it) and the turn is tried once more. A second overflow in the same prompt ends with a clear
// error. Owned by AgentSession.
import type { AgentMessage } from '@mariozechner/pi-agent-core';
import type { AgentPort } from '../ports';
import type { CompactionEvent, SessionEvent } from '../../../shared/events';
import type { ChatMessage } from '../../../shared/messages';
import { messageText } from '../../../shared/messages';
import { codedNotice, errorNotice } from '../../../shared/notices';
import { errorText } from '../../../shared/text';

export interface CompactorOptions {
  agent: AgentPort;
  emit: (event: SessionEvent) => void;
  now: () => number;
}

const SUMMARY_PROMPT =
  'Summarise the conversation below for your own later use: keep facts, decisions, names and open questions; be brief.';
const SUMMARY_PREFIX = '[Summary of the earlier conversation]';

export class Compactor {
  private running: Promise<void> | undefined;
  /** Summarising: from the overflow (or the manual request) to auto_compaction_end; not the retried run. */
  private isSummarising = false;
  private retriedThisPrompt = false;
  private controller: AbortController | undefined;

  constructor(private readonly options: CompactorOptions) {}

  /** Busy with a compaction, including the turn it retries afterwards. */
  get isRunning(): boolean {
    return this.running !== undefined;
  }

  /** Compacting now: the summary is being made (the retried turn that follows is a normal run). */
  get isCompacting(): boolean {
    return this.isSummarising;
  }

  waitForIdle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  /** A new prompt may compact (and retry) once again. */
  resetForPrompt(): void {
    this.retriedThisPrompt = false;
  }

  abort(): void {
    this.controller?.abort();
  }

  /** Called on agent_end when the last assistant message is a context overflow. */
  onOverflow(_message: ChatMessage, enabled: boolean): void {
    if (!enabled) return;
    // Checked before `running`: the second overflow arrives from inside our own continue().
    if (this.retriedThisPrompt) {
      const message =
        'The conversation is still too long for the model after compaction. Start a new chat or shorten the message.';
      this.options.emit({ type: 'notice', level: 'error', ...codedNotice('compaction_still_too_long', {}, message) });
      return;
    }
    if (this.running) return;
    this.retriedThisPrompt = true;
    this.isSummarising = true;
    // One controller for the whole run, so a Stop counts from the overflow on, not only while
    // the summary request is out.
    const controller = new AbortController();
    this.controller = controller;
    this.running = this.compactAndRetry(controller.signal).finally(() => {
      this.isSummarising = false;
      this.running = undefined;
      this.controller = undefined;
    });
  }

  /** Manual compaction: summarise everything but the last exchange, no retry. */
  async compactNow(): Promise<{ summary: string; tokensBefore: number }> {
    if (this.running) throw new Error('A compaction is already running.');
    let release: () => void = () => undefined;
    this.running = new Promise<void>((resolve) => (release = resolve));
    this.isSummarising = true;
    const controller = new AbortController();
    this.controller = controller;
    try {
      return await this.compactManually(controller.signal);
    } finally {
      this.isSummarising = false;
      this.running = undefined;
      this.controller = undefined;
      release();
    }
  }

  private async compactManually(signal: AbortSignal): Promise<{ summary: string; tokensBefore: number }> {
    this.emitCompaction({ type: 'auto_compaction_start', reason: 'manual' });
    const result = await this.summariseOlder(false, signal);
    if ('error' in result) {
      this.emitCompaction({
        type: 'auto_compaction_end',
        aborted: result.aborted,
        willRetry: false,
        errorMessage: result.error,
      });
      throw new Error(result.error);
    }
    this.emitCompaction({ type: 'auto_compaction_end', result, aborted: false, willRetry: false });
    return result;
  }

  private async compactAndRetry(signal: AbortSignal): Promise<void> {
    // Let the overflowing run settle before touching the agent's state.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await this.options.agent.waitForIdle();
    this.emitCompaction({ type: 'auto_compaction_start', reason: 'overflow' });
    const result = await this.summariseOlder(true, signal);
    if ('error' in result) {
      this.emitCompaction({
        type: 'auto_compaction_end',
        aborted: result.aborted,
        willRetry: false,
        errorMessage: result.error,
      });
      return;
    }
    this.isSummarising = false;
    const willRetry = !signal.aborted;
    this.emitCompaction({ type: 'auto_compaction_end', result, aborted: !willRetry, willRetry });
    if (!willRetry) return;
    try {
      await this.options.agent.continue();
    } catch (error) {
      this.options.emit({
        type: 'notice',
        level: 'error',
        ...errorNotice('compaction_retry_failed', 'Could not retry after compaction', error),
      });
    }
  }

  private async summariseOlder(
    dropTrailingError: boolean,
    signal: AbortSignal,
  ): Promise<{ summary: string; tokensBefore: number } | { error: string; aborted: boolean }> {
    const agent = this.options.agent;
    let messages = agent.state.messages as ChatMessage[];
    if (dropTrailingError) {
      const last = messages[messages.length - 1];
      if (last?.role === 'assistant' && last.stopReason === 'error') messages = messages.slice(0, -1);
    }
    const lastUser = messages.findLastIndex((m) => m.role === 'user');
    const older = lastUser > 0 ? messages.slice(0, lastUser) : [];
    const keep = lastUser >= 0 ? messages.slice(lastUser) : messages;
    if (older.length === 0) {
      agent.state.messages = messages as AgentMessage[];
      return { error: 'Context overflow: there is no older conversation to summarise.', aborted: false };
    }
    const transcript = older.map((m) => `${m.role}: ${messageText(m)}`).join('\n\n');
    const tokensBefore = Math.ceil(messages.reduce((n, m) => n + messageText(m).length, 0) / 4);
    try {
      const summary = await this.summarise(transcript, signal);
      const summaryMessage: ChatMessage = {
        role: 'user',
        content: `${SUMMARY_PREFIX}\n${summary}`,
        timestamp: this.options.now(),
      };
      agent.state.messages = [summaryMessage, ...keep] as AgentMessage[];
      return { summary, tokensBefore };
    } catch (error) {
      agent.state.messages = messages as AgentMessage[];
      return {
        error: `Compaction failed: ${errorText(error)}`,
        aborted: signal.aborted,
      };
    }
  }

  private async summarise(transcript: string, signal: AbortSignal): Promise<string> {
    const agent = this.options.agent;
    const model = agent.state.model;
    const apiKey = await agent.getApiKey?.(model.provider);
    // Stopped before the request went out: send nothing (the wording is the stream's own for an abort).
    if (signal.aborted) throw new Error('Request was aborted');
    const stream = await agent.streamFn(
      model,
      {
        systemPrompt: SUMMARY_PROMPT,
        messages: [{ role: 'user', content: `Please summarise:\n\n${transcript}`, timestamp: this.options.now() }],
      },
      { signal, apiKey },
    );
    const message = await stream.result();
    if (message.stopReason === 'error' || message.stopReason === 'aborted')
      throw new Error(message.errorMessage ?? 'no summary');
    const text = messageText(message as ChatMessage).trim();
    if (!text) throw new Error('the model returned an empty summary');
    return text;
  }

  private emitCompaction(event: CompactionEvent): void {
    this.options.emit(event);
  }
}

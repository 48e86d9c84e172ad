// The spending cap (docs/tools.md, "The spending cap"): before each request of a run — a first
// try, a tool step, a retry — the chat's spending so far (every stored attempt, failed ones
// included) plus the request's estimated input is held against the chat's cap, its own or
// `agent.budget`'s, then the whole app's spending today against `agent.budget.perDay`. A request that would pass it is not sent: the run waits for the person to
// Raise the cap (it goes on) or Stop (the turn ends as a stop). session-parts.ts wraps the agent's
// stream function with `guard`; AgentSession answers the question.
import type { Context, Model, Api } from '@mariozechner/pi-ai';
import type { StreamFn } from '@mariozechner/pi-agent-core';
import type { SpendingCapEvent } from '../../../shared/events';
import {
  limitsSomething,
  raisedBudget,
  startOfLocalDay,
  type BudgetSpent,
  type CapScope,
  type ChatBudget,
  type SpendingCapChoice,
  type SpendingCapRequest,
} from '../../../shared/spending-cap';
import { failedMessage, failedStream } from '../llm/failed-message';
import type { BudgetPort } from '../ports';
import type { ModelPrice } from './attempt-cost';

export interface SpendingCapOptions {
  port: BudgetPort;
  /** The `agent.budget` setting's cap per chat, read per request. */
  setting: () => ChatBudget;
  /** Its cap per local day for all chats together ({} = none), and how a Raise sets it. */
  day?: { setting: () => ChatBudget; raise: (budget: ChatBudget) => void };
  priceOf?: (provider: string, modelId: string) => ModelPrice | null;
  sessionId: () => string;
  emit: (event: SpendingCapEvent) => void;
  newId: () => string;
  now: () => number;
  /** The app is quitting: a question the turn's stop ends is held (kept for the restart), not answered Stop. */
  holding?: () => boolean;
}

interface Waiting {
  request: SpendingCapRequest;
  resolve: (choice: SpendingCapChoice | typeof HELD) => void;
  /** Asked before a restart: its answer starts the run again (AgentSession.restoreSpendingCap). */
  restored?: boolean;
}

/** A quit stopped the wait: the question stays stored, to be asked again after the restart. */
const HELD = 'held';

/** The words of a turn stopped at the cap: its stored error, and what the chat shows. */
export const STOPPED_AT_CAP = 'Stopped at the spending cap';

/** Tokens an image is counted as before the provider says (a large picture's share on the big providers). */
const IMAGE_TOKENS = 1600;
const PER_TOKEN = 1 / 1_000_000;

export class SpendingCap {
  private waiting: Waiting | null = null;
  private held = false;
  /** A restored question answered Stop: the run it starts ends at once, as the live Stop ends it. */
  private stopNext = false;

  constructor(private readonly options: SpendingCapOptions) {}

  /** The question the run waits on, or null. */
  get pending(): SpendingCapRequest | null {
    return this.waiting?.request ?? null;
  }

  /** The chat's own cap, or null (the setting's applies). */
  get chatBudget(): ChatBudget | null {
    return this.options.port.chatBudget(this.options.sessionId());
  }

  /** The cap that applies to the chat now. */
  budget(): ChatBudget {
    return this.chatBudget ?? this.options.setting();
  }

  setChatBudget(budget: ChatBudget | null): void {
    const sessionId = this.options.sessionId();
    this.options.port.setChatBudget(sessionId, budget);
    this.options.emit({ type: 'chat_budget_changed', sessionId, budget });
  }

  /**
   * A quit held the question: the stopped reply is not stored, so the restart finds the run where
   * the question was (TurnEvents reads this while the app quits).
   */
  get holdsForRestart(): boolean {
    return this.held;
  }

  /** The stream function the agent calls: each request is held against the cap first. */
  guard(base: StreamFn): StreamFn {
    return async (model, context, options) => {
      const stopped = () => failedStream(failedMessage(model, STOPPED_AT_CAP, 'aborted'));
      if (this.stopNext) {
        this.stopNext = false;
        return stopped();
      }
      const request = this.check(model, context);
      if (request && (await this.ask(request, options?.signal)) !== 'raise') return stopped();
      return base(model, context, options);
    };
  }

  /**
   * The question for a request that would pass a cap, or null when it fits (or nothing is capped):
   * the chat's cap first, then the app's for the day (every chat's attempts since local midnight).
   */
  check(model: Model<Api>, context: Context): SpendingCapRequest | null {
    const { port, day, now } = this.options;
    let estimate: SpendingCapRequest['estimate'] | null = null;
    const estimated = () => {
      if (estimate) return estimate;
      const tokens = estimateInputTokens(context);
      const price = this.options.priceOf?.(model.provider, model.id) ?? null;
      estimate = { tokens, costUsd: price ? tokens * price.input * PER_TOKEN : null };
      return estimate;
    };
    const sessionId = this.options.sessionId();
    const dayCap = day?.setting() ?? {};
    return (
      this.over('chat', this.budget(), () => port.spent(sessionId), estimated) ??
      (port.spentSince ? this.over('day', dayCap, () => port.spentSince!(startOfLocalDay(now())), estimated) : null)
    );
  }

  private over(
    scope: CapScope,
    cap: ChatBudget,
    spentOf: () => BudgetSpent,
    estimated: () => SpendingCapRequest['estimate'],
  ): SpendingCapRequest | null {
    if (!limitsSomething(cap)) return null;
    const spent = spentOf();
    const estimate = estimated();
    const after = {
      tokens: spent.tokens + estimate.tokens,
      costUsd: estimate.costUsd === null ? null : spent.costUsd + estimate.costUsd,
    };
    const overTokens = cap.tokens !== undefined && after.tokens > cap.tokens;
    // A dollar cap counts the priced attempts: a model without a price counts against a token cap.
    const overUsd = cap.usd !== undefined && after.costUsd !== null && after.costUsd > cap.usd;
    if (!overTokens && !overUsd) return null;
    return {
      id: this.options.newId(),
      sessionId: this.options.sessionId(),
      requestedAt: this.options.now(),
      ...(scope === 'day' && { scope }),
      spent,
      estimate,
      cap,
      raiseTo: raisedBudget(cap, after),
    };
  }

  /** Answer the waiting question; false when none with that id waits. */
  answer(id: string, choice: SpendingCapChoice): boolean {
    const waiting = this.waiting;
    if (!waiting || waiting.request.id !== id) return false;
    this.waiting = null;
    this.options.port.questions?.answered(waiting.request.sessionId);
    if (choice === 'raise' && waiting.request.scope === 'day') this.options.day?.raise(waiting.request.raiseTo);
    else if (choice === 'raise') this.setChatBudget(waiting.request.raiseTo);
    // A restored question's Stop is given by the run its answer starts.
    else if (waiting.restored) this.stopNext = true;
    this.options.emit({ type: 'spending_cap_end', id, choice });
    waiting.resolve(choice);
    return true;
  }

  /**
   * A question asked before a restart, waiting again (docs/tools.md, "The spending cap"); `onAnswer`
   * starts the run again — Raise sends the request, Stop ends the turn as a stop.
   */
  restore(request: SpendingCapRequest, onAnswer: (choice: SpendingCapChoice) => void): void {
    this.waiting = { request, resolve: (choice) => choice !== HELD && onAnswer(choice), restored: true };
    this.options.emit({ type: 'spending_cap_request', request });
  }

  /** A stored question that no longer fits its chat: forgotten. */
  drop(sessionId: string): void {
    this.options.port.questions?.answered(sessionId);
  }

  /**
   * A new run instead of an answer to a restored question: the question ends (forgotten, its card
   * closed as a Stop); the turn it stopped stays without a reply.
   */
  endRestored(): void {
    const waiting = this.waiting;
    if (!waiting?.restored) return;
    this.waiting = null;
    this.drop(waiting.request.sessionId);
    this.options.emit({ type: 'spending_cap_end', id: waiting.request.id, choice: 'stop' });
  }

  /** Another conversation: a restored question stays stored, unasked. */
  reset(): void {
    if (this.waiting?.restored) this.waiting = null;
    this.stopNext = false;
  }

  /** Wait for the person; a stop of the turn (the signal) counts as Stop, a quit holds the question. */
  private ask(request: SpendingCapRequest, signal: AbortSignal | undefined): Promise<SpendingCapChoice | typeof HELD> {
    if (signal?.aborted) return Promise.resolve('stop');
    this.options.port.questions?.asked(request);
    return new Promise((resolve) => {
      const onAbort = () => {
        if (!this.options.holding?.()) return void this.answer(request.id, 'stop');
        this.waiting = null;
        this.held = true;
        resolve(HELD);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting = {
        request,
        resolve: (choice) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(choice);
        },
      };
      this.options.emit({ type: 'spending_cap_request', request });
    });
  }
}

/**
 * A request's input tokens before the provider counts them: the newest reply's reported usage
 * (all the context up to it, as the provider counted it) and the messages after it at four
 * characters a token; with no reply yet, the whole context that way.
 */
export function estimateInputTokens(context: Context): number {
  const { messages } = context;
  const at = messages.findLastIndex((m) => m.role === 'assistant' && reported(m.usage) > 0);
  let tokens = 0;
  let chars = 0;
  if (at >= 0) {
    const last = messages[at];
    tokens = last.role === 'assistant' ? reported(last.usage) : 0;
  } else {
    chars += (context.systemPrompt ?? '').length + (context.tools ? JSON.stringify(context.tools).length : 0);
  }
  for (const message of messages.slice(at + 1)) {
    const content =
      typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content;
    for (const block of content) {
      if (block.type === 'text') chars += block.text.length;
      else if (block.type === 'thinking') chars += block.thinking.length;
      else if (block.type === 'toolCall') chars += block.name.length + JSON.stringify(block.arguments).length;
      else if (block.type === 'image') tokens += IMAGE_TOKENS;
    }
  }
  return tokens + Math.ceil(chars / 4);
}

function reported(usage: { input: number; output: number; cacheRead: number; cacheWrite: number }): number {
  return usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

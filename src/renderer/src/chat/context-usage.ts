// What the chat header's context meter and session total show (docs/thinking-and-context.md):
// how much of the model's window the last request used — the newest reply's reported usage — with
// an estimate of what it was made of, and the tokens and cost of the session's stored turns. Pure,
// so the header (ContextMeter, SessionCost) and the unit tests share it.
import type { SessionSummary, SessionUsageTotal, TurnRecord } from '../../../shared/history';
import type { ChatMessage, ChatUsage } from '../../../shared/messages';

/** The share of the window at which the meter warns, and at which it says the window is nearly full. */
export const CONTEXT_WARN_AT = 0.7;
export const CONTEXT_FULL_AT = 0.9;

export interface ContextUsage {
  /** Tokens the last request used: its input (cached included) and what it wrote. */
  used: number;
  window: number;
  /** used / window, 0…1 (more when a server let a request overflow). */
  share: number;
  level: 'ok' | 'warn' | 'full';
  /** An estimate of what the used tokens were (characters / 4, the rest being the instructions). */
  parts: { instructions: number; messages: number; toolResults: number };
}

const tokensOf = (usage: ChatUsage): number =>
  usage.totalTokens || usage.input + usage.cacheRead + usage.cacheWrite + usage.output;

const estimate = (chars: number): number => Math.ceil(chars / 4);

function charsOf(message: ChatMessage): number {
  if (typeof message.content === 'string') return message.content.length;
  let chars = 0;
  for (const block of message.content) {
    if (block.type === 'text') chars += block.text.length;
    else if (block.type === 'thinking') chars += block.thinking.length;
    else if (block.type === 'toolCall') chars += JSON.stringify(block.arguments).length + block.name.length;
  }
  return chars;
}

/**
 * The meter's reading from the conversation's messages, oldest first: null before any reply has
 * reported its usage, or when the window is not known.
 */
export function contextUsage(messages: readonly ChatMessage[], window: number | undefined): ContextUsage | null {
  if (!window || window <= 0) return null;
  const at = messages.findLastIndex((m) => m.role === 'assistant' && tokensOf(m.usage) > 0);
  if (at === -1) return null;
  const last = messages[at];
  if (last.role !== 'assistant') return null;
  const used = tokensOf(last.usage);
  let messageChars = 0;
  let toolChars = 0;
  for (const message of messages.slice(0, at + 1)) {
    if (message.role === 'toolResult') toolChars += charsOf(message);
    else messageChars += charsOf(message);
  }
  const toolResults = Math.min(used, estimate(toolChars));
  const messagesPart = Math.min(used - toolResults, estimate(messageChars));
  const share = used / window;
  return {
    used,
    window,
    share,
    level: share >= CONTEXT_FULL_AT ? 'full' : share >= CONTEXT_WARN_AT ? 'warn' : 'ok',
    parts: { instructions: used - toolResults - messagesPart, messages: messagesPart, toolResults },
  };
}

export type SessionTotal = SessionUsageTotal;

/** The tokens and cost of a session's stored turns (every attempt, failed ones included: they were paid for). */
export function sessionTotal(turns: readonly TurnRecord[]): SessionTotal {
  let tokens = 0;
  let cost = 0;
  let priced = 0;
  let unpriced = 0;
  for (const turn of turns) {
    if (!turn.usage) continue;
    const used = tokensOf(turn.usage);
    if (used === 0) continue;
    tokens += used;
    if (turn.costUsd === null) unpriced += 1;
    else {
      cost += turn.costUsd;
      priced += 1;
    }
  }
  return { tokens, costUsd: priced > 0 ? cost : null, unpriced };
}

/**
 * The session's total as shown: the store's, over every stored turn (the summary's, kept by the
 * history), not only the page of turns loaded; the turns at hand when there is no summary, or when
 * it is an event behind them (the turn's history_changed has not come yet).
 */
export function sessionTotalOf(summary: SessionSummary | undefined, turns: readonly TurnRecord[]): SessionTotal {
  const loaded = sessionTotal(turns);
  return summary?.usage && summary.usage.tokens >= loaded.tokens ? summary.usage : loaded;
}

/** "18.2k", "200k", "950": the meter's short token counts. */
export function shortTokens(n: number, language: string): string {
  if (n < 1000) return String(n);
  const k = n / 1000;
  const digits = k < 100 && !Number.isInteger(Math.round(k * 10) / 10) ? 1 : 0;
  return `${new Intl.NumberFormat(language, { maximumFractionDigits: digits }).format(k)}k`;
}

// The spending cap (docs/tools.md, "The spending cap"): a limit in dollars and/or tokens per chat
// (`agent.budget`, or the chat's own from its context meter) and optionally per day for the whole
// app (`agent.budget.perDay`), the question the run pauses on
// before a request that would pass it, and the arithmetic both processes share (the next cap a
// Raise sets). Plain values, no zod: the window's first chunk imports it.

/** A limit in dollars and/or tokens; an absent field does not limit. */
export interface ChatBudget {
  /** USD, counted over the attempts whose model's price is known. */
  usd?: number;
  /** Tokens of every attempt (priced or not). */
  tokens?: number;
}

/** `agent.budget`: each chat's cap, and optionally one for the whole app per local day. */
export interface AppBudget extends ChatBudget {
  /** What all chats together may use in one day (from local midnight); absent = no day cap. */
  perDay?: ChatBudget;
}

/** Which cap a question is about: the chat's own (or the setting's per chat), or the app's per day. */
export type CapScope = 'chat' | 'day';

/** What a chat has used: every stored attempt, failed ones included. */
export interface BudgetSpent {
  tokens: number;
  /** USD of the priced attempts; 0 when none is priced. */
  costUsd: number;
}

/** The run waits before a request that would pass the cap (session.answerSpendingCap answers it). */
export interface SpendingCapRequest {
  id: string;
  sessionId: string;
  requestedAt: number;
  /** Which cap it would pass; absent in questions from before the day cap = the chat's. */
  scope?: CapScope;
  /** What the chat (or, for the day cap, every chat today) has used before this request. */
  spent: BudgetSpent;
  /** The request's input: its tokens, and their price (null when the model's price is not known). */
  estimate: { tokens: number; costUsd: number | null };
  /** The cap it would pass. */
  cap: ChatBudget;
  /** The cap Raise sets: this chat's own, or the day cap of `agent.budget`. */
  raiseTo: ChatBudget;
}

export const SPENDING_CAP_CHOICES = ['raise', 'stop'] as const;
export type SpendingCapChoice = (typeof SPENDING_CAP_CHOICES)[number];

/** The most a cap may say: a guard against a slip of the keyboard, not a policy. */
export const BUDGET_LIMITS = { usd: { min: 0.01, max: 100_000 }, tokens: { min: 1000, max: 10_000_000_000 } } as const;

/** True when the budget limits anything. */
export const limitsSomething = (budget: ChatBudget | null | undefined): budget is ChatBudget =>
  budget?.usd !== undefined || budget?.tokens !== undefined;

/**
 * The cap a Raise sets: each limit grows by its own size (a $5 cap goes to $10, then $15) until
 * the request that stopped fits under it.
 */
export function raisedBudget(cap: ChatBudget, after: { tokens: number; costUsd: number | null }): ChatBudget {
  const grow = (limit: number, needed: number): number => {
    let next = limit * 2;
    while (next < needed) next += limit;
    return next;
  };
  const raised: ChatBudget = {};
  if (cap.usd !== undefined) raised.usd = Math.min(BUDGET_LIMITS.usd.max, grow(cap.usd, after.costUsd ?? 0));
  if (cap.tokens !== undefined) raised.tokens = Math.min(BUDGET_LIMITS.tokens.max, grow(cap.tokens, after.tokens));
  return raised;
}

/** The local day's first millisecond, as the day cap counts from it. */
export function startOfLocalDay(now: number): number {
  const day = new Date(now);
  day.setHours(0, 0, 0, 0);
  return day.getTime();
}

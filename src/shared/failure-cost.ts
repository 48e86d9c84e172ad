// Adds up what failed attempts used — tokens and, where the model's price is known, dollars — for
// the failed-chain card and the retry timeline (docs/retry-policy.md, "What failures cost"). Pure,
// shared by the renderer and the main process; each attempt's cost is computed once, when its turn
// is stored (src/main/core/session/attempt-cost.ts).
import type { FailureCostTotals } from './history';
import type { ChatUsage } from './messages';

export interface CostedAttempt {
  usage: ChatUsage | null;
  costUsd: number | null;
}

export const EMPTY_FAILURE_COST: FailureCostTotals = {
  attempts: 0,
  inputTokens: 0,
  outputTokens: 0,
  costUsd: 0,
  unpricedAttempts: 0,
};

const tokens = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;

/** The totals of some failed attempts; a missing or damaged usage counts as no tokens. */
export function summarizeFailedAttempts(attempts: readonly CostedAttempt[]): FailureCostTotals {
  return attempts.reduce<FailureCostTotals>(
    (sum, attempt) => ({
      attempts: sum.attempts + 1,
      // Cached input was read as input too: the person's prompt was sent again either way.
      inputTokens: sum.inputTokens + tokens(attempt.usage?.input) + tokens(attempt.usage?.cacheRead),
      outputTokens: sum.outputTokens + tokens(attempt.usage?.output),
      costUsd: sum.costUsd + (attempt.costUsd !== null && Number.isFinite(attempt.costUsd) ? attempt.costUsd : 0),
      unpricedAttempts: sum.unpricedAttempts + (attempt.costUsd === null ? 1 : 0),
    }),
    EMPTY_FAILURE_COST,
  );
}

/** The digits of an amount in USD by its size: a fraction of a cent still shows one digit. */
const USD_DIGITS: Record<'zero' | 'tiny' | 'cents' | 'dollars', Intl.NumberFormatOptions> = {
  zero: { maximumFractionDigits: 0 },
  tiny: { maximumSignificantDigits: 1 },
  cents: { maximumSignificantDigits: 2 },
  dollars: { minimumFractionDigits: 2, maximumFractionDigits: 2 },
};
/** One formatter per locale and size: building an Intl.NumberFormat costs far more than using one. */
const usdFormats = new Map<string, Intl.NumberFormat>();

/** "~$0.004", "~$1.25": one significant digit under a cent, two under a dollar, cents above. */
export function formatUsd(amount: number, locale = 'en'): string {
  const kind = amount === 0 ? 'zero' : amount < 0.01 ? 'tiny' : amount < 1 ? 'cents' : 'dollars';
  const key = `${locale} ${kind}`;
  let format = usdFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', ...USD_DIGITS[kind] });
    usdFormats.set(key, format);
  }
  return format.format(amount);
}

// What the chat header says a session has spent (docs/thinking-and-context.md, "Context and cost";
// docs/tools.md, "The spending cap"): its tokens and cost, and against the chat's cap when one is
// set — "$1.20 of $5", or "12k of 50k tokens" for a token cap (a model without a price counts
// tokens only). Pure, so the unit tests read it in each language; SessionCost renders it.
import type { TFunction } from 'i18next';
import { formatUsd } from '../../../shared/failure-cost';
import type { SessionUsageTotal } from '../../../shared/history';
import type { ChatBudget } from '../../../shared/spending-cap';
import { shortTokens } from './context-usage';

/** "$0.0031", "cost unknown", "$0.0031 + 2 unpriced": a total's cost as the header and the History list say it. */
export function costText(total: SessionUsageTotal, t: TFunction, language: string): string {
  if (total.costUsd === null) return t('context.costUnknown');
  const amount = formatUsd(total.costUsd, language);
  return total.unpriced > 0 ? t('context.costPartial', { amount, count: total.unpriced }) : amount;
}

/** "Session: 12k tokens · $0.0031", with each limit of `cap` beside what it limits. */
export function sessionCostText(
  total: SessionUsageTotal,
  cap: ChatBudget | undefined,
  t: TFunction,
  language: string,
): string {
  const spent = costText(total, t, language);
  // A dollar cap holds the priced attempts: with none priced there is nothing to set it against.
  const cost =
    cap?.usd === undefined || total.costUsd === null
      ? spent
      : t('context.ofCap', { spent, cap: formatUsd(cap.usd, language) });
  const tokens = shortTokens(total.tokens, language);
  if (cap?.tokens === undefined) return t('context.session', { tokens, cost });
  return t('context.sessionOfTokens', { tokens, cap: shortTokens(cap.tokens, language), cost });
}

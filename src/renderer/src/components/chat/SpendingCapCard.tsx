// The spending cap's question (docs/tools.md, "The spending cap"): the run waits before a request
// that would pass the chat's cap, or the app's cap for the day (the card says which); Raise sets
// the raised cap and goes on, Stop ends the turn.
// ChatView renders it above the composer while the session's spendingCap is set.
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { formatUsd } from '../../../../shared/failure-cost';
import type { ChatBudget } from '../../../../shared/spending-cap';
import { useActions, useAppState } from '../../store/app-store';
import { shortTokens } from '../../chat/context-usage';

/** "$5 · 200k tokens": a cap's limits in the person's language. */
export function budgetText(budget: ChatBudget, t: TFunction, language: string): string {
  const parts: string[] = [];
  if (budget.usd !== undefined) parts.push(formatUsd(budget.usd, language));
  if (budget.tokens !== undefined) parts.push(t('context.capTokens', { tokens: shortTokens(budget.tokens, language) }));
  return parts.join(' · ');
}

export function SpendingCapCard() {
  const { t, i18n } = useTranslation();
  const actions = useActions();
  const request = useAppState((s) => s.session.spendingCap);
  if (!request) return null;
  const language = i18n.language;
  // Spent in the cap's own terms: a token cap on a model without a price read "$0 · 0 tokens".
  const { cap } = request;
  const spent = budgetText(
    {
      usd: cap.usd !== undefined ? request.spent.costUsd : undefined,
      tokens: cap.tokens !== undefined ? request.spent.tokens : undefined,
    },
    t,
    language,
  );
  const answer = (choice: 'raise' | 'stop') =>
    void actions.call('session.answerSpendingCap', { id: request.id, choice });
  // Which cap it is: the chat's, or the whole app's for the day.
  const isDay = request.scope === 'day';
  const title = t(isDay ? 'spendingCap.dayTitle' : 'spendingCap.title');
  return (
    <div
      className="approval-card"
      role="alertdialog"
      aria-label={title}
      data-testid="spending-cap"
      data-scope={request.scope ?? 'chat'}
    >
      <p className="approval-title">{title}</p>
      <p>{t(isDay ? 'spendingCap.dayBody' : 'spendingCap.body', { spent, cap: budgetText(cap, t, language) })}</p>
      <div className="approval-actions">
        <button type="button" className="button" data-testid="spending-cap-raise" onClick={() => answer('raise')}>
          {t('spendingCap.raise', { cap: budgetText(request.raiseTo, t, language) })}
        </button>
        <button type="button" className="button" data-testid="spending-cap-stop" onClick={() => answer('stop')}>
          {t('spendingCap.stop')}
        </button>
      </div>
    </div>
  );
}

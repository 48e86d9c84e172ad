// What a chain's failed attempts cost (docs/retry-policy.md, "What failures cost"): "The first try
// and 2 retries failed, using 1,240 input tokens (~$0.004)" — counted in retries, as the banner and
// the card count ("Counting") — or "(cost unknown)" where the model's price is not known. Shown on
// the chain's card, in the chat and in the history.
import { useTranslation } from 'react-i18next';
import { formatUsd, summarizeFailedAttempts, type CostedAttempt } from '../../../../shared/failure-cost';
import { formatNumber } from '../../util/format';

export function FailureCostLine({ attempts }: { attempts: readonly CostedAttempt[] }) {
  const { t, i18n } = useTranslation();
  if (attempts.length === 0) return null;
  const totals = summarizeFailedAttempts(attempts);
  const number = (n: number) => formatNumber(n, i18n.language);
  // The first failed attempt is the first try; every later one a retry that failed.
  const values = { count: totals.attempts - 1, input: number(totals.inputTokens), output: number(totals.outputTokens) };
  const usage =
    totals.inputTokens + totals.outputTokens === 0
      ? t('cost.none', values)
      : totals.outputTokens > 0
        ? t('cost.inputOutput', values)
        : t('cost.input', values);
  const amount = formatUsd(totals.costUsd, i18n.language);
  const price =
    totals.unpricedAttempts === totals.attempts
      ? t('cost.unknown')
      : totals.unpricedAttempts > 0
        ? t('cost.partial', { amount, count: totals.unpricedAttempts })
        : t('cost.amount', { amount });
  return (
    <p className="failure-cost" data-testid="failure-cost">
      {usage} {price}
    </p>
  );
}

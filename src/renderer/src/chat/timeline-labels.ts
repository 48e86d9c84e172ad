// Words of the retry timeline (docs/retry-policy.md, "Scheduled retries"): each record's attempt
// label, where a schedule taken up again (after a restart, or by "Retry at …") writes a second
// record about the same attempt and reads "Taken up again", not a second "First try"; and a wait
// above the maximum delay in minutes and hours. Used by RetryTimeline and ErroredChainCard.
import type { TFunction } from 'i18next';
import type { RetryDecisionRecord } from '../../../shared/history';
import { formatWait } from '../retry/scheduled-time';

type Labelled = Pick<RetryDecisionRecord, 'attempt' | 'finalDecision'>;

/** One label per record: attempt 1 is the first try, attempt n + 1 retry n; a repeat is "taken up again". */
export function attemptLabels(t: TFunction, decisions: readonly Labelled[]): string[] {
  const shown = new Set<number>();
  return decisions.map((d) => {
    if (d.finalDecision !== 'success' && shown.has(d.attempt)) return t('errored.takenUpAgain');
    if (d.finalDecision !== 'success') shown.add(d.attempt);
    return d.attempt <= 1 ? t('errored.firstTry') : t('errored.retryN', { n: d.attempt - 1 });
  });
}

/** "Not retried: the provider asked to wait 2 h, above the 1 min maximum delay". */
export function waitTooLongText(t: TFunction, hintMs: number, maxDelayMs: number): string {
  return t('outcome.waitTooLong', { wait: formatWait(t, hintMs / 1000), max: formatWait(t, maxDelayMs / 1000) });
}

// The history's "What failures cost" panel (docs/retry-policy.md, "What failures cost"): the tokens
// and dollars that failed attempts used over a chosen period, per session and per category, from
// history.failureCost. Refetched when the history changes. Under the sessions, collapsed; hidden
// while no attempt has failed at all.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { formatUsd } from '../../../../shared/failure-cost';
import type { FailureCostTotals } from '../../../../shared/history';
import { useActions, useAppState } from '../../store/app-store';
import { formatNumber } from '../../util/format';
import { useLoader } from '../../util/use-loader';

const DAY_MS = 24 * 60 * 60 * 1000;
const PERIODS = { day: DAY_MS, week: 7 * DAY_MS, month: 30 * DAY_MS, all: null } as const;
type Period = keyof typeof PERIODS;

export function FailureCostPanel({ onOpen }: { onOpen: (sessionId: string) => void }) {
  const { t, i18n } = useTranslation();
  const actions = useActions();
  const revision = useAppState((s) => s.history.revision);
  const [period, setPeriod] = useState<Period>('week');
  const { data } = useLoader(() => {
    const span = PERIODS[period];
    return actions.call('history.failureCost', { since: span === null ? null : Date.now() - span });
  }, [period, revision]);
  // Hidden while no attempt ever failed: an empty panel is one more thing to read on a first visit.
  const { data: ever } = useLoader(() => actions.call('history.failureCost', { since: null }), [revision]);
  const cells = (row: FailureCostTotals) => <TotalsCells row={row} t={t} language={i18n.language} />;
  if (!ever || ever.total.attempts === 0) return null;

  return (
    <details className="cost-panel" data-testid="failure-cost-panel">
      <summary className="cost-title">{t('history.cost.title')}</summary>
      <label className="cost-period">
        {t('history.cost.period')}{' '}
        <select
          className="select"
          data-testid="failure-cost-period"
          value={period}
          onChange={(event) => setPeriod(event.target.value as Period)}
        >
          {(Object.keys(PERIODS) as Period[]).map((p) => (
            <option key={p} value={p}>
              {t(`history.cost.periods.${p}`)}
            </option>
          ))}
        </select>
      </label>
      {!data || data.total.attempts === 0 ? (
        <p className="pane-empty">{t('history.cost.none')}</p>
      ) : (
        <table className="history-table cost-table" data-testid="failure-cost-table">
          <thead>
            <tr>
              <th scope="col">{t('history.cost.rowLabel')}</th>
              <th scope="col">{t('history.cost.attempts')}</th>
              <th scope="col">{t('history.cost.inputTokens')}</th>
              <th scope="col">{t('history.cost.outputTokens')}</th>
              <th scope="col">{t('history.cost.amount')}</th>
            </tr>
          </thead>
          <tbody>
            <tr className="cost-total" data-testid="failure-cost-total">
              <th scope="row">{t('history.cost.total')}</th>
              {cells(data.total)}
            </tr>
            <tr>
              <th scope="rowgroup" colSpan={5} className="cost-group">
                {t('history.cost.byCategory')}
              </th>
            </tr>
            {data.categories.map((row) => (
              <tr key={row.category} data-testid="failure-cost-category" data-category={row.category}>
                <th scope="row">{t(`category.${row.category}`)}</th>
                {cells(row)}
              </tr>
            ))}
            <tr>
              <th scope="rowgroup" colSpan={5} className="cost-group">
                {t('history.cost.bySession')}
              </th>
            </tr>
            {data.sessions.map((row) => (
              <tr key={row.sessionId} data-testid="failure-cost-session">
                <th scope="row">
                  <a
                    href={`#history-${row.sessionId}`}
                    className="link"
                    onClick={(event) => {
                      event.preventDefault();
                      onOpen(row.sessionId);
                    }}
                  >
                    {row.title || t('nav.untitled')}
                  </a>
                </th>
                {cells(row)}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}

function TotalsCells({ row, t, language }: { row: FailureCostTotals; t: TFunction; language: string }) {
  const number = (n: number) => formatNumber(n, language);
  const amount = formatUsd(row.costUsd, language);
  const cost =
    row.unpricedAttempts === row.attempts
      ? t('history.cost.unknown')
      : row.unpricedAttempts > 0
        ? t('history.cost.partial', { amount, count: row.unpricedAttempts })
        : amount;
  return (
    <>
      <td className="nowrap">{number(row.attempts)}</td>
      <td className="nowrap">{number(row.inputTokens)}</td>
      <td className="nowrap">{number(row.outputTokens)}</td>
      <td className="nowrap">{cost}</td>
    </>
  );
}

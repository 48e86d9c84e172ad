// "While you were away" (docs/architecture.md, "While you were away"): one card at the point where
// the person left a chat that worked without them — the failures it recovered from by category
// with their waits, the approvals that waited and how long, what it cost, the files it changed
// (with Undo, as the run's Changed N files row: docs/file-history.md), and what is still scheduled.
// Dismissible. Built by away-summary.ts; rendered by ChatItemView.
import { useTranslation } from 'react-i18next';
import { formatUsd } from '../../../../shared/failure-cost';
import type { AwaySummary, AwaySummaryItem } from '../../chat/away-summary';
import type { RowState } from '../../chat/same-row';
import { formatClockTime, formatWait } from '../../retry/scheduled-time';
import { ConflictQuestion, FailedFiles } from '../../tools/FileChangesRow';
import { useFileUndo } from '../../tools/use-file-undo';
import { formatNumber } from '../../util/format';
import { useNow } from '../../util/use-now';
import { useAwayDismiss } from '../../chat/use-away-range';

export function AwaySummaryCard({ item, row }: { item: AwaySummaryItem; row: RowState }) {
  const { t } = useTranslation();
  const dismiss = useAwayDismiss();
  const { summary } = item;
  return (
    <section className="away-summary" aria-label={t('away.title')} data-testid="away-summary">
      <header className="away-summary-head">
        <h2 className="away-summary-title">{t('away.title')}</h2>
        <button type="button" className="button button-small" onClick={dismiss} data-testid="away-dismiss">
          {t('away.dismiss')}
        </button>
      </header>
      <ul className="away-summary-lines">
        <WorkLine summary={summary} />
        <FailureLines summary={summary} />
        <ApprovalLines summary={summary} />
        <CostLine summary={summary} />
        <ScheduledLine summary={summary} />
      </ul>
      {summary.files.count > 0 && <FilesLine item={item} row={row} />}
    </section>
  );
}

type LineProps = { summary: AwaySummary };

function WorkLine({ summary }: LineProps) {
  const { t } = useTranslation();
  if (summary.replies === 0) return null;
  const replies = t('away.replies', { count: summary.replies });
  const text =
    summary.toolCalls > 0 ? replies + t('away.separator') + t('away.toolCalls', { count: summary.toolCalls }) : replies;
  return <li data-testid="away-work">{text}</li>;
}

function FailureLines({ summary }: LineProps) {
  const { t } = useTranslation();
  if (summary.failures.length === 0) return null;
  const attempts = summary.failures.reduce((sum, f) => sum + f.attempts, 0);
  const list = summary.failures
    .map((f) => {
      const name = t(`category.${f.category}`);
      return f.waitMs > 0
        ? t('away.categoryWaited', { name, count: f.attempts, wait: formatWait(t, f.waitMs / 1000) })
        : t('away.category', { name, count: f.attempts });
    })
    .join(t('away.separator'));
  return (
    <>
      <li data-testid="away-failures">
        {t('away.failures', { count: attempts })} {list}
      </li>
      {summary.recovered > 0 && (
        <li data-testid="away-recovered">{t('away.recovered', { count: summary.recovered })}</li>
      )}
      {summary.failed > 0 && <li data-testid="away-failed">{t('away.notRecovered', { count: summary.failed })}</li>}
    </>
  );
}

function ApprovalLines({ summary }: LineProps) {
  const { t } = useTranslation();
  const { approvals } = summary;
  return (
    <>
      {approvals.count > 0 && (
        <li data-testid="away-approvals">
          {t('away.approvals', {
            count: approvals.count,
            total: formatWait(t, approvals.waitedMs / 1000),
            longest: formatWait(t, approvals.longestMs / 1000),
          })}
          {approvals.denied > 0 && ` ${t('away.denied', { count: approvals.denied })}`}
        </li>
      )}
      {summary.approvalsWaiting > 0 && (
        <li data-testid="away-approvals-waiting">{t('away.approvalsWaiting', { count: summary.approvalsWaiting })}</li>
      )}
    </>
  );
}

function CostLine({ summary }: LineProps) {
  const { t, i18n } = useTranslation();
  const { cost } = summary;
  if (cost.tokens === 0) return null;
  const tokens = formatNumber(cost.tokens, i18n.language);
  return (
    <li data-testid="away-cost">
      {cost.usd === null
        ? t('away.costUnknown', { tokens })
        : t('away.cost', { amount: formatUsd(cost.usd, i18n.language), tokens })}
    </li>
  );
}

function ScheduledLine({ summary }: LineProps) {
  const { t, i18n } = useTranslation();
  const now = useNow(60_000);
  const { scheduled } = summary;
  if (!scheduled) return null;
  const time = scheduled.until === null ? null : formatClockTime(scheduled.until, now, i18n.language);
  return (
    <li data-testid="away-scheduled">
      {time === null ? t(`away.waiting.${scheduled.state}`) : t(`away.waitingAt.${scheduled.state}`, { time })}
    </li>
  );
}

/** The files the chat changed while away, with Undo of the runs that changed them (the first run from on, if several). */
function FilesLine({ item, row }: { item: AwaySummaryItem; row: RowState }) {
  const { t } = useTranslation();
  const { files } = item.summary;
  const ids = { sessionId: item.sessionId, turnId: files.runs[0] ?? '' };
  const { question, failed, run, answer, cancel } = useFileUndo(ids, files.runs.length > 1 ? 'from' : 'turn');
  const canUndo = row.isLive && question === null && files.applied > 0 && files.runs.length > 0;
  return (
    <div className="away-summary-files" data-testid="away-files">
      <span>
        {files.applied === 0
          ? t('files.undone', { count: files.count })
          : t('files.changed', { count: files.count, added: files.added, removed: files.removed })}
      </span>{' '}
      {canUndo && (
        <button type="button" className="button button-small" onClick={() => void run(false)}>
          {t('files.undo')}
        </button>
      )}
      {question && <ConflictQuestion question={question} answer={answer} cancel={cancel} />}
      <FailedFiles failed={failed} />
    </div>
  );
}

// The divider where the conversation was summarised to fit the model's context: "Earlier messages
// were summarised", the summary behind a disclosure; while it runs, or if it failed, it says so.
import { useTranslation } from 'react-i18next';
import type { CompactionView } from '../../store/state';

export function CompactionDivider({ compaction }: { compaction: CompactionView }) {
  const { t } = useTranslation();
  return (
    <div className="compaction-divider" data-testid="compaction-divider" data-status={compaction.status}>
      {compaction.status === 'running' && <p className="compaction-label">{t('compaction.running')}</p>}
      {compaction.status === 'failed' && (
        <p className="compaction-label compaction-failed">
          {t('compaction.failed', { error: compaction.error ?? t('errored.unknownCategory') })}
        </p>
      )}
      {compaction.status === 'done' && (
        <details className="compaction-details">
          <summary className="compaction-label">
            {t('compaction.divider')} <span className="muted">· {t('compaction.showSummary')}</span>
          </summary>
          <p className="compaction-summary">{compaction.summary}</p>
        </details>
      )}
    </div>
  );
}

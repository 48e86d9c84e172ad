// "Continue" after a stopped turn (docs/tools.md, "Continue"): when the newest turn ended in an
// error or was stopped and nothing runs, the person may let the model try again — a new attempt by
// the person, not a retry.
import { useTranslation } from 'react-i18next';
import { useActions, useAppState } from '../../store/app-store';

export function ContinueBar() {
  const { t } = useTranslation();
  const actions = useActions();
  const canContinue = useAppState((s) => {
    const { session, retry } = s;
    if (session.isStreaming || session.isRetrying || retry.banner?.kind === 'pending') return false;
    if (session.pendingMessages.length > 0) return false;
    const last = session.turns[session.turns.length - 1];
    return last?.role === 'assistant' && (last.stopReason === 'error' || last.stopReason === 'aborted');
  });
  if (!canContinue) return null;
  return (
    <div className="continue-bar" data-testid="continue-bar">
      <span>{t('tools.stopped')}</span>
      <button
        type="button"
        className="button button-small"
        data-testid="continue-button"
        onClick={() => void actions.continueTurn()}
      >
        {t('tools.continue')}
      </button>
    </div>
  );
}

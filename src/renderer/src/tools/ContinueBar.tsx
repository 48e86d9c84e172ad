// "Continue" after a stopped turn (docs/tools.md, "Continue"): when the newest turn ended in an
// error or was stopped after the model used tools, and nothing runs, the person may let the model
// try again — a new attempt by the person, not a retry. The last row of the chat's list
// (live-items.ts decides when).
import { useTranslation } from 'react-i18next';
import { useActions } from '../store/app-store';

export function ContinueBar() {
  const { t } = useTranslation();
  const actions = useActions();
  return (
    <div className="continue-bar" data-testid="continue-bar">
      <span>{t('tools.stopped')}</span>
      <button
        type="button"
        className="button button-small"
        data-testid="continue-button"
        onClick={() => void actions.call('session.continue', {})}
      >
        {t('tools.continue')}
      </button>
    </div>
  );
}

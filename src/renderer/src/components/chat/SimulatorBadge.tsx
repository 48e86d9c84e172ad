// The chat header's Simulator badge (issue: the fault script outlives a restart): it names the
// fault script in force, so a chat whose every message fails says why, with × to clear the
// script (the same path as Settings → Simulator). Once every step was sent the simulator answers
// normally, and the badge says the script is used up instead of warning. ChatView shows it for a
// simulator model.
import { useTranslation } from 'react-i18next';
import { useActions, useAppState } from '../../store/app-store';

export function SimulatorBadge() {
  const { t } = useTranslation();
  const actions = useActions();
  const script = useAppState((s) => s.settings.values?.simulator.script.trim() ?? '');
  const isUsedUp = useAppState((s) => s.settings.simulatorScriptUsedUp);
  return (
    <span
      className={`badge badge-simulator${script && isUsedUp ? ' is-used-up' : ''}`}
      data-testid="simulator-badge"
      data-used-up={String(isUsedUp)}
      title={t('app.simulatorHint')}
    >
      {t('app.simulator')}
      {script && (
        <>
          <span className="simulator-script" data-testid="simulator-badge-script" title={script}>
            {isUsedUp ? t('app.simulatorScriptUsedUp', { script }) : t('app.simulatorScript', { script })}
          </span>
          <button
            type="button"
            className="icon-button simulator-script-clear"
            data-testid="simulator-script-clear"
            aria-label={t('app.clearScript', { script })}
            title={t('app.clearScript', { script })}
            onClick={() => void actions.setSimulatorScript('').then(() => actions.requestFocus('composer'))}
          >
            <span aria-hidden="true">×</span>
          </button>
        </>
      )}
    </span>
  );
}

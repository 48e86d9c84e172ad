// What a fallback switch tells the person (docs/retry-policy.md, "Fallback models"): the line under
// the banner while the retry on the new model goes out, and the banner left once the chain
// recovered there — "Switched to <model> (usage limit on <model>)" until the next prompt.
import { useTranslation } from 'react-i18next';
import { useActions } from '../../store/app-store';
import type { ModelSwitch } from '../../store/state';

export function ModelSwitchLine({ switched }: { switched: ModelSwitch }) {
  const { t } = useTranslation();
  return (
    <span className="retry-banner-switch" data-testid="model-switch">
      {t('retry.switched', { to: switched.to.model, from: switched.from.model })}
    </span>
  );
}

export function SwitchedBanner({ switched }: { switched: ModelSwitch }) {
  const { t } = useTranslation();
  const actions = useActions();
  return (
    <>
      <div className="retry-banner-body">
        <span className="retry-banner-text" data-testid="retry-banner-text">
          <ModelSwitchLine switched={switched} />
        </span>
      </div>
      <div className="retry-banner-actions">
        <button type="button" className="button" data-testid="retry-dismiss" onClick={actions.dismissRetryBanner}>
          {t('retry.dismiss')}
        </button>
      </div>
    </>
  );
}

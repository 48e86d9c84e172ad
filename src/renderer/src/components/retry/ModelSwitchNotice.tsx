// What a fallback switch tells the person (docs/retry-policy.md, "Fallback models"): "Switched to
// <model> (usage limit on <model>)" — under the banner while the retry on the new model goes out,
// and as the banner itself once the chain recovered there, until the next prompt (RetryBanner).
import { useTranslation } from 'react-i18next';
import type { ModelSwitch } from '../../store/state';

export function ModelSwitchLine({ switched }: { switched: ModelSwitch }) {
  const { t } = useTranslation();
  return (
    <span className="retry-banner-switch" data-testid="model-switch">
      {t('retry.switched', { to: switched.to.model, from: switched.from.model })}
    </span>
  );
}

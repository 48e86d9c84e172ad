// What a fallback switch tells the person (docs/retry-policy.md, "Fallback models"): "Switched to
// <model> (usage limit on <model>)" — under the banner while the retry on the new model goes out,
// as the banner itself once the chain recovered there, until the next prompt (RetryBanner), and as
// a row of the chat's list after the chain's card, where it stays (ModelSwitchRow).
import { useTranslation } from 'react-i18next';

/** The two models a switch names (the banner's ModelSwitch, or a list row's, from a stored decision). */
interface SwitchNames {
  from: { model: string };
  to: { model: string };
}

export function ModelSwitchLine({ switched }: { switched: SwitchNames }) {
  const { t } = useTranslation();
  return (
    <span className="retry-banner-switch" data-testid="model-switch">
      {t('retry.switched', { to: switched.to.model, from: switched.from.model })}
    </span>
  );
}

export function ModelSwitchRow({ switched }: { switched: SwitchNames }) {
  const { t } = useTranslation();
  return (
    <div className="model-switch-row" data-testid="model-switch-row" data-model={switched.to.model}>
      {t('retry.switched', { to: switched.to.model, from: switched.from.model })}
    </div>
  );
}

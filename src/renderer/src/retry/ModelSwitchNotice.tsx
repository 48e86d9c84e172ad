// What a switch to a fallback model tells the person (docs/retry-policy.md, "Fallback models",
// "Failover"): "Switched to <model> (usage limit on <model>)", or after an outage "Overloaded on
// <model> — continuing on <model>" — under the banner while the retry on the new model goes out,
// as the banner itself once the chain recovered there, until the next prompt (RetryBanner), and
// as a row of the chat's list after the chain's card, where it stays (ModelSwitchRow).
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { isFailoverCategory, type ErrorCategory } from '../../../shared/error-category';

/** The two models a switch names (the banner's ModelSwitch, or a list row's, from a stored decision). */
interface SwitchNames {
  from: { model: string };
  to: { model: string };
  /** What the switch was for; absent or usage_limit: a usage limit. */
  category?: ErrorCategory;
}

function switchText(t: TFunction, switched: SwitchNames): string {
  const names = { to: switched.to.model, from: switched.from.model };
  return isFailoverCategory(switched.category)
    ? t(`retry.failover.${switched.category}`, names)
    : t('retry.switched', names);
}

export function ModelSwitchLine({ switched }: { switched: SwitchNames }) {
  const { t } = useTranslation();
  return (
    <span className="retry-banner-switch" data-testid="model-switch">
      {switchText(t, switched)}
    </span>
  );
}

export function ModelSwitchRow({ switched }: { switched: SwitchNames }) {
  const { t } = useTranslation();
  return (
    <div className="model-switch-row" data-testid="model-switch-row" data-model={switched.to.model}>
      {switchText(t, switched)}
    </div>
  );
}

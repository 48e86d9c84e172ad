// The offline banner's "Continue on <model>" (docs/retry-policy.md, "Offline: the chain pauses"):
// when the fallback list holds a model of the OpenAI-compatible server at a loopback or private
// address, which needs no internet, the paused chain ends and the turn goes on there in one command
// (session.continue with `on` and `endOfflinePause`). RetryBanner renders it while paused offline.
import { useTranslation } from 'react-i18next';
import { isLocalUrl } from '../../../shared/local-host';
import type { ModelRef, Settings } from '../../../shared/settings';
import { useActions, useAppState } from '../store/app-store';

/** The first model of the fallback list served on this machine or network, other than the current one. */
export function localFallback(
  settings: Pick<Settings, 'provider' | 'providers'> | null,
  current: { provider: string; id: string } | null,
): ModelRef | null {
  if (!settings || !isLocalUrl(settings.provider.baseUrl)) return null;
  const isCurrent = (ref: ModelRef) => ref.provider === current?.provider && ref.model === current.id;
  return settings.providers.fallback.find((ref) => ref.provider === 'openai-compatible' && !isCurrent(ref)) ?? null;
}

export function OfflineContinueButton() {
  const { t } = useTranslation();
  const actions = useActions();
  const settings = useAppState((s) => s.settings.values);
  const current = useAppState((s) => s.session.model);
  const on = localFallback(settings, current);
  if (!on) return null;
  return (
    <button
      type="button"
      className="button"
      data-testid="retry-continue-local"
      aria-label={t('retry.continueOnLocalLabel', { model: on.model })}
      onClick={() =>
        void actions
          .call('session.continue', { on, endOfflinePause: true })
          .then(() => actions.requestFocus('composer'))
      }
    >
      {t('retry.continueOnLocal', { model: on.model })}
    </button>
  );
}

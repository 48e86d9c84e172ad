// "Continue on…" under a failed card of a retryable failure (docs/retry-policy.md, "Continue on
// another model"): the first choice, the models of the fallback list and those the
// OpenAI-compatible server lists, the session's own left out; the chosen one goes on from what the failed reply streamed, or is
// asked again when nothing streamed (session.continue with `on`). MessageActions renders it.
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProviderInfo } from '../../../../shared/contract';
import type { ModelRef } from '../../../../shared/settings';
import { providerLabelById } from '../../i18n/notice-text';
import { useActions, useAppState } from '../../store/app-store';

/** The models a failed turn may continue on: the first choice, the fallback list, then the local server's, each once. */
export function continueOnChoices(
  firstChoice: ModelRef | null,
  fallback: readonly ModelRef[],
  providers: readonly ProviderInfo[],
  current: { provider: string; id: string } | null,
): ModelRef[] {
  const local = providers.find((p) => p.id === 'openai-compatible')?.models ?? [];
  const all = [
    ...(firstChoice ? [firstChoice] : []),
    ...fallback,
    ...local.map((model): ModelRef => ({ provider: 'openai-compatible', model })),
  ];
  const key = (provider: string, model: string) => `${provider}\n${model}`;
  const seen = new Set(current ? [key(current.provider, current.id)] : []);
  const choices: ModelRef[] = [];
  for (const ref of all) {
    if (seen.has(key(ref.provider, ref.model))) continue;
    seen.add(key(ref.provider, ref.model));
    choices.push(ref);
  }
  return choices;
}

/** The choices for the live chat, from the settings and the providers the window knows. */
export function useContinueOnChoices(): ModelRef[] {
  const first = useAppState((s) => s.settings.values?.provider);
  const fallback = useAppState((s) => s.settings.values?.providers.fallback);
  const providers = useAppState((s) => s.settings.providers);
  const current = useAppState((s) => s.session.model);
  return useMemo(
    () =>
      continueOnChoices(first ? { provider: first.id, model: first.model } : null, fallback ?? [], providers, current),
    [first, fallback, providers, current],
  );
}

export function ContinueOnMenu({ choices }: { choices: readonly ModelRef[] }) {
  const { t } = useTranslation();
  const actions = useActions();
  const providers = useAppState((s) => s.settings.providers);
  const [isOpen, setOpen] = useState(false);
  const listId = useId();
  const choose = (on: ModelRef): void => {
    setOpen(false);
    void actions.call('session.continue', { on }).then(() => actions.requestFocus('composer'));
  };
  return (
    <span className="continue-on">
      <button
        type="button"
        className="button button-small"
        data-testid="card-continue-on"
        aria-expanded={isOpen}
        aria-controls={listId}
        aria-label={t('errored.continueOnLabel')}
        onClick={() => setOpen(!isOpen)}
        onKeyDown={(event) => event.key === 'Escape' && isOpen && (event.stopPropagation(), setOpen(false))}
      >
        {t('errored.continueOn')}
      </button>
      {isOpen && (
        <ul id={listId} className="continue-on-list" data-testid="continue-on-list">
          {choices.map((ref) => {
            const name = `${ref.model} · ${providerLabelById(t, providers, ref.provider)}`;
            return (
              <li key={`${ref.provider}/${ref.model}`}>
                <button
                  type="button"
                  className="button button-small"
                  data-testid="continue-on-option"
                  data-model={ref.model}
                  aria-label={t('errored.continueOnModel', { model: name })}
                  onClick={() => choose(ref)}
                >
                  {name}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </span>
  );
}

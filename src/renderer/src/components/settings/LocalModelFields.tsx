// Settings → Model for an OpenAI-compatible server (docs/thinking-and-context.md, "Local
// models"): named presets that fill in the usual URL of Ollama, LM Studio and llama.cpp's server,
// and what the person says of the model in use — its context window, the most a reply may write,
// whether it takes images and whether it thinks — each empty or "as the server says" by default
// (provider.localModels) — and how long the server may work on a prompt before its first word
// (provider.localServers, docs/retry-policy.md, "Two clocks"). ProvidersSection shows it under the base URL.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { LocalModelSettings, Settings } from '../../../../shared/settings';
import { useActions, useAppState } from '../../store/app-store';
import { formatNumber } from '../../util/format';
import { CommitField, SelectField } from './fields';

/** The local servers people run most, at their default addresses. */
export const LOCAL_PRESETS = [
  { id: 'ollama', label: 'Ollama', url: 'http://127.0.0.1:11434/v1' },
  { id: 'lmstudio', label: 'LM Studio', url: 'http://127.0.0.1:1234/v1' },
  { id: 'llamacpp', label: 'llama.cpp', url: 'http://127.0.0.1:8080/v1' },
] as const;

type Choice = 'server' | 'yes' | 'no';
const choiceOf = (value: boolean | undefined): Choice => (value === undefined ? 'server' : value ? 'yes' : 'no');
const valueOf = (choice: Choice): boolean | null => (choice === 'server' ? null : choice === 'yes');

export function LocalModelFields({ provider }: { provider: Settings['provider'] }) {
  const { t, i18n } = useTranslation();
  const actions = useActions();
  const served = useAppState((s) => s.settings.providers.find((p) => p.id === 'openai-compatible')?.contextWindows);
  const model = provider.model;
  const own: LocalModelSettings = provider.localModels[model] ?? {};
  const patch = (field: keyof LocalModelSettings, value: unknown) => ({
    provider: { localModels: { [model]: { [field]: value } } },
  });
  const choices = (['server', 'yes', 'no'] as const).map((value) => ({ value, label: t(`local.choice.${value}`) }));
  const serverWindow = served?.[model];
  // Another server: ask it for its models (the model picker's list, the window above).
  useEffect(() => {
    void actions.loadProviders();
  }, [actions, provider.baseUrl]);
  return (
    <>
      <LocalPresets baseUrl={provider.baseUrl} />
      <CommitField
        label={t('local.contextWindow')}
        fieldPath={`provider.localModels.${model}.contextWindow`}
        testId="local-context-window"
        kind="number"
        isClearable
        value={own.contextWindow}
        toPatch={(value) => patch('contextWindow', value)}
        hint={
          serverWindow
            ? t('local.serverSays', { tokens: formatNumber(serverWindow, i18n.language) })
            : t('local.contextWindowHint', { model })
        }
      />
      <CommitField
        label={t('local.maxTokens')}
        fieldPath={`provider.localModels.${model}.maxTokens`}
        testId="local-max-tokens"
        kind="number"
        isClearable
        value={own.maxTokens}
        toPatch={(value) => patch('maxTokens', value)}
        hint={t('local.maxTokensHint')}
      />
      <SelectField
        label={t('local.images')}
        fieldPath={`provider.localModels.${model}.images`}
        testId="local-images"
        value={choiceOf(own.images)}
        options={choices}
        onSelect={(choice) =>
          void actions.updateSettings(`provider.localModels.${model}.images`, patch('images', valueOf(choice)))
        }
      />
      <SelectField
        label={t('local.reasoning')}
        fieldPath={`provider.localModels.${model}.reasoning`}
        testId="local-reasoning"
        value={choiceOf(own.reasoning)}
        options={choices}
        onSelect={(choice) =>
          void actions.updateSettings(`provider.localModels.${model}.reasoning`, patch('reasoning', valueOf(choice)))
        }
      />
      {provider.baseUrl && (
        <CommitField
          label={t('local.firstTokenWait')}
          fieldPath={`provider.localServers.${provider.baseUrl}.firstTokenWaitMinutes`}
          testId="local-first-token-wait"
          kind="number"
          isClearable
          value={provider.localServers[provider.baseUrl]?.firstTokenWaitMinutes}
          toPatch={(value) => ({
            provider: { localServers: { [provider.baseUrl]: { firstTokenWaitMinutes: value } } },
          })}
          hint={t('local.firstTokenWaitHint')}
        />
      )}
    </>
  );
}

/** The presets: a click fills in the server's usual URL (the one in use is pressed). */
function LocalPresets({ baseUrl }: { baseUrl: string }) {
  const { t } = useTranslation();
  const actions = useActions();
  return (
    <div className="field local-presets">
      <span className="field-label" id="local-presets-label">
        {t('local.presets')}
      </span>
      <div className="preset-buttons" role="group" aria-labelledby="local-presets-label">
        {LOCAL_PRESETS.map((preset) => (
          <button
            key={preset.id}
            type="button"
            className="button button-small"
            data-testid={`preset-${preset.id}`}
            aria-pressed={baseUrl === preset.url}
            title={preset.url}
            onClick={() => void actions.updateSettings('provider.baseUrl', { provider: { baseUrl: preset.url } })}
          >
            {preset.label}
          </button>
        ))}
      </div>
    </div>
  );
}

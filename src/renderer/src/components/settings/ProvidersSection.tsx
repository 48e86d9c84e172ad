// Provider and model choice (settings.provider: a new provider starts on its default model; the
// model is a searchable list with free text allowed), Test connection (one real request,
// classified), and API keys per provider via providers.list / addKey / removeKey — not for the
// simulator, which takes none. A key is only ever sent: the list shows the masked hint the main
// process returns, never the key. "Check your API key" on an Authentication card lands here.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProviderInfo } from '../../../../shared/contract';
import type { Settings } from '../../../../shared/settings';
import {
  BASE_URL_PROVIDERS,
  PROVIDER_IDS,
  type BaseUrlProvider,
  type ProviderId,
} from '../../../../shared/settings-values';
import { keyHintText, providerLabel, providerLabelById } from '../../i18n/notice-text';
import { useActions, useAppState } from '../../store/app-store';
import { formatDateTime } from '../../util/format';
import { useNow } from '../../util/use-now';
import { ModelPicker } from '../chat/ModelPicker';
import { goToSection } from '../../util/go-to-section';
import { ConnectionTest } from './ConnectionTest';
import { CommitField, FieldError, SelectField, SettingsSection } from './fields';
import { LocalModelFields } from './LocalModelFields';

export function ProvidersSection({ provider }: { provider: Settings['provider'] }) {
  const { t } = useTranslation();
  const actions = useActions();
  const providers = useAppState((s) => s.settings.providers);
  const target = useAppState((s) => s.ui.settingsProvider);
  useEffect(() => {
    void actions.loadProviders();
  }, [actions]);
  useEffect(() => {
    // "Check your API key": show that provider's keys once they are on the page.
    if (!target || providers.length === 0) return;
    goToSection(`provider-${target}`);
    actions.providerSettingsShown();
  }, [actions, target, providers.length]);

  // A new provider starts on the model last chosen there, else its own default (the old provider's
  // model means nothing there); the host keeps the one left for when the person comes back.
  const selectProvider = (id: ProviderId): void => {
    const model = provider.chosenModels[id] ?? providers.find((p) => p.id === id)?.defaultModel;
    void actions.updateSettings('provider.id', { provider: model ? { id, model } : { id } });
  };
  return (
    <>
      <SettingsSection id="settings-model" title={t('settings.sections.model')}>
        <div className="field-grid">
          <SelectField
            label={t('settings.provider')}
            fieldPath="provider.id"
            testId="settings-provider"
            value={provider.id}
            options={PROVIDER_IDS.map((id) => ({ value: id, label: providerLabelById(t, providers, id) }))}
            onSelect={selectProvider}
          />
          <ModelPicker
            key={provider.id}
            model={{ id: provider.model, provider: provider.id }}
            testId="settings-model"
            isLabelVisible
          />
          {provider.id === 'openai-compatible' && (
            <CommitField
              label={t('settings.baseUrl')}
              fieldPath="provider.baseUrl"
              testId="settings-base-url"
              kind="url"
              value={provider.baseUrl}
              toPatch={(baseUrl) => ({ provider: { baseUrl } })}
            />
          )}
          {provider.id === 'openai-compatible' && <LocalModelFields provider={provider} />}
          {provider.id === 'openai-compatible' && (
            <TextOnlyToggle model={provider.model} marked={provider.textOnlyModels} />
          )}
          {isBaseUrlProvider(provider.id) && (
            <CommitField
              label={t('settings.baseUrl')}
              fieldPath={`provider.baseUrls.${provider.id}`}
              testId="settings-base-url"
              kind="url"
              value={provider.baseUrls[provider.id]}
              toPatch={(baseUrl) => ({ provider: { baseUrls: { [provider.id]: baseUrl } } })}
              hint={t('settings.baseUrlHint', { url: DEFAULT_BASE_URLS[provider.id] })}
            />
          )}
        </div>
        <ConnectionTest />
      </SettingsSection>
      <SettingsSection id="settings-keys" title={t('settings.sections.keys')}>
        <p className="section-hint">{t('settings.keysHint')}</p>
        {providers.map((info) => (
          <ProviderKeys key={info.id} info={info} />
        ))}
      </SettingsSection>
    </>
  );
}

const isBaseUrlProvider = (id: ProviderId): id is BaseUrlProvider =>
  (BASE_URL_PROVIDERS as readonly string[]).includes(id);

/** What an empty override means: the provider's own API (shown in the field's hint). */
const DEFAULT_BASE_URLS: Record<BaseUrlProvider, string> = {
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com/v1',
  google: 'https://generativelanguage.googleapis.com/v1beta',
  openrouter: 'https://openrouter.ai/api/v1',
};

function ProviderKeys({ info }: { info: ProviderInfo }) {
  const { t } = useTranslation();
  return (
    <div className="provider-keys" id={`provider-${info.id}`} data-testid={`provider-${info.id}`}>
      <h3 className="provider-name" tabIndex={-1}>
        {providerLabel(t, info)}
      </h3>
      {info.takesKeys ? <KeyList info={info} /> : <p className="field-hint">{t('settings.noKeysNeeded')}</p>}
    </div>
  );
}

function KeyList({ info }: { info: ProviderInfo }) {
  const { t, i18n } = useTranslation();
  const actions = useActions();
  const id = useId();
  const [apiKey, setApiKey] = useState('');
  const now = useNow();
  const hasError = useAppState((s) => Boolean(s.settings.fieldErrors[`providers.${info.id}`]));

  const onSubmit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (!apiKey.trim()) return;
    if (await actions.addKey(info.id, apiKey)) setApiKey('');
  };

  return (
    <>
      {info.keys.length === 0 ? (
        <p className="field-hint">{t('settings.noKeys')}</p>
      ) : (
        <ul className="key-list">
          {info.keys.map((key) => (
            <li key={key.id} className="key-row" data-testid="provider-key">
              <code className="key-hint">{keyHintText(t, key)}</code>
              {key.blockedUntil !== null && key.blockedUntil > now && (
                <span className="badge badge-warning">
                  {t('settings.blockedUntil', { time: formatDateTime(key.blockedUntil, i18n.language) })}
                </span>
              )}
              {key.removable && (
                <button
                  type="button"
                  className="button button-small"
                  aria-label={t('settings.removeKey', { hint: keyHintText(t, key) })}
                  onClick={() => void actions.removeKey(info.id, key.id)}
                >
                  {t('settings.remove')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {info.hasEnvKey && <p className="field-hint">{t('settings.envKey')}</p>}
      <form className="key-form" onSubmit={(event) => void onSubmit(event)}>
        <label htmlFor={id} className="visually-hidden">
          {t('settings.apiKey', { provider: providerLabel(t, info) })}
        </label>
        <input
          id={id}
          className="input"
          type="password"
          autoComplete="off"
          spellCheck={false}
          data-testid={`api-key-input-${info.id}`}
          placeholder={t('settings.apiKey', { provider: providerLabel(t, info) })}
          value={apiKey}
          aria-invalid={hasError || undefined}
          aria-describedby={hasError ? `${id}-error` : undefined}
          onChange={(event) => setApiKey(event.target.value)}
        />
        <button type="submit" className="button" disabled={!apiKey.trim()} data-testid={`api-key-add-${info.id}`}>
          {t('settings.addKey')}
        </button>
      </form>
      <FieldError
        fieldPath={`providers.${info.id}`}
        label={t('settings.apiKey', { provider: providerLabel(t, info) })}
        testId={`api-key-input-${info.id}`}
        errorId={`${id}-error`}
      />
    </>
  );
}

/** An OpenAI-compatible server's model is taken to read images unless marked here (docs/attachments.md). */
function TextOnlyToggle({ model, marked }: { model: string; marked: string[] }) {
  const { t } = useTranslation();
  const actions = useActions();
  const isMarked = marked.includes(model);
  const toggle = (textOnly: boolean): void => {
    const textOnlyModels = textOnly ? [...marked.filter((m) => m !== model), model] : marked.filter((m) => m !== model);
    void actions.updateSettings('provider.textOnlyModels', { provider: { textOnlyModels } });
  };
  return (
    <label className="toggle">
      <input
        type="checkbox"
        data-testid="settings-text-only"
        checked={isMarked}
        onChange={(event) => toggle(event.target.checked)}
      />
      {t('settings.textOnlyModel', { model })}
    </label>
  );
}

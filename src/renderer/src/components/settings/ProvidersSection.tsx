// Provider and model choice (settings.provider) and API keys per provider via providers.list /
// addKey / removeKey. A key is only ever sent: the list shows the masked hint the main process
// returns, never the key.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProviderInfo } from '../../../../shared/contract';
import {
  BASE_URL_PROVIDERS,
  PROVIDER_IDS,
  type BaseUrlProvider,
  type ProviderId,
  type Settings,
} from '../../../../shared/settings';
import { useActions, useAppState } from '../../store/app-store';
import { formatDateTime } from '../../util/format';
import { useNow } from '../../util/use-now';
import { CommitField, FieldError, SelectField } from './fields';

export function ProvidersSection({ provider }: { provider: Settings['provider'] }) {
  const { t } = useTranslation();
  const actions = useActions();
  const providers = useAppState((s) => s.settings.providers);
  useEffect(() => {
    void actions.loadProviders();
  }, [actions]);

  const labelOf = (id: ProviderId) => providers.find((p) => p.id === id)?.label ?? id;
  const models = providers.find((p) => p.id === provider.id)?.models ?? [];
  return (
    <>
      <section className="settings-section">
        <h2 className="section-title">{t('settings.sections.model')}</h2>
        <div className="field-grid">
          <SelectField
            label={t('settings.provider')}
            fieldPath="provider.id"
            testId="settings-provider"
            value={provider.id}
            options={PROVIDER_IDS.map((id) => ({ value: id, label: labelOf(id) }))}
            onSelect={(id) => void actions.updateSettings('provider.id', { provider: { id } })}
          />
          <CommitField
            label={t('settings.model')}
            fieldPath="provider.model"
            testId="settings-model"
            kind="text"
            value={provider.model}
            toPatch={(model) => ({ provider: { model } })}
            hint={modelHint(models)}
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
      </section>
      <section className="settings-section">
        <h2 className="section-title">{t('settings.sections.keys')}</h2>
        <p className="section-hint">{t('settings.keysHint')}</p>
        {/* The simulator takes keys too: a second key lets a usage limit switch credentials. */}
        {providers.map((info) => (
          <ProviderKeys key={info.id} info={info} />
        ))}
      </section>
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

/** A few of the provider's model ids as examples (OpenRouter alone lists hundreds). */
function modelHint(models: string[]): string | undefined {
  if (models.length === 0) return undefined;
  const shown = models.slice(0, MODEL_HINT_COUNT).join(', ');
  return models.length > MODEL_HINT_COUNT ? `${shown}, … (+${models.length - MODEL_HINT_COUNT})` : shown;
}

const MODEL_HINT_COUNT = 6;

function ProviderKeys({ info }: { info: ProviderInfo }) {
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
    <div className="provider-keys" data-testid={`provider-${info.id}`}>
      <h3 className="provider-name">{info.label}</h3>
      {info.keys.length === 0 ? (
        <p className="field-hint">{t('settings.noKeys')}</p>
      ) : (
        <ul className="key-list">
          {info.keys.map((key) => (
            <li key={key.id} className="key-row" data-testid="provider-key">
              <code className="key-hint">{key.hint}</code>
              {key.blockedUntil !== null && key.blockedUntil > now && (
                <span className="badge badge-warning">
                  {t('settings.blockedUntil', { time: formatDateTime(key.blockedUntil, i18n.language) })}
                </span>
              )}
              {key.removable && (
                <button
                  type="button"
                  className="button button-small"
                  aria-label={t('settings.removeKey', { hint: key.hint })}
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
          {t('settings.apiKey', { provider: info.label })}
        </label>
        <input
          id={id}
          className="input"
          type="password"
          autoComplete="off"
          spellCheck={false}
          data-testid={`api-key-input-${info.id}`}
          placeholder={t('settings.apiKey', { provider: info.label })}
          value={apiKey}
          aria-invalid={hasError || undefined}
          aria-describedby={hasError ? `${id}-error` : undefined}
          onChange={(event) => setApiKey(event.target.value)}
        />
        <button type="submit" className="button" disabled={!apiKey.trim()} data-testid={`api-key-add-${info.id}`}>
          {t('settings.addKey')}
        </button>
      </form>
      <FieldError fieldPath={`providers.${info.id}`} testId={`api-key-input-${info.id}`} errorId={`${id}-error`} />
    </div>
  );
}

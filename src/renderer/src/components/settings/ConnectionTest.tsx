// "Test connection": one minimal request with the current provider, model, base URL and key,
// through the same path a chat turn takes, and the classifier's verdict shown next to the button
// (providers.test). Nothing is stored in the history; with the simulator it takes a script step.
// A missing key or URL is said as what to do (with the way to the key field), an unreachable
// server by its host, a local server's models by name; a result is shown only while the
// provider, model, URL and keys it tested hold, and while no provider field holds a refused value.
// What it tested is read when the answer comes, not at the click: a provider switched just before
// is an optimistic value then, which the main process's saved one (its default model filled in)
// replaces a moment later — and the main process, taking the socket's messages in order, tested
// the saved one.
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ConnectionTestResult } from '../../../../shared/contract';
import type { ProviderId } from '../../../../shared/settings-values';
import { providerLabelById } from '../../i18n/notice-text';
import { useActions, useAppState, useAppStore } from '../../store/app-store';
import type { AppState } from '../../store/state';
import { errorText } from '../../../../shared/text';

type TestState =
  | { kind: 'idle' }
  | { kind: 'testing' }
  | { kind: 'done'; result: ConnectionTestResult; testedFor: Setup }
  | { kind: 'error'; message: string; testedFor: Setup };

/** What a test's answer depends on: the provider's settings, and its keys once they are listed. */
interface Setup {
  settings: string;
  keys: string | null;
}

function settingsPart(s: AppState): string {
  const provider = s.settings.values?.provider;
  return provider ? JSON.stringify([provider.id, provider.model, provider.baseUrl, provider.baseUrls]) : '';
}

function keysPart(s: AppState): string | null {
  const info = s.settings.providers.find((p) => p.id === s.settings.values?.provider.id);
  return info ? info.keys.map((k) => k.id).join(',') : null;
}

function setupOf(s: AppState): Setup {
  return { settings: settingsPart(s), keys: keysPart(s) };
}

/** A provider field the main process refused (a URL such as ftp://x): what is shown is not what was tested. */
function hasRefusedProviderField(s: AppState): boolean {
  return Object.keys(s.settings.fieldErrors).some((path) => path.startsWith('provider.'));
}

/** Another provider, model, URL or key makes an answer stale (keys not listed yet are no change). */
function isSameSetup(a: Setup, b: Setup): boolean {
  return a.settings === b.settings && (a.keys === null || b.keys === null || a.keys === b.keys);
}

export function ConnectionTest() {
  const { t } = useTranslation();
  const actions = useActions();
  const store = useAppStore();
  const settings = useAppState(settingsPart);
  const keys = useAppState(keysPart);
  const isRefused = useAppState(hasRefusedProviderField);
  const setup: Setup = { settings, keys };
  const [tested, setState] = useState<TestState>({ kind: 'idle' });
  const isStale =
    (tested.kind === 'done' || tested.kind === 'error') && (isRefused || !isSameSetup(tested.testedFor, setup));
  const state: TestState = isStale ? { kind: 'idle' } : tested;
  const run = async (): Promise<void> => {
    setState({ kind: 'testing' });
    try {
      const result = await actions.testConnection();
      setState({ kind: 'done', result, testedFor: setupOf(store.getState()) });
    } catch (error) {
      setState({ kind: 'error', message: errorText(error), testedFor: setupOf(store.getState()) });
    }
  };
  return (
    <div className="connection-test">
      <button
        type="button"
        className="button"
        data-testid="test-connection"
        disabled={state.kind === 'testing'}
        onClick={() => void run()}
      >
        {state.kind === 'testing' ? t('settings.testing') : t('settings.testConnection')}
      </button>
      <p
        className={`connection-test-result${state.kind === 'done' && state.result.ok ? ' is-ok' : state.kind === 'idle' || state.kind === 'testing' ? '' : ' is-failed'}`}
        role="status"
        data-testid="test-connection-result"
        data-category={state.kind === 'done' ? (state.result.category ?? 'ok') : undefined}
      >
        {resultText(t, state)}
        {state.kind === 'done' && state.result.serverModels && (
          <span className="connection-test-models" data-testid="test-connection-models">
            {state.result.serverModels.length > 0
              ? t('local.serverModels', { models: state.result.serverModels.join(', ') })
              : t('local.noServerModels')}
          </span>
        )}
        {state.kind === 'done' && state.result.missing === 'key' && (
          <>
            {' '}
            <button
              type="button"
              className="button button-small"
              data-testid="test-connection-add-key"
              onClick={() => actions.openProviderSettings(state.result.provider)}
            >
              {t('settings.testGoToKey')}
            </button>
          </>
        )}
      </p>
    </div>
  );
}

function resultText(t: TFunction, state: TestState): string {
  if (state.kind === 'error') return state.message;
  if (state.kind !== 'done') return '';
  const { result } = state;
  if (result.ok) return `✓ ${t('settings.testOk', { model: result.model, ms: result.latencyMs })}`;
  if (result.missing === 'base_url') return t('settings.testNoBaseUrl');
  if (result.missing === 'key')
    return t('settings.testNoKey', { provider: providerLabelById(t, [], result.provider as ProviderId) });
  if (result.category === 'connection' && result.host) return t('settings.testUnreachable', { host: result.host });
  const category = result.category ? t(`category.${result.category}`) : t('errored.unknownCategory');
  return t('settings.testFailed', { category, message: result.message });
}

// "Test connection": one minimal request with the current provider, model, base URL and key,
// through the same path a chat turn takes, and the classifier's verdict shown next to the button
// (providers.test). Nothing is stored in the history; with the simulator it takes a script step.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConnectionTestResult } from '../../../../shared/contract';
import { useActions } from '../../store/app-store';

type TestState =
  | { kind: 'idle' }
  | { kind: 'testing' }
  | { kind: 'done'; result: ConnectionTestResult }
  | { kind: 'error'; message: string };

export function ConnectionTest() {
  const { t } = useTranslation();
  const actions = useActions();
  const [state, setState] = useState<TestState>({ kind: 'idle' });
  const run = async (): Promise<void> => {
    setState({ kind: 'testing' });
    try {
      setState({ kind: 'done', result: await actions.testConnection() });
    } catch (error) {
      setState({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
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
      </p>
    </div>
  );
}

function resultText(t: ReturnType<typeof useTranslation>['t'], state: TestState): string {
  if (state.kind === 'error') return state.message;
  if (state.kind !== 'done') return '';
  const { result } = state;
  if (result.ok) return `✓ ${t('settings.testOk', { model: result.model, ms: result.latencyMs })}`;
  const category = result.category ? t(`category.${result.category}`) : t('errored.unknownCategory');
  return t('settings.testFailed', { category, message: result.message });
}

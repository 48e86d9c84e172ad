// The Settings pane: retries, the decision table, provider/model and keys, the fallback models, the simulator script,
// language and theme. It renders the settings the store holds (settings.get on connect, then
// settings_changed events); every control applies its change at once.
import { useTranslation } from 'react-i18next';
import { useAppState } from '../../store/app-store';
import { DecisionTable } from './DecisionTable';
import { AppearanceSection, SimulatorSection } from './GeneralSection';
import { FallbackListEditor } from './FallbackListEditor';
import { ProvidersSection } from './ProvidersSection';
import { RetrySection } from './RetrySection';
import { ToolsSection } from './ToolsSection';

export function SettingsView() {
  const { t } = useTranslation();
  const settings = useAppState((s) => s.settings.values);
  return (
    <section className="settings" aria-label={t('settings.title')}>
      <header className="pane-header">
        <h1 className="pane-title">{t('settings.title')}</h1>
      </header>
      <div className="pane-scroll">
        {settings ? (
          <>
            <RetrySection retry={settings.retry} />
            <DecisionTable retry={settings.retry} />
            <ProvidersSection provider={settings.provider} />
            <ToolsSection tools={settings.tools} />
            <FallbackListEditor settings={settings} />
            <SimulatorSection simulator={settings.simulator} />
            <AppearanceSection ui={settings.ui} />
          </>
        ) : (
          <p className="pane-empty">{t('history.loading')}</p>
        )}
      </div>
    </section>
  );
}

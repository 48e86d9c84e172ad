// The simulator's fault script (settings.simulator.script) and the language and theme choices
// (settings.ui); every change applies at once through settings.update.
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Settings } from '../../../../shared/settings';
import { useActions } from '../../store/app-store';
import { CommitField, SelectField } from './fields';

const THEMES = ['system', 'light', 'dark'] as const;

export function SimulatorSection({ simulator }: { simulator: Settings['simulator'] }) {
  const { t } = useTranslation();
  return (
    <section className="settings-section">
      <h2 className="section-title">{t('settings.sections.simulator')}</h2>
      <CommitField
        label={t('settings.simulatorScript')}
        fieldPath="simulator.script"
        testId="settings-simulator-script"
        kind="text"
        value={simulator.script}
        toPatch={(script) => ({ simulator: { script } })}
        hint={t('settings.simulatorHint')}
      />
    </section>
  );
}

export function AppearanceSection({ ui }: { ui: Settings['ui'] }) {
  const { t } = useTranslation();
  const actions = useActions();
  return (
    <section className="settings-section">
      <h2 className="section-title">{t('settings.sections.appearance')}</h2>
      <div className="field-grid">
        <SelectField
          label={t('settings.language')}
          fieldPath="ui.language"
          testId="settings-language"
          value={ui.language}
          options={LANGUAGES.map((lang) => ({ value: lang, label: t(`settings.languages.${lang}`) }))}
          onSelect={(language) => void actions.updateSettings('ui.language', { ui: { language } })}
        />
        <SelectField
          label={t('settings.theme')}
          fieldPath="ui.theme"
          testId="settings-theme"
          value={ui.theme}
          options={THEMES.map((theme) => ({ value: theme, label: t(`settings.themes.${theme}`) }))}
          onSelect={(theme) => void actions.updateSettings('ui.theme', { ui: { theme } })}
        />
      </div>
    </section>
  );
}

// The simulator's fault script (simulator.setScript: Enter re-arms it even when unchanged), the
// language and theme choices (settings.ui, applied at once through settings.update) and the list
// of keyboard shortcuts.
import { useTranslation } from 'react-i18next';
import type { Settings } from '../../../../shared/settings';
import { LANGUAGES } from '../../../../shared/settings-values';
import { useActions } from '../../store/app-store';
import { shortcutLabel, shortcutList } from '../../commands/shortcuts';
import { CommitField, SelectField, SettingsSection } from './fields';

const THEMES = ['system', 'light', 'dark'] as const;

export function SimulatorSection({ simulator }: { simulator: Settings['simulator'] }) {
  const { t } = useTranslation();
  const actions = useActions();
  return (
    <SettingsSection id="settings-simulator" title={t('settings.sections.simulator')}>
      <CommitField
        label={t('settings.simulatorScript')}
        fieldPath="simulator.script"
        testId="settings-simulator-script"
        kind="text"
        value={simulator.script}
        toPatch={(script) => ({ simulator: { script } })}
        apply={(script) => void actions.setSimulatorScript(String(script))}
        isEnterAlwaysApplied
        hint={
          <>
            {t('settings.simulatorHint')}
            <br />
            {t('settings.simulatorRearm')}
          </>
        }
      />
    </SettingsSection>
  );
}

export function AppearanceSection({ ui }: { ui: Settings['ui'] }) {
  const { t } = useTranslation();
  const actions = useActions();
  return (
    <SettingsSection id="settings-appearance" title={t('settings.sections.appearance')}>
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
    </SettingsSection>
  );
}

export function ShortcutsSection() {
  const { t } = useTranslation();
  return (
    <SettingsSection id="settings-shortcuts" title={t('settings.sections.shortcuts')}>
      <dl className="shortcut-list" data-testid="shortcut-list">
        {shortcutList().map((row) => (
          <div key={row.keys} className="shortcut-row">
            <dt>
              <kbd>{row.keys}</kbd>
            </dt>
            <dd>{shortcutLabel(row, t)}</dd>
          </div>
        ))}
      </dl>
    </SettingsSection>
  );
}

// The agent's tools in Settings (docs/tools.md, "Settings"): on or off, ask before write/edit/bash
// or not, network for commands, and the command time limit; every change applies at once.
import { useTranslation } from 'react-i18next';
import { TOOL_TIMEOUT_RANGE } from '../../../../shared/tools';
import type { Settings } from '../../../../shared/settings';
import { useActions } from '../../store/app-store';
import { CommitField, SelectField, SettingsSection } from './fields';

export function ToolsSection({ tools }: { tools: Settings['tools'] }) {
  const { t } = useTranslation();
  const actions = useActions();
  const onOff = [
    { value: 'on', label: t('settings.on') },
    { value: 'off', label: t('settings.off') },
  ] as const;
  const toggle = (key: 'enabled' | 'network', value: 'on' | 'off') =>
    void actions.updateSettings(`tools.${key}`, { tools: { [key]: value === 'on' } });
  return (
    <SettingsSection id="settings-tools" title={t('settings.sections.tools')}>
      <p className="muted">{t('settings.toolsEnabledHint')}</p>
      <div className="field-grid">
        <SelectField
          label={t('settings.toolsEnabled')}
          fieldPath="tools.enabled"
          testId="settings-tools-enabled"
          value={tools.enabled ? 'on' : 'off'}
          options={[...onOff]}
          onSelect={(value) => toggle('enabled', value)}
        />
        <SelectField
          label={t('settings.toolsApproval')}
          fieldPath="tools.approval"
          testId="settings-tools-approval"
          value={tools.approval}
          options={[
            { value: 'ask', label: t('settings.approvalAsk') },
            { value: 'auto', label: t('settings.approvalAuto') },
          ]}
          onSelect={(approval) => void actions.updateSettings('tools.approval', { tools: { approval } })}
        />
        <SelectField
          label={t('settings.toolsNetwork')}
          fieldPath="tools.network"
          testId="settings-tools-network"
          value={tools.network ? 'on' : 'off'}
          options={[...onOff]}
          onSelect={(value) => toggle('network', value)}
        />
        <CommitField
          label={t('settings.toolsTimeout')}
          fieldPath="tools.timeoutMs"
          testId="settings-tools-timeout"
          kind="number"
          value={tools.timeoutMs}
          toPatch={(timeoutMs) => ({ tools: { timeoutMs } })}
          hint={`${TOOL_TIMEOUT_RANGE.min}–${TOOL_TIMEOUT_RANGE.max} ${TOOL_TIMEOUT_RANGE.unit}`}
        />
      </div>
    </SettingsSection>
  );
}

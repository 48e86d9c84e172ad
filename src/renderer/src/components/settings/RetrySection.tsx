// The retry settings: the Auto-retry switch (a real checkbox), the switch that schedules a wait
// above the maximum delay (retry.scheduleLongWaits), and the numeric knobs of the `retry` group, each applied at once via settings.update — retry.enabled lives in the settings like the
// rest, and the session reads it from there.
import type { ParseKeys } from 'i18next';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { RetrySettings } from '../../../../shared/settings';
import { useActions, useAppState } from '../../store/app-store';
import { CommitField, FieldError, SettingsSection } from './fields';

type NumericKey = 'maxRetries' | 'baseDelayMs' | 'maxDelayMs' | 'jitterMaxMs' | 'timeoutMs' | 'keepAliveLimitMinutes';

const NUMERIC_FIELDS: { key: NumericKey; labelKey: ParseKeys; testId: string }[] = [
  { key: 'maxRetries', labelKey: 'settings.maxRetries', testId: 'settings-max-retries' },
  { key: 'baseDelayMs', labelKey: 'settings.baseDelay', testId: 'settings-base-delay' },
  { key: 'maxDelayMs', labelKey: 'settings.maxDelay', testId: 'settings-max-delay' },
  { key: 'jitterMaxMs', labelKey: 'settings.jitter', testId: 'settings-jitter' },
  { key: 'timeoutMs', labelKey: 'settings.timeout', testId: 'settings-timeout' },
  { key: 'keepAliveLimitMinutes', labelKey: 'settings.keepAliveLimit', testId: 'settings-keep-alive-limit' },
];

export function RetrySection({ retry }: { retry: RetrySettings }) {
  const { t } = useTranslation();
  return (
    <SettingsSection id="settings-retry" title={t('settings.sections.retry')}>
      <SwitchField
        fieldPath="retry.enabled"
        testId="settings-auto-retry"
        label={t('settings.autoRetry')}
        hint={t('settings.autoRetryHint')}
        checked={retry.enabled}
        toPatch={(enabled) => ({ retry: { enabled } })}
      />
      <SwitchField
        fieldPath="retry.scheduleLongWaits"
        testId="settings-schedule-long-waits"
        label={t('settings.scheduleLongWaits')}
        hint={t('settings.scheduleLongWaitsHint')}
        checked={retry.scheduleLongWaits}
        toPatch={(scheduleLongWaits) => ({ retry: { scheduleLongWaits } })}
      />
      <div className="field-grid">
        {NUMERIC_FIELDS.map(({ key, labelKey, testId }) => (
          <CommitField
            key={key}
            label={t(labelKey)}
            fieldPath={`retry.${key}`}
            testId={testId}
            kind="number"
            value={retry[key]}
            toPatch={(value) => ({ retry: { [key]: value } })}
          />
        ))}
      </div>
    </SettingsSection>
  );
}

interface SwitchFieldProps {
  fieldPath: string;
  testId: string;
  label: string;
  hint: string;
  checked: boolean;
  toPatch: (checked: boolean) => Record<string, unknown>;
}

/** One on/off setting of the group: a real checkbox, applied at once, its error under it. */
function SwitchField({ fieldPath, testId, label, hint, checked, toPatch }: SwitchFieldProps) {
  const actions = useActions();
  const id = useId();
  const hasError = useAppState((s) => Boolean(s.settings.fieldErrors[fieldPath]));
  return (
    <div className="field field-switch">
      <input
        id={id}
        type="checkbox"
        className="switch"
        data-testid={testId}
        checked={checked}
        aria-describedby={`${id}-hint${hasError ? ` ${id}-error` : ''}`}
        onChange={(event) => void actions.updateSettings(fieldPath, toPatch(event.target.checked))}
      />
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <p className="field-hint" id={`${id}-hint`}>
        {hint}
      </p>
      <FieldError fieldPath={fieldPath} label={label} testId={testId} errorId={`${id}-error`} />
    </div>
  );
}

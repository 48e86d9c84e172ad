// The retry settings: the Auto-retry switch (a real checkbox) and the numeric knobs of the `retry`
// group, each applied at once via settings.update — retry.enabled lives in the settings like the
// rest, and the session reads it from there.
import type { ParseKeys } from 'i18next';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { RetrySettings } from '../../../../shared/settings';
import { useActions, useAppState } from '../../store/app-store';
import { CommitField, FieldError, SettingsSection } from './fields';

type NumericKey = 'maxRetries' | 'baseDelayMs' | 'maxDelayMs' | 'jitterMaxMs' | 'timeoutMs';

const NUMERIC_FIELDS: { key: NumericKey; labelKey: ParseKeys; testId: string }[] = [
  { key: 'maxRetries', labelKey: 'settings.maxRetries', testId: 'settings-max-retries' },
  { key: 'baseDelayMs', labelKey: 'settings.baseDelay', testId: 'settings-base-delay' },
  { key: 'maxDelayMs', labelKey: 'settings.maxDelay', testId: 'settings-max-delay' },
  { key: 'jitterMaxMs', labelKey: 'settings.jitter', testId: 'settings-jitter' },
  { key: 'timeoutMs', labelKey: 'settings.timeout', testId: 'settings-timeout' },
];

export function RetrySection({ retry }: { retry: RetrySettings }) {
  const { t } = useTranslation();
  const actions = useActions();
  const id = useId();
  const hasError = useAppState((s) => Boolean(s.settings.fieldErrors['retry.enabled']));
  return (
    <SettingsSection id="settings-retry" title={t('settings.sections.retry')}>
      <div className="field field-switch">
        <input
          id={id}
          type="checkbox"
          className="switch"
          data-testid="settings-auto-retry"
          checked={retry.enabled}
          aria-describedby={`${id}-hint${hasError ? ` ${id}-error` : ''}`}
          onChange={(event) =>
            void actions.updateSettings('retry.enabled', { retry: { enabled: event.target.checked } })
          }
        />
        <label htmlFor={id} className="field-label">
          {t('settings.autoRetry')}
        </label>
        <p className="field-hint" id={`${id}-hint`}>
          {t('settings.autoRetryHint')}
        </p>
        <FieldError
          fieldPath="retry.enabled"
          label={t('settings.autoRetry')}
          testId="settings-auto-retry"
          errorId={`${id}-error`}
        />
      </div>
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

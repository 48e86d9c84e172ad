// Settings → About (docs/hosts.md, "Updates"): the running version, the update channel, what the
// desktop updater is doing — checking, downloading, ready to install when Resolute quits with
// nothing running — and "Check for updates". Where there is no updater (the browser mode, a
// .deb/.rpm install, a development run) it says why and offers no button.
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { UpdateState } from '../../../../shared/updates';
import { useActions, useAppState } from '../../store/app-store';
import { SettingsSection } from './fields';

function updateText(update: UpdateState, t: TFunction): string {
  switch (update.state) {
    case 'off':
      return t(`settings.about.off.${update.reason}`);
    case 'downloading':
      return t('settings.about.downloading', { version: update.version, percent: update.percent });
    case 'ready':
      return t('settings.about.ready', { version: update.version });
    case 'error':
      return t('settings.about.error', { message: update.message });
    default:
      return t(`settings.about.${update.state}`);
  }
}

export function AboutSection() {
  const { t } = useTranslation();
  const actions = useActions();
  const status = useAppState((s) => s.settings.updates);
  const [asking, setAsking] = useState(false);
  if (!status) return null;
  const { update } = status;
  const canCheck = update.state !== 'off' && update.state !== 'ready';
  const check = () => {
    setAsking(true);
    void actions.checkForUpdates().finally(() => setAsking(false));
  };
  return (
    <SettingsSection id="settings-about" title={t('settings.sections.about')} testId="settings-about">
      <dl className="shortcut-list">
        <div className="shortcut-row">
          <dt>{t('settings.about.version')}</dt>
          <dd data-testid="about-version">{status.version}</dd>
        </div>
        <div className="shortcut-row">
          <dt>{t('settings.about.channel')}</dt>
          <dd data-testid="about-channel">
            {status.channel === 'latest' ? t('settings.about.stable') : status.channel}
          </dd>
        </div>
      </dl>
      <p className="field-hint" role="status" data-testid="about-update">
        {updateText(update, t)}
      </p>
      {canCheck ? (
        <button
          type="button"
          className="button"
          data-testid="about-check"
          disabled={asking || update.state === 'checking' || update.state === 'downloading'}
          onClick={check}
        >
          {t('settings.about.check')}
        </button>
      ) : null}
    </SettingsSection>
  );
}

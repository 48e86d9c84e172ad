// The Settings pane: a left-hand index of its sections, what a new user needs first first (provider
// and model, keys, the agent and its tools, MCP servers, then retries, the decision table, the
// fallback models, the simulator, language and theme, keyboard shortcuts, About) and the sections
// themselves. It renders the settings the store holds (settings.get on
// connect, then settings_changed); every control applies its change at once, and an accepted
// change is confirmed by a quiet "Saved".
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppState } from '../../store/app-store';
import { goToSection } from '../../util/go-to-section';
import { useFocusRequest } from '../../util/use-focus-target';
import type { FocusTarget } from '../../store/state';
import { DecisionTable } from './DecisionTable';
import { AppearanceSection, ShortcutsSection, SimulatorSection } from './GeneralSection';
import { FallbackListEditor } from './FallbackListEditor';
import { ProvidersSection } from './ProvidersSection';
import { RetrySection } from './RetrySection';
import { AgentSection } from './AgentSection';
import { ToolsSection } from './ToolsSection';
import { McpSection } from './McpSection';
import { AboutSection } from './AboutSection';

/** Each section's anchor id and the i18n key of its title, in page order. */
export const SETTINGS_SECTIONS = [
  ['settings-model', 'settings.sections.model'],
  ['settings-keys', 'settings.sections.keys'],
  ['settings-agent', 'settings.sections.agent'],
  ['settings-tools', 'settings.sections.tools'],
  ['settings-mcp', 'settings.sections.mcp'],
  ['settings-retry', 'settings.sections.retry'],
  ['settings-table', 'settings.sections.table'],
  ['settings-fallback', 'settings.sections.fallback'],
  ['settings-simulator', 'settings.sections.simulator'],
  ['settings-appearance', 'settings.sections.appearance'],
  ['settings-shortcuts', 'settings.sections.shortcuts'],
  ['settings-about', 'settings.sections.about'],
] as const;

/** A request for one of the sections (the palette's "Settings: …"). */
const isSection = (target: FocusTarget): boolean => target.startsWith('settings-');

/** How long "Saved" shows after a change, ms. */
const SAVED_MS = 2000;

export function SettingsView() {
  const { t } = useTranslation();
  const settings = useAppState((s) => s.settings.values);
  // Its sections are on the page once the settings are.
  useFocusRequest((target) => settings !== null && isSection(target), goToSection);
  return (
    <section className="settings" aria-labelledby="settings-title">
      <header className="pane-header">
        <h1 className="pane-title" id="settings-title">
          {t('settings.title')}
        </h1>
        <SavedStatus />
      </header>
      <div className="settings-body">
        <nav className="settings-index" aria-label={t('settings.index')}>
          <ul>
            {SETTINGS_SECTIONS.map(([id, key]) => (
              <li key={id}>
                <a
                  href={`#${id}`}
                  className="link"
                  onClick={(event) => {
                    event.preventDefault();
                    goToSection(id);
                  }}
                >
                  {t(key)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="pane-scroll" data-testid="settings-scroll">
          {settings ? (
            <>
              <ProvidersSection provider={settings.provider} />
              <AgentSection agent={settings.agent} />
              <ToolsSection tools={settings.tools} />
              <McpSection mcp={settings.mcp} />
              <RetrySection retry={settings.retry} />
              <DecisionTable retry={settings.retry} />
              <FallbackListEditor settings={settings} />
              <SimulatorSection simulator={settings.simulator} />
              <AppearanceSection ui={settings.ui} />
              <ShortcutsSection />
              <AboutSection />
            </>
          ) : (
            <p className="pane-empty">{t('history.loading')}</p>
          )}
        </div>
      </div>
    </section>
  );
}

/** "Saved" for a moment after each accepted change; a polite status, so it is announced but never steals focus. */
function SavedStatus() {
  const { t } = useTranslation();
  const savedCount = useAppState((s) => s.ui.savedCount);
  const [shownFor, setShownFor] = useState(0);
  useEffect(() => {
    if (savedCount === 0) return;
    const show = setTimeout(() => setShownFor(savedCount), 0);
    const hide = setTimeout(() => setShownFor(0), SAVED_MS);
    return () => {
      clearTimeout(show);
      clearTimeout(hide);
    };
  }, [savedCount]);
  return (
    <span className="saved-status" role="status" data-testid="settings-saved">
      {shownFor > 0 ? `✓ ${t('settings.saved')}` : ''}
    </span>
  );
}

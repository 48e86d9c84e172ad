// The agent's instructions in Settings (docs/tools.md, "Instructions"): the person's own system
// prompt — a multi-line field applied when it loses focus or on Ctrl/Cmd+Enter — and whether it is
// added to Resolute's own instructions or replaces Resolute's own words (the facts of the
// workspace, the tools and the date stay either way); and each chat's spending cap, `agent.budget`
// (docs/tools.md, "The spending cap"): dollars and/or tokens, an empty field for no limit.
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Settings } from '../../../../shared/settings';
import { SYSTEM_PROMPT_MAX_CHARS } from '../../../../shared/settings-values';
import { useActions, useAppState } from '../../store/app-store';
import { CommitField, FieldError, SelectField, SettingsSection } from './fields';

export function AgentSection({ agent }: { agent: Settings['agent'] }) {
  const { t } = useTranslation();
  const actions = useActions();
  return (
    <SettingsSection id="settings-agent" title={t('settings.sections.agent')}>
      <SystemPromptField value={agent.systemPrompt} />
      <div className="field-grid field-grid-wide">
        <SelectField
          label={t('settings.systemPromptMode')}
          fieldPath="agent.systemPromptMode"
          testId="settings-system-prompt-mode"
          value={agent.systemPromptMode}
          options={[
            { value: 'add', label: t('settings.systemPromptAdd') },
            { value: 'replace', label: t('settings.systemPromptReplace') },
          ]}
          onSelect={(systemPromptMode) =>
            void actions.updateSettings('agent.systemPromptMode', { agent: { systemPromptMode } })
          }
        />
      </div>
      <div className="field-grid">
        <CommitField
          label={t('settings.budgetUsd')}
          fieldPath="agent.budget.usd"
          testId="settings-budget-usd"
          kind="number"
          isClearable
          value={agent.budget.usd}
          toPatch={(usd) => ({ agent: { budget: { usd } } })}
        />
        <CommitField
          label={t('settings.budgetTokens')}
          fieldPath="agent.budget.tokens"
          testId="settings-budget-tokens"
          kind="number"
          isClearable
          value={agent.budget.tokens}
          toPatch={(tokens) => ({ agent: { budget: { tokens } } })}
          hint={t('settings.budgetHint')}
        />
      </div>
    </SettingsSection>
  );
}

function SystemPromptField({ value }: { value: string }) {
  const { t } = useTranslation();
  const actions = useActions();
  const hasError = useAppState((s) => Boolean(s.settings.fieldErrors['agent.systemPrompt']));
  const [draft, setDraft] = useState(value);
  const area = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  // Follow outside changes (another window) unless the person is editing here.
  useEffect(() => {
    if (document.activeElement !== area.current) setDraft(value);
  }, [value]);
  const commit = () => {
    if (draft !== value || hasError)
      void actions.updateSettings('agent.systemPrompt', { agent: { systemPrompt: draft } });
  };
  const label = t('settings.systemPrompt');
  return (
    <div className="field field-textarea">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <textarea
        ref={area}
        id={id}
        className="input system-prompt-input"
        data-testid="settings-system-prompt"
        rows={6}
        maxLength={SYSTEM_PROMPT_MAX_CHARS}
        value={draft}
        placeholder={t('settings.systemPromptPlaceholder')}
        aria-describedby={`${id}-hint`}
        aria-invalid={hasError || undefined}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) commit();
        }}
      />
      <p className="field-hint" id={`${id}-hint`}>
        {t('settings.systemPromptHint')}
      </p>
      <FieldError
        fieldPath="agent.systemPrompt"
        label={label}
        testId="settings-system-prompt"
        errorId={`${id}-error`}
      />
    </div>
  );
}

// The agent's instructions in Settings (docs/tools.md, "Instructions"): the person's own system
// prompt — a multi-line field applied when it loses focus or on Ctrl/Cmd+Enter — and whether it is
// added to Resolute's own instructions or replaces Resolute's own words (the facts of the
// workspace, the tools and the date stay either way); and the spending caps of `agent.budget`
// (docs/tools.md, "The spending cap"), each chat's and all chats' per day: dollars and/or tokens,
// an empty field for no limit.
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
        <BudgetField limit="usd" value={agent.budget.usd} label={t('settings.budgetUsd')} />
        <BudgetField
          limit="tokens"
          value={agent.budget.tokens}
          label={t('settings.budgetTokens')}
          hint={t('settings.budgetHint')}
        />
        <BudgetField limit="usd" perDay value={agent.budget.perDay?.usd} label={t('settings.budgetDayUsd')} />
        <BudgetField
          limit="tokens"
          perDay
          value={agent.budget.perDay?.tokens}
          label={t('settings.budgetDayTokens')}
          hint={t('settings.budgetDayHint')}
        />
      </div>
    </SettingsSection>
  );
}

/** One limit of `agent.budget`, per chat or (`perDay`) for all chats per day; empty = no limit. */
function BudgetField(props: {
  limit: 'usd' | 'tokens';
  perDay?: boolean;
  value?: number;
  label: string;
  hint?: string;
}) {
  const { limit, perDay = false, value, label, hint } = props;
  const path = perDay ? `perDay.${limit}` : limit;
  return (
    <CommitField
      label={label}
      fieldPath={`agent.budget.${path}`}
      testId={`settings-budget-${perDay ? 'day-' : ''}${limit}`}
      kind="number"
      isClearable
      value={value}
      toPatch={(v) => ({ agent: { budget: perDay ? { perDay: { [limit]: v } } : { [limit]: v } } })}
      hint={hint}
    />
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

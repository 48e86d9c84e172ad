// The model of the current provider, chosen in the chat header or in Settings: a text field with
// the provider's model list as suggestions (the browser's own searchable list), free text allowed
// for a model the list does not know yet. Commits on Enter, on picking from the list, and on leaving
// the field; the model applies to this conversation's next request and to later ones.
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ModelInfo } from '../../../../shared/events';
import { useActions, useAppState } from '../../store/app-store';

interface ModelPickerProps {
  model: Pick<ModelInfo, 'id' | 'provider'>;
  testId?: string;
  /** The label shows (Settings) or names the field for screen readers only (the chat header). */
  isLabelVisible?: boolean;
}

export function ModelPicker({ model, testId = 'model-picker', isLabelVisible = false }: ModelPickerProps) {
  const { t } = useTranslation();
  const actions = useActions();
  const id = useId();
  const models = useAppState((s) => s.settings.providers.find((p) => p.id === model.provider)?.models);
  const error = useAppState((s) => s.settings.fieldErrors['provider.model']);
  const [draft, setDraft] = useState(model.id);
  const [shown, setShown] = useState(model.id);
  if (shown !== model.id) {
    // The model changed elsewhere (Settings, another window): show it.
    setShown(model.id);
    setDraft(model.id);
  }
  useEffect(() => {
    if (!models) void actions.loadProviders();
  }, [actions, models]);

  const commit = (value: string): void => {
    const next = value.trim();
    if (!next || next === model.id) return;
    void actions.updateSettings('provider.model', { provider: { model: next } });
  };
  return (
    <div className={isLabelVisible ? 'field' : 'model-picker'}>
      <label htmlFor={id} className={isLabelVisible ? 'field-label' : 'visually-hidden'}>
        {t('chat.model')}
      </label>
      <input
        id={id}
        className="input model-input"
        data-testid={testId}
        list={`${id}-models`}
        value={draft}
        spellCheck={false}
        autoComplete="off"
        title={t('chat.modelHint')}
        aria-invalid={error ? true : undefined}
        onChange={(event) => {
          setDraft(event.target.value);
          // Picking from the list fires a change with one of its values: apply it at once.
          if (models?.includes(event.target.value)) commit(event.target.value);
        }}
        onBlur={() => commit(draft)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit(draft);
        }}
      />
      <datalist id={`${id}-models`}>
        {(models ?? []).map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
      {isLabelVisible && <p className="field-hint">{t('chat.modelHint')}</p>}
    </div>
  );
}

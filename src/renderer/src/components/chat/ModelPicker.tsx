// The model of the current provider, chosen in the chat header or in Settings: a text field with
// the provider's model list as suggestions (the browser's own searchable list), newest first, each
// with its name, context window, price and whether it reads images or thinks; free text allowed
// for a model the list does not know yet. Commits on Enter, on picking from the list, and on leaving
// the field; the model applies to this conversation's next request and to later ones.
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { ModelDetail } from '../../../../shared/contract';
import type { ModelInfo } from '../../../../shared/events';
import { providerLabel } from '../../i18n/notice-text';
import { useActions, useAppState } from '../../store/app-store';
import { useFocusTarget } from '../../util/use-focus-target';

interface ModelPickerProps {
  model: Pick<ModelInfo, 'id' | 'provider'>;
  testId?: string;
  /** The label shows (Settings) or names the field for screen readers only (the chat header). */
  isLabelVisible?: boolean;
}

export function ModelPicker({ model, testId = 'model-picker', isLabelVisible = false }: ModelPickerProps) {
  const { t, i18n } = useTranslation();
  const actions = useActions();
  const id = useId();
  // The header's picker takes the palette's "Switch model"; the one in Settings does not.
  const inputRef = useFocusTarget<HTMLInputElement>(isLabelVisible ? null : 'model-picker');
  const providers = useAppState((s) => s.settings.providers);
  const info = providers.find((p) => p.id === model.provider);
  const models = info?.models;
  const details = info?.modelDetails ?? [];
  const current = details.find((m) => m.id === model.id);
  const providerName = info ? providerLabel(t, info) : model.provider;
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
      {!isLabelVisible && model.provider !== 'simulator' && (
        // The header names a real provider beside its model (a model id alone does not say whose it is).
        <span className="model-provider" data-testid="chat-provider" aria-hidden="true">
          {providerName}
        </span>
      )}
      <label htmlFor={id} className={isLabelVisible ? 'field-label' : 'visually-hidden'}>
        {isLabelVisible || model.provider === 'simulator' ? t('chat.model') : `${t('chat.model')} (${providerName})`}
      </label>
      <input
        id={id}
        ref={inputRef}
        className="input model-input"
        data-testid={testId}
        list={`${id}-models`}
        value={draft}
        spellCheck={false}
        autoComplete="off"
        title={isLabelVisible ? t('chat.modelHint') : `${draft} — ${t('chat.modelHint')}`}
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
        {details.length > 0
          ? details.map((m) => <option key={m.id} value={m.id} label={modelFacts(t, m, i18n.language, true)} />)
          : (models ?? []).map((m) => <option key={m} value={m} />)}
      </datalist>
      {isLabelVisible && (
        <p className="field-hint" data-testid="model-facts">
          {current ? modelFacts(t, current, i18n.language, true) : t('chat.modelHint')}
        </p>
      )}
    </div>
  );
}

/** A window of tokens the short way: 8K, 200K, 1M. */
function tokens(n: number, language: string): string {
  return new Intl.NumberFormat(language, { notation: 'compact', maximumFractionDigits: 1 }).format(n);
}

/** What the picker says of a model: its name, window, price and what it can do. */
export function modelFacts(t: TFunction, m: ModelDetail, language: string, withName: boolean): string {
  const usd = (n: number) => `$${Number(n.toFixed(3))}`;
  const parts = [
    ...(withName && m.name !== m.id ? [m.name] : []),
    t('picker.context', { size: tokens(m.contextWindow, language) }),
    m.price === null
      ? t('picker.noPrice')
      : m.price.input === 0 && m.price.output === 0
        ? t('picker.free')
        : t('picker.price', { input: usd(m.price.input), output: usd(m.price.output) }),
    ...(m.images ? [t('picker.images')] : []),
    ...(m.reasoning ? [t('picker.thinks')] : []),
  ];
  return parts.join(' · ');
}

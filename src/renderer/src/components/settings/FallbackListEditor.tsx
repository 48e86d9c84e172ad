// Settings → Providers → Fallback models (docs/retry-policy.md, "Fallback models"): the ordered
// provider/model pairs a usage limit switches to, under the first choice. Rows reorder by drag or
// by the arrow keys on their handle; every change is sent at once as the whole list, and a refused
// one (an unknown model, a duplicate) keeps the rows as typed with the main process's message.
import { useEffect, useId, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ModelRef, Settings } from '../../../../shared/settings';
import { PROVIDER_IDS, type ProviderId } from '../../../../shared/settings-values';
import { providerLabelById } from '../../i18n/notice-text';
import { useActions, useAppState } from '../../store/app-store';
import { FieldError, SettingsSection } from './fields';

const FIELD = 'providers.fallback';

/** `list` with the row at `from` moved to `to`. */
function moveRow<T>(list: readonly T[], from: number, to: number): T[] {
  if (from === to || to < 0 || to >= list.length) return [...list];
  const next = [...list];
  const [row] = next.splice(from, 1);
  next.splice(to, 0, row);
  return next;
}

export function FallbackListEditor({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  const actions = useActions();
  const providers = useAppState((s) => s.settings.providers);
  const saved = settings.providers.fallback;
  const [rows, setRows] = useState<ModelRef[]>(saved);
  const [shownSaved, setShownSaved] = useState(saved);
  const [dragged, setDragged] = useState<number | null>(null);
  const handles = useRef<(HTMLButtonElement | null)[]>([]);
  const focusAfter = useRef<number | null>(null);

  // Follow the saved list (another window, a reconnect); a refused draft stays until it is fixed.
  if (shownSaved !== saved) {
    setShownSaved(saved);
    setRows(saved);
  }
  useEffect(() => {
    if (focusAfter.current !== null) handles.current[focusAfter.current]?.focus();
    focusAfter.current = null;
  });

  const commit = (next: ModelRef[]): void => {
    setRows(next);
    void actions.updateSettings(FIELD, { providers: { fallback: next } });
  };
  const modelsOf = (id: ProviderId) => providers.find((p) => p.id === id)?.models ?? [];
  const labelOf = (id: ProviderId) => providerLabelById(t, providers, id);
  const move = (from: number, to: number): void => {
    if (to < 0 || to >= rows.length) return;
    focusAfter.current = to;
    commit(moveRow(rows, from, to));
  };
  const onHandleKey = (event: KeyboardEvent, index: number): void => {
    const step = event.key === 'ArrowUp' ? -1 : event.key === 'ArrowDown' ? 1 : 0;
    if (step === 0) return;
    event.preventDefault();
    move(index, index + step);
  };
  const dragProps = (index: number) => ({
    draggable: true,
    onDragStart: (event: DragEvent) => {
      event.dataTransfer.effectAllowed = 'move';
      setDragged(index);
    },
    onDragOver: (event: DragEvent) => event.preventDefault(),
    onDrop: (event: DragEvent) => {
      event.preventDefault();
      if (dragged !== null) move(dragged, index);
      setDragged(null);
    },
    onDragEnd: () => setDragged(null),
  });
  const addRow = (): void => {
    const provider = settings.provider.id;
    const unused = modelsOf(provider).find((model) => !rows.some((r) => r.provider === provider && r.model === model));
    commit([...rows, { provider, model: unused ?? '' }]);
  };

  return (
    <SettingsSection id="settings-fallback" title={t('settings.sections.fallback')} testId="fallback-editor">
      <p className="section-hint">{t('settings.fallback.hint')}</p>
      <p className="fallback-first">{t('settings.fallback.first', { model: settings.provider.model })}</p>
      {rows.length === 0 ? (
        <p className="field-hint">{t('settings.fallback.empty')}</p>
      ) : (
        <ol className="fallback-list">
          {rows.map((row, index) => (
            <li
              key={`${index}:${row.provider}`}
              className={`fallback-row${dragged === index ? ' fallback-row-dragged' : ''}`}
              data-testid="fallback-row"
              {...dragProps(index)}
            >
              <button
                type="button"
                className="fallback-handle"
                ref={(el) => {
                  handles.current[index] = el;
                }}
                aria-label={t('settings.fallback.handle', { model: row.model || index + 1 })}
                data-testid="fallback-handle"
                onKeyDown={(event) => onHandleKey(event, index)}
              >
                ⋮⋮
              </button>
              <select
                className="select"
                aria-label={t('settings.fallback.providerLabel', { n: index + 1 })}
                data-testid="fallback-provider"
                value={row.provider}
                onChange={(event) => {
                  const provider = event.target.value as ProviderId;
                  commit(rows.map((r, i) => (i === index ? { provider, model: modelsOf(provider)[0] ?? '' } : r)));
                }}
              >
                {PROVIDER_IDS.map((id) => (
                  <option key={id} value={id}>
                    {labelOf(id)}
                  </option>
                ))}
              </select>
              <ModelInput
                value={row.model}
                models={modelsOf(row.provider)}
                label={t('settings.fallback.modelLabel', { n: index + 1 })}
                onCommit={(model) => commit(rows.map((r, i) => (i === index ? { ...r, model } : r)))}
              />
              <button
                type="button"
                className="button button-small"
                aria-label={t('settings.fallback.remove', { model: row.model || index + 1 })}
                data-testid="fallback-remove"
                onClick={() => commit(rows.filter((_, i) => i !== index))}
              >
                {t('settings.remove')}
              </button>
            </li>
          ))}
        </ol>
      )}
      <FieldError
        fieldPath={FIELD}
        label={t('settings.sections.fallback')}
        testId="fallback"
        errorId="fallback-error"
      />
      <div className="fallback-actions">
        {/* A new row starts on a model the provider offers: wait for the list (pi-ai's catalogue loads on demand). */}
        <button
          type="button"
          className="button"
          data-testid="fallback-add"
          disabled={providers.length === 0}
          onClick={addRow}
        >
          {t('settings.fallback.add')}
        </button>
        <ProvidersToggle
          name="newSessionUsesFirstChoice"
          testId="fallback-new-session-first"
          checked={settings.providers.newSessionUsesFirstChoice}
          label={t('settings.fallback.newSessionFirst')}
        />
        <ProvidersToggle
          name="keepFailoverModel"
          testId="fallback-keep-failover"
          checked={settings.providers.keepFailoverModel}
          label={t('settings.fallback.keepFailover')}
        />
      </div>
    </SettingsSection>
  );
}

/** A switch of the `providers` group, saved at once. */
function ProvidersToggle(props: {
  name: 'newSessionUsesFirstChoice' | 'keepFailoverModel';
  testId: string;
  checked: boolean;
  label: string;
}) {
  const actions = useActions();
  const { name } = props;
  return (
    <label className="toggle">
      <input
        type="checkbox"
        data-testid={props.testId}
        checked={props.checked}
        onChange={(event) =>
          void actions.updateSettings(`providers.${name}`, { providers: { [name]: event.target.checked } })
        }
      />
      {props.label}
    </label>
  );
}

/** A model id with the provider's models as suggestions; commits on Enter and on blur. */
function ModelInput(props: { value: string; models: string[]; label: string; onCommit: (model: string) => void }) {
  const [draft, setDraft] = useState(props.value);
  const [shown, setShown] = useState(props.value);
  const listId = `${useId()}-models`;
  if (shown !== props.value) {
    setShown(props.value);
    setDraft(props.value);
  }
  const commit = (): void => {
    if (draft.trim() !== props.value) props.onCommit(draft.trim());
  };
  return (
    <>
      <input
        className="input"
        aria-label={props.label}
        data-testid="fallback-model"
        list={listId}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit();
        }}
      />
      <datalist id={listId}>
        {props.models.slice(0, 200).map((model) => (
          <option key={model} value={model} />
        ))}
      </datalist>
    </>
  );
}

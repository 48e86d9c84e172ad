// Settings form fields that apply at once: a text/number field commits on Enter, on blur and
// after a short pause in typing; a select commits on change. A value the main process refuses
// keeps the typed text and shows its message next to the field (from settings.fieldErrors).
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useActions, useAppState } from '../../store/app-store';

/** One section of the pane: an anchor for the index, a heading that can take focus. */
interface SectionProps {
  id: string;
  title: string;
  testId?: string;
  children: ReactNode;
}

export function SettingsSection({ id, title, testId, children }: SectionProps) {
  return (
    <section className="settings-section" id={id} aria-labelledby={`${id}-title`} data-testid={testId}>
      <h2 className="section-title" id={`${id}-title`} tabIndex={-1}>
        {title}
      </h2>
      {children}
    </section>
  );
}

/** Pause after the last keystroke before a typed value is applied, ms. */
const COMMIT_PAUSE_MS = 700;

interface FieldErrorProps {
  fieldPath: string;
  /** The field's label: the message names the field by it, not by its settings key. */
  label: string;
  testId: string;
  errorId: string;
}

/** The main process names fields by their settings key ("retry.maxRetries: must be …"): keep only the words. */
function withoutKeys(message: string): string {
  return message
    .split('; ')
    .map((part) => part.replace(/^[\w.-]+: /, ''))
    .join('; ');
}

/** The error line under a field, worded with its label; its id is the field's aria-describedby. */
export function FieldError({ fieldPath, label, testId, errorId }: FieldErrorProps) {
  const { t } = useTranslation();
  const error = useAppState((s) => s.settings.fieldErrors[fieldPath]);
  if (!error) return null;
  return (
    <p className="field-error" id={errorId} role="alert" data-testid={`${testId}-error`}>
      {t('settings.fieldError', { label, message: withoutKeys(error) })}
    </p>
  );
}

export interface CommitFieldProps {
  label: string;
  /** Hide the label visually (tables label by column); the input keeps it as its name. */
  isLabelHidden?: boolean;
  fieldPath: string;
  testId: string;
  kind: 'number' | 'text' | 'url';
  value: number | string | undefined;
  /** Empty input → null (clear an override) instead of "" (which the main process refuses). */
  isClearable?: boolean;
  toPatch: (value: unknown) => Record<string, unknown>;
  hint?: ReactNode;
  suffix?: ReactNode;
  /** Instead of settings.update: how to apply the value (the simulator script re-arms through its own command). */
  apply?: (value: unknown) => void;
  /** Enter applies the value even when it is unchanged (entering the same script again re-arms it). */
  isEnterAlwaysApplied?: boolean;
}

export function CommitField(props: CommitFieldProps) {
  const { label, fieldPath, testId, kind, value, isClearable, toPatch, hint, suffix } = props;
  const actions = useActions();
  const hasError = useAppState((s) => Boolean(s.settings.fieldErrors[fieldPath]));
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const shown = value === undefined ? '' : String(value);
  const [draft, setDraft] = useState(shown);
  const inputRef = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const lastSent = useRef<string | null>(null);

  // Follow outside changes (another window, a reconnect) unless the person is editing here.
  useEffect(() => {
    if (document.activeElement !== inputRef.current) setDraft(shown);
  }, [shown]);
  useEffect(() => () => clearPending(timer), []);

  const commit = (text: string, force = false): void => {
    clearPending(timer);
    if (!force && text === shown && !hasError) return;
    if (!force && text === lastSent.current && hasError) return;
    lastSent.current = text;
    const parsed = parseDraft(text, kind, isClearable);
    if (props.apply) props.apply(parsed);
    else void actions.updateSettings(fieldPath, toPatch(parsed));
  };

  return (
    <div className={`field field-${kind}`}>
      <label htmlFor={id} className={props.isLabelHidden ? 'visually-hidden' : 'field-label'}>
        {label}
      </label>
      <div className="field-control">
        <input
          ref={inputRef}
          id={id}
          className="input"
          type={kind === 'number' ? 'number' : 'text'}
          inputMode={kind === 'number' ? 'numeric' : undefined}
          spellCheck={false}
          data-testid={testId}
          value={draft}
          aria-invalid={hasError || undefined}
          aria-describedby={[hasError ? errorId : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined}
          onChange={(event) => {
            const text = event.target.value;
            setDraft(text);
            clearPending(timer);
            timer.current = setTimeout(() => commit(text), COMMIT_PAUSE_MS);
          }}
          onBlur={() => commit(draft)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') commit(draft, props.isEnterAlwaysApplied);
          }}
        />
        {suffix}
      </div>
      {hint && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
      <FieldError fieldPath={fieldPath} label={label} testId={testId} errorId={errorId} />
    </div>
  );
}

/** What to send for a draft: a number when it reads as one, else the raw text so the main process names the problem. */
function parseDraft(text: string, kind: CommitFieldProps['kind'], isClearable = false): unknown {
  if (kind !== 'number') return text;
  if (text.trim() === '') return isClearable ? null : '';
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}

function clearPending(timer: { current: ReturnType<typeof setTimeout> | null }): void {
  if (timer.current) clearTimeout(timer.current);
  timer.current = null;
}

export interface SelectFieldProps<V extends string> {
  label: string;
  isLabelHidden?: boolean;
  fieldPath: string;
  testId: string;
  value: V;
  options: { value: V; label: string }[];
  onSelect: (value: V) => void;
}

export function SelectField<V extends string>(props: SelectFieldProps<V>) {
  const id = useId();
  const hasError = useAppState((s) => Boolean(s.settings.fieldErrors[props.fieldPath]));
  return (
    <div className="field field-select">
      <label htmlFor={id} className={props.isLabelHidden ? 'visually-hidden' : 'field-label'}>
        {props.label}
      </label>
      <select
        id={id}
        className="select"
        data-testid={props.testId}
        value={props.value}
        aria-invalid={hasError || undefined}
        aria-describedby={hasError ? `${id}-error` : undefined}
        onChange={(event) => props.onSelect(event.target.value as V)}
      >
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldError fieldPath={props.fieldPath} label={props.label} testId={props.testId} errorId={`${id}-error`} />
    </div>
  );
}

// The chat header's instructions chip (docs/thinking-and-context.md): "Using AGENTS.md" (or
// CLAUDE.md) when the workspace has one, which opens the text the model reads (and says when it
// was cut), and this conversation's own instructions — added to Resolute's words or replacing
// them, in place of Settings → Agent's — set, changed or removed from the same panel. Read again
// whenever the session or its workspace changes, and when a run has ended (a new AGENTS.md shows
// at the next turn) — not at every stored turn, which put two requests on a failure's way to the
// retry banner.
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SessionInstructions } from '../../../../shared/contract';
import { useActions, useAppState } from '../../store/app-store';

/** How long a run must have stayed over before the instructions are read again, ms. */
const SETTLED_MS = 300;

export function InstructionsChip() {
  const { t } = useTranslation();
  const actions = useActions();
  const id = useId();
  const sessionId = useAppState((s) => s.session.sessionId);
  const workspace = useAppState((s) => s.session.workspace);
  // Null while a run or its retry wait lasts: one read when it is over, none per stored turn.
  const settledTurns = useAppState((s) =>
    s.session.isStreaming || s.session.isRetrying ? null : s.session.turns.length,
  );
  const [info, setInfo] = useState<SessionInstructions | null>(null);
  const [isOpen, setOpen] = useState(false);
  // Which session and workspace the last read was for: a run starting changes nothing the chip
  // shows, but another chat brought forward mid-run must be read at once.
  const readFor = useRef<string | null>(null);
  useEffect(() => {
    const key = JSON.stringify([sessionId, workspace]);
    const isOtherChat = readFor.current !== key;
    if (settledTurns === null && !isOtherChat) return;
    const read = (): void => {
      readFor.current = key;
      // A read is kept unless another chat or workspace was asked for since (a run starting is not).
      void actions.call('session.instructions', {}).then((next) => {
        if (readFor.current === key && next) setInfo(next);
      });
    };
    if (isOtherChat) return read();
    // Between a failed attempt's end and its retry's start the run looks over for a moment.
    const timer = setTimeout(read, SETTLED_MS);
    return () => clearTimeout(timer);
  }, [actions, sessionId, workspace, settledTurns]);
  if (!info) return null;
  const label = info.project ? t('instructions.using', { file: info.project.file }) : t('instructions.chip');
  return (
    <div className="instructions-chip">
      <button
        type="button"
        className={`chip${info.override ? ' chip-active' : ''}`}
        aria-expanded={isOpen}
        aria-controls={id}
        data-testid="instructions-chip"
        onClick={() => setOpen(!isOpen)}
      >
        {label}
        {info.override && <span className="chip-note">{t('instructions.ownSet')}</span>}
      </button>
      {isOpen && <InstructionsPanel id={id} info={info} onChange={setInfo} onClose={() => setOpen(false)} />}
    </div>
  );
}

interface PanelProps {
  id: string;
  info: SessionInstructions;
  onChange: (info: SessionInstructions) => void;
  onClose: () => void;
}

function InstructionsPanel({ id, info, onChange, onClose }: PanelProps) {
  const { t } = useTranslation();
  return (
    <div
      id={id}
      className="context-popover instructions-panel"
      role="group"
      aria-label={t('instructions.title')}
      data-testid="instructions-panel"
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        onClose();
      }}
    >
      {info.project ? (
        <>
          <h2 className="panel-heading">{t('instructions.fromFile', { file: info.project.file })}</h2>
          <pre className="instructions-text" tabIndex={0} data-testid="instructions-text">
            {info.project.text}
          </pre>
          {info.project.truncated && <p className="context-note">{t('instructions.truncated')}</p>}
        </>
      ) : (
        <p className="context-note">{t('instructions.noFile')}</p>
      )}
      <OwnInstructions id={`${id}-own`} info={info} onChange={onChange} />
    </div>
  );
}

/** This conversation's own instructions: the text, how it applies, Save and Remove. */
function OwnInstructions({ id, info, onChange }: Omit<PanelProps, 'onClose'>) {
  const { t } = useTranslation();
  const actions = useActions();
  const [text, setText] = useState(info.override?.text ?? '');
  const [mode, setMode] = useState<'add' | 'replace'>(info.override?.mode ?? 'add');
  const [error, setError] = useState<string | null>(null);
  const save = async (override: SessionInstructions['override']): Promise<void> => {
    const result = await actions.setInstructions(override);
    if (typeof result === 'string') return setError(result);
    setError(null);
    onChange(result);
    if (!override) setText('');
  };
  return (
    <>
      <label className="panel-heading" htmlFor={id}>
        {t('instructions.own')}
      </label>
      <textarea
        id={id}
        className="input instructions-own"
        rows={4}
        value={text}
        data-testid="instructions-own"
        aria-invalid={error ? true : undefined}
        onChange={(event) => setText(event.target.value)}
      />
      <p className="context-note">{t('instructions.ownHint')}</p>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="panel-actions">
        <select
          className="input"
          aria-label={t('instructions.mode')}
          value={mode}
          data-testid="instructions-mode"
          onChange={(event) => setMode(event.target.value as 'add' | 'replace')}
        >
          <option value="add">{t('instructions.add')}</option>
          <option value="replace">{t('instructions.replace')}</option>
        </select>
        <button
          type="button"
          className="button button-small button-primary"
          data-testid="instructions-save"
          onClick={() => void save({ text, mode })}
        >
          {t('instructions.save')}
        </button>
        {info.override && (
          <button
            type="button"
            className="button button-small"
            data-testid="instructions-clear"
            onClick={() => void save(null)}
          >
            {t('instructions.clear')}
          </button>
        )}
      </div>
    </>
  );
}

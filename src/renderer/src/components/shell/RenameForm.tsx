// Renaming a session in place in the sidebar: Enter (or Save) keeps the new title, Esc cancels;
// either way focus goes back to the session's row (the caller's onDone).
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SessionSummary } from '../../../../shared/history';
import { useActions } from '../../store/app-store';

export function RenameForm({ session, onDone }: { session: SessionSummary; onDone: () => void }) {
  const { t } = useTranslation();
  const actions = useActions();
  const [title, setTitle] = useState(session.title);
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => ref.current?.select(), []);

  const save = async (): Promise<void> => {
    const next = title.trim();
    if (next && next !== session.title) await actions.call('history.rename', { sessionId: session.id, title: next });
    onDone();
  };
  return (
    <form
      className="rename-form"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <label className="visually-hidden" htmlFor={`rename-${session.id}`}>
        {t('nav.newTitle')}
      </label>
      <input
        ref={ref}
        id={`rename-${session.id}`}
        className="input"
        data-testid="rename-input"
        value={title}
        maxLength={200}
        onChange={(event) => setTitle(event.target.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Escape') return;
          // Esc here cancels the rename; the window's Esc (stop a stream) must not fire too.
          event.preventDefault();
          onDone();
        }}
      />
      <button type="submit" className="button button-small" data-testid="rename-save">
        {t('nav.save')}
      </button>
    </form>
  );
}

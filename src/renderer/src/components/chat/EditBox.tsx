// Editing one of the person's messages in place: a text box with the old text, Send (edit and
// resend: a new branch from this message on; the old one stays in the history) and Cancel (or Esc).
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useActions } from '../../store/app-store';

interface EditBoxProps {
  turnId: string;
  initial: string;
  onSent: () => void;
  onCancel: () => void;
}

export function EditBox({ turnId, initial, onSent, onCancel }: EditBoxProps) {
  const { t } = useTranslation();
  const actions = useActions();
  const [text, setText] = useState(initial);
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => ref.current?.focus(), []);

  const send = async (): Promise<void> => {
    if (!text.trim()) return;
    if (await actions.edit(turnId, text)) {
      onSent();
      actions.requestFocus('composer');
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.nativeEvent.isComposing) return;
    if (event.key === 'Escape') {
      // The Esc of the window (stop a stream) must not also fire.
      event.preventDefault();
      onCancel();
    } else if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void send();
    }
  };
  return (
    <div className="edit-box">
      <textarea
        ref={ref}
        className="composer-input"
        data-testid="edit-input"
        aria-label={t('actions.editBox')}
        rows={3}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="composer-actions">
        <button type="button" className="button" data-testid="edit-cancel" onClick={onCancel}>
          {t('actions.cancelEdit')}
        </button>
        <button
          type="button"
          className="button button-primary"
          data-testid="edit-send"
          disabled={!text.trim()}
          onClick={() => void send()}
        >
          {t('actions.sendEdited')}
        </button>
      </div>
    </div>
  );
}

// Editing one of the person's messages in place: a text box with the old text, Send (edit and
// resend: a new branch from this message on; the old one stays in the history) and Cancel (or Esc).
// The message's attachments go again unless removed here (the chips' × buttons).
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AttachmentBlock } from '../../../../shared/messages';
import { useActions } from '../../store/app-store';
import { SentAttachments } from './AttachmentChips';

interface EditBoxProps {
  turnId: string;
  initial: string;
  attachments?: AttachmentBlock[];
  onSent: () => void;
  onCancel: () => void;
}

export function EditBox({ turnId, initial, attachments = [], onSent, onCancel }: EditBoxProps) {
  const { t } = useTranslation();
  const actions = useActions();
  const [text, setText] = useState(initial);
  const [kept, setKept] = useState(() => attachments.map((_, i) => i));
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => ref.current?.focus(), []);
  const canSend = text.trim().length > 0 || kept.length > 0;

  const send = async (): Promise<void> => {
    if (!canSend) return;
    const keep = kept.length === attachments.length ? undefined : kept;
    if (await actions.edit(turnId, text.trim(), keep)) {
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
      <SentAttachments
        blocks={attachments}
        kept={kept}
        onRemove={(index) => setKept((current) => current.filter((i) => i !== index))}
      />
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
          disabled={!canSend}
          onClick={() => void send()}
        >
          {t('actions.sendEdited')}
        </button>
      </div>
    </div>
  );
}

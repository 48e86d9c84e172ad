// The composer: a textarea where Enter sends and Shift+Enter adds a line, a Send button, and a
// Stop button (global abort) while a turn streams or a retry waits. Enter during IME composition
// (Japanese, Korean) confirms the conversion instead of sending. After a failure the person's
// message is put back (`restore`), unless they have typed something else meanwhile; sent as it
// is, it goes as the card's Resend does (a new branch from that message), never as a second copy.
import { openCommandPalette } from '../palette/CommandPalette';
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useActions, useAppState } from '../../store/app-store';
import { useFocusTarget } from '../../util/use-focus-target';

interface ComposerProps {
  /** The message of an exchange that failed for good, keyed by its card, and its stored turn. */
  restore: { key: string; text: string; turnId: string } | null;
}

export function Composer({ restore }: ComposerProps) {
  const { t } = useTranslation();
  const actions = useActions();
  const isBusy = useAppState(
    (s) => s.session.isStreaming || s.retry.banner?.kind === 'pending' || s.session.pacing !== null,
  );
  const returnedDraft = useAppState((s) => s.ui.returnedDraft);
  const isConnected = useAppState((s) => s.ui.connection === 'connected');
  const [text, setText] = useState('');
  const inputRef = useFocusTarget<HTMLTextAreaElement>('composer');
  const restored = useRef<ComposerProps['restore']>(null);
  const canSend = isConnected && !isBusy && text.trim().length > 0;
  // A prompt held for a rate limit and stopped before it was sent comes back here (once).
  const [takenDraft, setTakenDraft] = useState(returnedDraft);
  if (returnedDraft !== takenDraft) {
    setTakenDraft(returnedDraft);
    if (returnedDraft) setText((current) => current || returnedDraft.text);
  }

  useEffect(() => {
    if (restore && restore.key !== restored.current?.key) {
      restored.current = restore;
      setText((current) => current || restore.text);
    } else if (!restore && restored.current) {
      // Retried or resent from the card: the text put back has done its job.
      const done = restored.current.text;
      restored.current = null;
      setText((current) => (current === done ? '' : current));
    }
  }, [restore]);

  const send = async (): Promise<void> => {
    if (!canSend) return;
    const sent = text;
    setText('');
    restored.current = null;
    const isResend = restore !== null && sent.trim() === restore.text.trim();
    const started = isResend ? actions.edit(restore.turnId, restore.text) : actions.prompt(sent);
    // A refused prompt (e.g. while disconnected) gives the text back rather than losing it.
    if (!(await started)) setText((current) => current || sent);
    inputRef.current?.focus();
  };

  const onSubmit = (event: FormEvent): void => {
    event.preventDefault();
    void send();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    // "/" at the start of an empty message opens the command palette instead of typing itself.
    if (event.key === '/' && text === '') {
      event.preventDefault();
      openCommandPalette();
      return;
    }
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void send();
  };

  return (
    <form className="composer" onSubmit={onSubmit}>
      <textarea
        ref={inputRef}
        className="composer-input"
        data-testid="chat-input"
        aria-label={t('chat.inputLabel')}
        placeholder={t('chat.placeholder')}
        rows={3}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="composer-actions">
        {isBusy && (
          <button
            type="button"
            className="button button-danger"
            data-testid="stop-button"
            aria-label={t('chat.stop')}
            onClick={() => void actions.abort().then(() => actions.requestFocus('composer'))}
          >
            {t('chat.stop')}
          </button>
        )}
        <button
          type="submit"
          className="button button-primary"
          data-testid="send-button"
          aria-label={t('chat.send')}
          disabled={!canSend}
        >
          {t('chat.send')}
        </button>
      </div>
    </form>
  );
}

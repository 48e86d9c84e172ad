// The composer: a textarea where Enter sends and Shift+Enter adds a line, a Send button, and a
// Stop button (global abort) while a turn streams or a prompt is held; while a retry waits, the
// banner's Cancel is the one control and Stop is not shown (useRetryWaiting, retry/RetryBanner.tsx). Enter during IME composition
// (Japanese, Korean) confirms the conversion instead of sending. Each chat has its own draft —
// words, files and refill — kept across chat switches, views and a reload (chat/drafts.ts). After a
// failure the person's message is put back (`restore`), unless they have typed something else
// meanwhile; sent as it is, it goes as the card's Resend does (a new branch from that message),
// never as a second copy.
// Files come by the Attach button (a real <input type="file">), by a drop onto the chat (ChatView
// hands them over through `fileSinkRef`), by pasting an image, or by pasting a long text (it goes as
// a file, attachments/long-paste.ts); they wait as chips (AttachmentChips) and go with Enter, the
// text then optional (docs/attachments.md).
import {
  useEffect,
  useRef,
  useState,
  type Dispatch,
  type SetStateAction,
  type ClipboardEvent,
  type FormEvent,
  type KeyboardEvent,
  type MutableRefObject,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useActions, useAppState } from '../../store/app-store';
import { useFocusTarget } from '../../util/use-focus-target';
import { useRetryWaiting } from '../../retry/RetryBanner';
import { sendHeldText } from '../../retry/send-held';
import { useNow } from '../../util/use-now';
import { pendingFromUploads, readFiles, refusalsFor, type PendingFile } from '../../attachments/pending-files';
import { longPaste } from '../../attachments/long-paste';
import { ATTACHMENT_LIMITS, attachmentKind, MESSAGE_TEXT_MAX_CHARS } from '../../../../shared/attachments';
import { PendingChips } from './AttachmentChips';
import { draftOf, keepDraft, splitAtShow, type AskedMark, type Draft } from '../../chat/drafts';

interface ComposerProps {
  /** The message of an exchange that failed for good, keyed by its card, and its stored turn. */
  restore: { key: string; text: string; turnId: string } | null;
  /** Where the chat puts the function that takes dropped files. */
  fileSinkRef?: MutableRefObject<((files: File[]) => void) | null>;
}

/** A PDF within the message's cap (a larger one is refused at Send, not read). */
const isPdf = (file: PendingFile): boolean =>
  file.data !== '' &&
  attachmentKind(file.name, file.mimeType) === 'pdf' &&
  file.size <= ATTACHMENT_LIMITS.maxTotalBytes;

export function Composer({ restore, fileSinkRef }: ComposerProps) {
  const { t, i18n } = useTranslation();
  const actions = useActions();
  const isBusy = useAppState(
    (s) => s.session.isStreaming || s.retry.banner?.kind === 'pending' || s.session.pacing !== null,
  );
  const retryWaits = useRetryWaiting();
  const returnedDraft = useAppState((s) => s.ui.returnedDraft);
  const isConnected = useAppState((s) => s.ui.connection === 'connected');
  const acceptsImages = useAppState((s) => s.session.model?.acceptsImages);
  const [unreadable, setUnreadable] = useState<string[]>([]);
  const [refusedBySend, setRefusedBySend] = useState<string | null>(null);
  // The length of a paste too long even for a file: nothing was added, and this says why.
  const [pasteTooLong, setPasteTooLong] = useState<number | null>(null);
  const { chatRef, isOpeningRef, text, setText, files, setFiles, refill, setRefill } = useChatDraft(() => {
    setUnreadable([]);
    setRefusedBySend(null);
    setPasteTooLong(null);
  });
  const inputRef = useFocusTarget<HTMLTextAreaElement>('composer');
  // The palette's "Attach files…": a click, while its key press still counts as the person's gesture.
  const attachRef = useFocusTarget<HTMLInputElement>('attach-picker', (input) => input.click());
  const refusals = refusalsFor(files, acceptsImages, t, i18n.language);
  const textLength = text.trim().length;
  const canSend =
    isConnected &&
    !isBusy &&
    (textLength > 0 || files.length > 0) &&
    textLength <= MESSAGE_TEXT_MAX_CHARS &&
    refusals.length === 0;

  const addFiles = async (list: File[]): Promise<void> => {
    if (list.length === 0) return;
    setRefusedBySend(null);
    setPasteTooLong(null);
    const readFor = chatRef.current;
    const forChatAskedFor = isOpeningRef.current;
    const { read, failed } = await readFiles(list);
    // A PDF's text is read now, off the main thread, so that Send does not wait for it.
    for (const file of read) if (isPdf(file)) actions.prepareAttachment(file);
    // Read while the person moved to another chat: the files go to the draft they were added to
    // (added after New chat was asked for, they are the new chat's).
    if (readFor !== null && chatRef.current !== readFor && !forChatAskedFor) {
      const draft = draftOf(readFor);
      return keepDraft(readFor, { ...draft, files: [...draft.files, ...read] });
    }
    setFiles((current) => [...current, ...read]);
    setUnreadable(failed.map((f) => f.name));
  };
  const removeFile = (id: string): void => {
    setRefusedBySend(null);
    setFiles((current) => current.filter((file) => file.id !== id));
    inputRef.current?.focus();
  };
  useEffect(() => {
    if (!fileSinkRef) return;
    fileSinkRef.current = (list) => void addFiles(list);
    return () => {
      fileSinkRef.current = null;
    };
  });
  // A prompt held for a rate limit and stopped before it was sent comes back here (once), its
  // files as chips again unless others were attached meanwhile.
  const [takenDraft, setTakenDraft] = useState(returnedDraft);
  if (returnedDraft !== takenDraft) {
    setTakenDraft(returnedDraft);
    if (returnedDraft) setText((current) => current || returnedDraft.text);
    const given = returnedDraft?.attachments ?? [];
    if (given.length) setFiles((current) => (current.length ? current : pendingFromUploads(given)));
  }

  useEffect(() => {
    if (restore && restore.key !== refill?.key) {
      setRefill({ key: restore.key, text: restore.text });
      setText((current) => current || restore.text);
    } else if (!restore && refill) {
      // Retried or resent from the card: the text put back has done its job (words typed since stay).
      const done = refill.text;
      setRefill(null);
      setText((current) => (current === done ? '' : current));
    }
  }, [restore, refill, setRefill, setText]);

  // Enter while this chat's retry waits (hours, when scheduled): the note under the box says why
  // nothing went, until the wait ends.
  const [heldTried, setHeldTried] = useState(false);
  if (heldTried && !retryWaits) setHeldTried(false);
  const send = async (): Promise<void> => {
    if (retryWaits && (textLength > 0 || files.length > 0)) setHeldTried(true);
    if (!canSend) return;
    if (files.length > 0) return sendWithFiles(files);
    return sendText();
  };

  const sendText = async (): Promise<void> => {
    const sent = text;
    setText('');
    setRefill(null);
    const isResend = restore !== null && sent.trim() === restore.text.trim();
    const started = isResend ? actions.edit(restore.turnId, restore.text) : actions.prompt(sent);
    // A refused prompt (e.g. while disconnected) gives the text back rather than losing it.
    if (!(await started)) setText((current) => current || sent);
    inputRef.current?.focus();
  };

  // The text and the files stay until the main process accepted them; a refusal is said here.
  const sendWithFiles = async (sending: PendingFile[]): Promise<void> => {
    const sent = text;
    setRefill(null);
    const uploads = sending.map(({ name, mimeType, data }) => ({ name, mimeType, data }));
    const refused = await actions.promptWithAttachments(sent.trim(), uploads);
    setRefusedBySend(refused);
    if (refused === null) {
      setText((current) => (current === sent ? '' : current));
      setFiles((current) => current.filter((file) => !sending.includes(file)));
    }
    inputRef.current?.focus();
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>): void => {
    const pasted = [...event.clipboardData.files];
    const long = pasted.length ? null : longPaste(event.clipboardData.getData('text/plain'), fileNames(files));
    if (long?.kind === 'inline') return;
    event.preventDefault();
    if (long?.kind === 'too_long') setPasteTooLong(long.chars);
    else void addFiles(long ? [long.file] : pasted);
  };

  // What its label says: the images go, and the rest is sent — unless something else still stops it.
  const sendWithoutImages = (): void => {
    const kept = files.filter((file) => !file.mimeType.startsWith('image/'));
    setFiles(kept);
    const isSendable = isConnected && !isBusy && (text.trim().length > 0 || kept.length > 0);
    if (!isSendable || refusalsFor(kept, acceptsImages, t, i18n.language).length > 0) {
      inputRef.current?.focus();
      return;
    }
    void (kept.length > 0 ? sendWithFiles(kept) : sendText());
  };

  const onSubmit = (event: FormEvent): void => {
    event.preventDefault();
    void send();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    // "/" at the start of an empty message opens the command palette instead of typing itself.
    if (event.key === '/' && text === '') {
      event.preventDefault();
      actions.requestFocus('palette-typed');
      return;
    }
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void send();
  };

  const count = (n: number): string => new Intl.NumberFormat(i18n.language).format(n);
  const problems = [
    ...(textLength > MESSAGE_TEXT_MAX_CHARS
      ? [t('chat.tooLong', { count: count(textLength), max: count(MESSAGE_TEXT_MAX_CHARS) })]
      : []),
    ...(pasteTooLong === null
      ? []
      : [t('attach.pasteTooLong', { count: count(pasteTooLong), max: count(ATTACHMENT_LIMITS.maxTextChars) })]),
    ...refusals.map((r) => r.text),
    ...unreadable.map((name) => t('attach.refused.unreadable', { name })),
    ...(refusedBySend ? [refusedBySend] : []),
  ];
  return (
    <form className="composer" onSubmit={onSubmit}>
      <PendingChips files={files} onRemove={removeFile} />
      {problems.length > 0 && (
        <div className="attachment-problems" role="alert" data-testid="attachment-refusal">
          {problems.map((problem) => (
            <p key={problem}>{problem}</p>
          ))}
          {refusals.some((r) => r.code === 'image_to_text_model') && (
            <button type="button" className="button button-small" onClick={sendWithoutImages}>
              {t('attach.sendWithoutImages')}
            </button>
          )}
        </div>
      )}
      {heldTried && <SendHeldNote />}
      <textarea
        ref={inputRef}
        className="composer-input"
        data-testid="chat-input"
        aria-label={t('chat.inputLabel')}
        placeholder={t('chat.placeholder')}
        rows={3}
        value={text}
        onChange={(event) => {
          setPasteTooLong(null);
          setText(event.target.value);
        }}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
      />
      <div className="composer-actions">
        <label className="button composer-attach" title={t('attach.buttonLabel')}>
          <input
            ref={attachRef}
            type="file"
            multiple
            className="visually-hidden"
            data-testid="attach-input"
            aria-label={t('attach.buttonLabel')}
            onChange={(event) => {
              const chosen = [...(event.target.files ?? [])];
              // Cleared, so choosing the same file again still fires a change.
              event.target.value = '';
              void addFiles(chosen);
            }}
          />
          <span aria-hidden="true">{t('attach.button')}</span>
        </label>
        {isBusy && !retryWaits && (
          <button
            type="button"
            className="button button-danger"
            data-testid="stop-button"
            aria-label={t('chat.stop')}
            onClick={() => void actions.call('session.abort', {}).then(() => actions.requestFocus('composer'))}
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

/** Why Enter sent nothing: the chat's retry waits (retry/send-held.ts); the time left stays current. */
function SendHeldNote() {
  const { t, i18n } = useTranslation();
  const banner = useAppState((s) => (s.retry.banner?.kind === 'pending' ? s.retry.banner : null));
  const now = useNow();
  if (!banner) return null;
  return (
    <p className="composer-held" role="status" data-testid="send-held">
      {sendHeldText(t, i18n.language, banner, now)}
    </p>
  );
}

/**
 * The shown chat's draft as the composer's state: swapped in when another chat is shown (`onSwap`
 * clears what was said about the last one's files), kept on every change (chat/drafts.ts).
 */
function useChatDraft(onSwap: () => void): {
  /** The chat shown now, for work that ends after an await. */
  chatRef: { readonly current: string | null };
  /** Whether another chat was asked for and is not shown yet. */
  isOpeningRef: { readonly current: boolean };
  text: string;
  setText: Dispatch<SetStateAction<string>>;
  files: PendingFile[];
  setFiles: Dispatch<SetStateAction<PendingFile[]>>;
  refill: Draft['refill'];
  setRefill: Dispatch<SetStateAction<Draft['refill']>>;
} {
  const shown = useAppState((s) => s.session.sessionId);
  const openings = useAppState((s) => s.ui.openings);
  const [chat, setChat] = useState(shown);
  const [text, setText] = useState(() => draftOf(shown).text);
  const [files, setFiles] = useState(() => draftOf(shown).files);
  const [refill, setRefill] = useState(() => draftOf(shown).refill);
  // The box when the person asked for another chat: what was typed or attached by the time it shows
  // was meant for that chat (New chat, then typing at once), not for the one left.
  const [asked, setAsked] = useState<{ openings: number; mark: AskedMark | null }>({ openings, mark: null });
  if (openings !== asked.openings) setAsked({ openings, mark: { text, files } });
  if (shown !== chat) {
    const draft = draftOf(shown);
    // Before the first snapshot no chat is known: what was typed or dropped meanwhile is that chat's.
    const isFirst = chat === null;
    const split = isFirst ? null : splitAtShow(asked.mark, { text, files }, draft);
    if (split) keepDraft(chat, { ...split.left, refill });
    setAsked({ openings, mark: null });
    setChat(shown);
    setText((current) => (isFirst && current ? current : (split?.shown.text ?? draft.text)));
    setFiles((current) => (isFirst && current.length ? current : (split?.shown.files ?? draft.files)));
    setRefill(draft.refill);
    if (!isFirst) onSwap();
  }
  // Files being read when the person asks for another chat are for the chat asked for.
  const isOpeningRef = useRef(false);
  const isOpening = asked.mark !== null;
  useEffect(() => {
    isOpeningRef.current = isOpening;
  }, [isOpening]);
  const chatRef = useRef(chat);
  useEffect(() => {
    chatRef.current = chat;
    keepDraft(chat, { text, files, refill });
  }, [chat, text, files, refill]);
  return { chatRef, isOpeningRef, text, setText, files, setFiles, refill, setRefill };
}

const fileNames = (files: readonly PendingFile[]): string[] => files.map((file) => file.name);

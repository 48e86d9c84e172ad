// A failed card's Resend (MessageActions' resend entry). When the run changed files before it failed
// and some of those changes are still in place, it offers "Undo those changes first"
// (docs/file-history.md, "In the chat"): ticked, Resend first undoes the run's file changes —
// files.undo of the person's message, with the usual question for a file changed since, nothing
// written over without an answer — and sends the message again only once that undo ran whole. Cancel
// sends nothing; a file that could not be put back is listed and nothing is sent.
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UndoOutcome } from '../../../../shared/file-history';
import type { ErroredChainItem } from '../../chat/chat-items';
import { useActions, useAppState } from '../../store/app-store';
import { ConflictQuestion, FailedFiles } from '../../tools/FileChangesRow';
import { useFileUndo } from '../../tools/use-file-undo';

export function ResendButton({ item }: { item: ErroredChainItem }) {
  const { t } = useTranslation();
  const actions = useActions();
  const checkboxId = useId();
  const sessionId = useAppState((s) => s.session.sessionId) ?? '';
  const [undoFirst, setUndoFirst] = useState(false);
  const [busy, setBusy] = useState(false);
  const prompt = item.prompt;
  const resend = (): void => {
    if (prompt) void actions.edit(prompt.turnId, prompt.text).then(() => actions.requestFocus('composer'));
  };
  const afterUndo = (outcome: UndoOutcome): void => {
    if (!outcome.files.some((f) => f.result === 'failed')) resend();
  };
  const undo = useFileUndo({ sessionId, turnId: prompt?.turnId ?? '' }, 'turn', afterUndo);
  const offersUndo = item.changesInPlace === true;

  const click = async (): Promise<void> => {
    if (!(offersUndo && undoFirst)) return resend();
    setBusy(true);
    try {
      await undo.run(false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        className="button button-small"
        data-testid="card-resend"
        data-action="resend"
        aria-label={t('errored.resendLabel')}
        disabled={busy || undo.question !== null}
        onClick={() => void click()}
      >
        {t('errored.resend')}
      </button>
      {offersUndo && (
        <label className="errored-undo-first" htmlFor={checkboxId}>
          <input
            id={checkboxId}
            type="checkbox"
            data-testid="card-undo-first"
            checked={undoFirst}
            disabled={busy || undo.question !== null}
            onChange={(e) => setUndoFirst(e.target.checked)}
          />
          {t('errored.undoFirst')}
        </label>
      )}
      {(undo.question || undo.failed.length > 0) && (
        <div className="errored-undo-first-answer">
          {undo.question && <ConflictQuestion question={undo.question} answer={undo.answer} cancel={undo.cancel} />}
          <FailedFiles failed={undo.failed} />
        </div>
      )}
    </>
  );
}

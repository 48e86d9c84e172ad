// "Changed 3 files (+41 −7)" under a run that changed files (docs/file-history.md, "In the chat"),
// with Review (each file's diff, files.review), Undo and Redo (files.undo). An undo that finds a
// file changed since the turn writes nothing and asks, per file: keep yours, or take the version
// from before (for a redo: the turn's); Cancel leaves everything as it is. Rendered by ChatItemView
// for the rows file-change-items.ts places; Undo and Redo only while nothing runs. The undo and its
// question live in use-file-undo.ts; the question and the failed list are shared with RestoreFiles.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileChangesItem } from '../chat/file-change-items';
import type { RowState } from '../chat/same-row';
import type { ConflictChoice, FileReview, UndoFilePlan } from '../../../shared/file-history';
import { useActions } from '../store/app-store';
import { DiffView } from './DiffView';
import { useFileUndo, type UndoQuestion } from './use-file-undo';

export function FileChangesRow({ item, row }: { item: FileChangesItem; row: RowState }) {
  const { t } = useTranslation();
  const actions = useActions();
  const [review, setReview] = useState<FileReview[] | null>(null);
  const ids = { sessionId: item.sessionId, turnId: item.userTurnId };
  const refreshReview = async (): Promise<void> => {
    if (review) setReview((await actions.call('files.review', ids)) ?? null);
  };
  const { question, failed, run, answer, cancel } = useFileUndo(ids, 'turn', () => void refreshReview());

  const toggleReview = async (): Promise<void> => {
    if (review) return setReview(null);
    setReview((await actions.call('files.review', ids)) ?? null);
  };

  const isUndone = item.applied === 0;
  const canAct = row.isLive && question === null;
  return (
    <div className="file-changes" data-testid="file-changes" data-undone={isUndone || undefined}>
      <div className="file-changes-head">
        <span className="file-changes-summary" data-testid="file-changes-summary">
          {isUndone
            ? t('files.undone', { count: item.files })
            : t('files.changed', { count: item.files, added: item.added, removed: item.removed })}
        </span>
        <button
          type="button"
          className="button button-small"
          aria-expanded={review !== null}
          onClick={() => void toggleReview()}
        >
          {t('files.review')}
        </button>
        {canAct && item.applied > 0 && (
          <button type="button" className="button button-small" onClick={() => void run(false)}>
            {t('files.undo')}
          </button>
        )}
        {canAct && item.undone > 0 && (
          <button type="button" className="button button-small" onClick={() => void run(true)}>
            {t('files.redo')}
          </button>
        )}
      </div>
      {question && <ConflictQuestion question={question} answer={answer} cancel={cancel} />}
      <FailedFiles failed={failed} />
      {review && <ReviewList files={review} />}
    </div>
  );
}

/** The files an undo could not put back, each with why. */
export function FailedFiles({ failed }: { failed: UndoFilePlan[] }) {
  const { t } = useTranslation();
  if (failed.length === 0) return null;
  return (
    <ul className="file-changes-failed" data-testid="file-changes-failed">
      {failed.map((f) => (
        <li key={f.path}>{t('files.failed', { path: f.path, reason: f.reason ?? '' })}</li>
      ))}
    </ul>
  );
}

/** The question for the files changed since: each answered (keep yours / take), or Cancel. */
export function ConflictQuestion(props: {
  question: UndoQuestion;
  answer: (path: string, choice: ConflictChoice) => void;
  cancel: () => void;
}) {
  const { t } = useTranslation();
  const { question, answer, cancel } = props;
  return (
    <div
      className="file-changes-question"
      role="group"
      aria-label={t('files.conflictTitle')}
      data-testid="file-conflict"
    >
      <p>{t('files.conflictTitle')}</p>
      <ul>
        {question.files.map((f) => (
          <li key={f.path}>
            <code>{f.path}</code>{' '}
            {question.choices[f.path] ? (
              <span>{t(question.choices[f.path] === 'keep' ? 'files.keptAnswer' : 'files.takenAnswer')}</span>
            ) : (
              <>
                <button type="button" className="button button-small" onClick={() => answer(f.path, 'keep')}>
                  {t('files.keep')}
                </button>
                <button type="button" className="button button-small" onClick={() => answer(f.path, 'take')}>
                  {t(question.redo ? 'files.takeTurn' : 'files.takeBefore')}
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
      <button type="button" className="button button-small" onClick={cancel}>
        {t('files.cancel')}
      </button>
    </div>
  );
}

function ReviewList({ files }: { files: FileReview[] }) {
  const { t } = useTranslation();
  return (
    <ul className="file-changes-review" data-testid="file-review">
      {files.map((f) => (
        <li key={f.path}>
          <h3 className="tool-section">
            <code>{f.path}</code> {t(`files.kind.${f.kind}`)}
          </h3>
          {f.diff !== null ? (
            <DiffView diff={f.diff} />
          ) : (
            <p>{t('files.binary', { before: f.beforeSize ?? 0, after: f.afterSize ?? 0 })}</p>
          )}
        </li>
      ))}
    </ul>
  );
}

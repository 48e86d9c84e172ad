// "Restore files to here" on an earlier message of the person (docs/file-history.md, "In the chat"):
// a preview first (files.undo scope `from`, preview: each file and what happens to it, nothing
// written), then Restore undoes that message's run and every later one's, newest first, with the
// same question as Undo for a file changed since. Rendered by MessageActions' restoreFiles entry.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UndoFilePlan } from '../../../shared/file-history';
import { useActions, useAppState } from '../store/app-store';
import { ConflictQuestion, FailedFiles } from './FileChangesRow';
import { useFileUndo } from './use-file-undo';

export function RestoreFiles({ turnId }: { turnId: string }) {
  const { t } = useTranslation();
  const actions = useActions();
  const sessionId = useAppState((s) => s.session.sessionId) ?? '';
  const [preview, setPreview] = useState<UndoFilePlan[] | null>(null);
  const undo = useFileUndo({ sessionId, turnId }, 'from', () => setPreview(null));

  const open = async (): Promise<void> => {
    const outcome = await actions.call('files.undo', { sessionId, turnId, scope: 'from', preview: true });
    setPreview(outcome && outcome.status === 'preview' ? outcome.files : []);
  };
  const close = (): void => {
    undo.cancel();
    setPreview(null);
  };
  return (
    <>
      <button
        type="button"
        className="button button-small"
        data-testid="restore-files"
        aria-expanded={preview !== null}
        onClick={() => void (preview ? close() : open())}
      >
        {t('files.restoreHere')}
      </button>
      {preview && (
        <div className="restore-files" role="group" aria-label={t('files.restoreTitle')} data-testid="restore-preview">
          {preview.length === 0 ? (
            <p>{t('files.restoreNothing')}</p>
          ) : (
            <>
              <p>{t('files.restoreTitle')}</p>
              <ul>
                {preview.map((file) => (
                  <li key={file.path}>
                    <code>{file.path}</code> {t(planWords(file))}
                  </li>
                ))}
              </ul>
            </>
          )}
          {undo.question ? (
            <ConflictQuestion question={undo.question} answer={undo.answer} cancel={close} />
          ) : (
            <div className="restore-files-buttons">
              {preview.length > 0 && (
                <button type="button" className="button button-small" onClick={() => void undo.run(false)}>
                  {t('files.restoreConfirm')}
                </button>
              )}
              <button type="button" className="button button-small" onClick={close}>
                {t('files.cancel')}
              </button>
            </div>
          )}
        </div>
      )}
      <FailedFiles failed={undo.failed} />
    </>
  );
}

/** What the restore will do to one file, in the preview's words. */
function planWords(file: UndoFilePlan) {
  if (file.result === 'already') return 'files.restorePlan.already' as const;
  if (file.conflict) return 'files.restorePlan.conflict' as const;
  return file.action === 'remove' ? ('files.restorePlan.remove' as const) : ('files.restorePlan.restore' as const);
}

// The workspace picker in the chat header (docs/tools.md, "The workspace"): the folder this
// session's tools work in; a click opens the desktop app's folder dialog, or, in the browser mode,
// a path field whose value the main process checks (it must exist, be a folder, and not hold the
// data folder). The renderer never touches the file system itself.
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { noticeText } from '../i18n/notice-text';
import { useActions, useAppState } from '../store/app-store';
import { useLoader } from '../util/use-loader';

/** The last two parts of a path: enough to recognise it in a header. */
function shortPath(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts.length <= 2 ? path : `…/${parts.slice(-2).join('/')}`;
}

function FolderIcon() {
  return (
    <svg className="folder-icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
      <path d="M1.5 3.5h4.2l1.5 1.6h7.3v7.4H1.5z" fill="none" stroke="currentColor" strokeWidth="1.3" />
    </svg>
  );
}

export function WorkspacePicker() {
  const { t } = useTranslation();
  const actions = useActions();
  const workspace = useAppState((s) => s.session.workspace);
  const isBusy = useAppState((s) => s.session.isStreaming || s.session.isRetrying);
  const { data: info } = useLoader(() => actions.call('app.info', {}), []);
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (!workspace) return null;

  const open = () => {
    if (isBusy) return;
    if (info?.canPickFolder) void actions.call('session.pickWorkspace', {});
    else {
      setError(null);
      setDraft(workspace);
    }
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (draft === null) return;
    const problem = await actions.setWorkspace(draft.trim());
    if (problem) setError(problem);
    else setDraft(null);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    // Esc closes the field here instead of stopping a turn.
    event.preventDefault();
    setDraft(null);
  };

  return (
    <div className="workspace-picker">
      <button
        type="button"
        className="button button-small workspace-button"
        data-testid="workspace-button"
        title={isBusy ? t('tools.workspaceBusy') : t('tools.workspaceTitle', { path: workspace })}
        aria-label={t('tools.workspaceTitle', { path: workspace })}
        disabled={isBusy}
        onClick={open}
      >
        <FolderIcon /> <span data-testid="workspace-path">{shortPath(workspace)}</span>
      </button>
      {draft !== null && (
        <form
          className="workspace-form"
          data-testid="workspace-form"
          onSubmit={(e) => void submit(e)}
          onKeyDown={onKeyDown}
        >
          <label className="workspace-label" htmlFor="workspace-input">
            {t('tools.workspacePath')}
          </label>
          <input
            id="workspace-input"
            className="input"
            data-testid="workspace-input"
            autoFocus
            value={draft}
            placeholder={t('tools.workspacePlaceholder')}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'workspace-error' : undefined}
            onChange={(e) => setDraft(e.target.value)}
          />
          {error && (
            <p className="field-error" id="workspace-error" role="alert" data-testid="workspace-error">
              {error}
            </p>
          )}
          <div className="workspace-actions">
            <button type="submit" className="button button-primary button-small" data-testid="workspace-apply">
              {t('tools.workspaceApply')}
            </button>
            <button type="button" className="button button-small" onClick={() => setDraft(null)}>
              {t('tools.workspaceCancel')}
            </button>
          </div>
        </form>
      )}
      {info?.toolsNote && <p className="muted workspace-note">{noticeText(t, info.toolsNote)}</p>}
    </div>
  );
}

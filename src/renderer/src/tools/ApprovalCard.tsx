// The approval card (docs/tools.md, "Approvals"): a tool call that writes, edits or runs a command
// waits here — the command, or the change as a diff — for Allow once, Allow for this session or
// Deny. Keyboard-first: it takes the focus when it appears (once), A / S / D choose, Esc denies (the Esc
// stack, tools/approval-esc.ts). A row of the chat's list, after the tool call it asks about.
import { useEffect, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isMcpTool } from '../../../shared/mcp-values';
import type { ApprovalChoice, ApprovalRequest } from '../../../shared/tools';
import { useActions } from '../store/app-store';
import { useFocusTarget } from '../util/use-focus-target';
import { ApprovalDiff } from './ApprovalDiff';
import { ApprovalText } from './ApprovalText';

const KEYS: Record<string, ApprovalChoice> = { a: 'once', s: 'session', d: 'deny' };
/**
 * The request whose card already took the focus: a long chat's virtualised list unmounts rows
 * scrolled far away and mounts them again, and coming back into view must not take the focus again
 * from where it is — unless it is nowhere (the page's body): a row mounted again while the card had
 * it took the focus with it, and the card's keys worked no more (seen under load).
 */
let focusedRequest: string | null = null;

function Preview({ request }: { request: ApprovalRequest }) {
  const { t } = useTranslation();
  const { preview } = request;
  if (preview.kind === 'command') {
    return (
      <>
        <h3 className="tool-section">{t('tools.command')}</h3>
        <ApprovalText
          requestId={request.id}
          text={preview.command}
          prefix="$ "
          className="tool-command"
          testId="approval-command"
        />
        {preview.timeoutSeconds !== null && (
          <p className="muted">{t('tools.commandTimeout', { seconds: preview.timeoutSeconds })}</p>
        )}
      </>
    );
  }
  if (preview.kind === 'arguments') {
    return (
      <>
        <h3 className="tool-section">{t('tools.arguments')}</h3>
        <ApprovalText
          requestId={request.id}
          text={preview.arguments}
          className="tool-args"
          testId="approval-arguments"
        />
      </>
    );
  }
  return (
    <>
      <h3 className="tool-section">
        {preview.isNewFile ? t('tools.newFile', { path: preview.path }) : t('tools.changeTo', { path: preview.path })}
      </h3>
      {preview.realPath && (
        <p className="approval-real-path" data-testid="approval-real-path">
          {t('tools.realPath', { path: preview.realPath })}
        </p>
      )}
      <ApprovalDiff requestId={request.id} preview={preview} />
    </>
  );
}

export function ApprovalCard({ request }: { request: ApprovalRequest }) {
  const { t } = useTranslation();
  const actions = useActions();
  // The chat opened again while this card waits: the focus request comes here, not to the composer.
  const firstButton = useFocusTarget<HTMLButtonElement>('approval');
  const requestId = request.id;

  useEffect(() => {
    const focusLost = !document.activeElement || document.activeElement === document.body;
    if (focusedRequest === requestId && !focusLost) return;
    focusedRequest = requestId;
    firstButton.current?.focus();
  }, [requestId, firstButton]);

  // The card leaves once answered: the focus goes back to the composer, not to the page body.
  const answer = (choice: ApprovalChoice) =>
    void actions.call('session.approveTool', { id: request.id, choice }).then(() => actions.requestFocus('composer'));
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const choice = KEYS[event.key.toLowerCase()];
    if (!choice || event.altKey || event.ctrlKey || event.metaKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    answer(choice);
  };
  const titleId = `approval-title-${request.id}`;
  return (
    <div className="chat-aid">
      <section
        className="approval-card"
        data-testid="approval-card"
        data-tool={request.toolName}
        role="alertdialog"
        aria-labelledby={titleId}
        onKeyDown={onKeyDown}
      >
        <h2 className="approval-title" id={titleId}>
          {t('tools.approvalTitle', { name: request.toolName })}
        </h2>
        <p className="muted">{t(isMcpTool(request.toolName) ? 'tools.approvalHintMcp' : 'tools.approvalHint')}</p>
        <div className="approval-preview">
          <Preview request={request} />
        </div>
        <div className="approval-actions">
          <button
            ref={firstButton}
            type="button"
            className="button button-primary"
            data-testid="approval-allow-once"
            onClick={() => answer('once')}
          >
            {t('tools.allowOnce')}
          </button>
          <button
            type="button"
            className="button"
            data-testid="approval-allow-session"
            onClick={() => answer('session')}
          >
            {t('tools.allowSession')}
          </button>
          <button
            type="button"
            className="button button-danger"
            data-testid="approval-deny"
            onClick={() => answer('deny')}
          >
            {t('tools.deny')}
          </button>
        </div>
        <p className="approval-keys muted">{t('tools.keys')}</p>
      </section>
    </div>
  );
}

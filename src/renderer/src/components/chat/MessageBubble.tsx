// One chat bubble: the person's message as plain text, the assistant's rendered as Markdown
// (streaming included), or a compact tool result; its time shows on hover and focus. Actions:
// Copy on every message, Edit (and resend) on the person's, Regenerate on the last reply, and the
// versions' switcher where there are several; an answer names the model that gave it (a fallback
// may have). Shared by the live chat and the read-only history transcript (which passes no actions).
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MessageItem } from '../../chat/chat-items';
import { CopyButton } from '../../markdown/CopyButton';
import { Markdown } from '../../markdown/LazyMarkdown';
import { useActions } from '../../store/app-store';
import { formatDateTime } from '../../util/format';
import { BranchSwitch } from './BranchSwitch';
import { EditBox } from './EditBox';

interface BubbleProps {
  item: MessageItem;
  canEdit: boolean;
  canRegenerate: boolean;
}

export function MessageBubble({ item, canEdit, canRegenerate }: BubbleProps) {
  const { t, i18n } = useTranslation();
  const actions = useActions();
  const [isEditing, setIsEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const cancelEdit = (): void => {
    setIsEditing(false);
    // Back to the button that opened the editor, not to the page body.
    requestAnimationFrame(() => editButton.current?.focus());
  };
  if (item.role === 'toolResult') {
    return (
      <div className="bubble bubble-tool" data-testid="message-tool">
        <span className="bubble-role">{t('chat.tool', { name: item.toolName ?? '' })}</span>
        <span className="bubble-text">{item.text}</span>
      </div>
    );
  }
  const isUser = item.role === 'user';
  const time = Number.isFinite(item.createdAt) ? formatDateTime(item.createdAt, i18n.language) : '';
  return (
    <div
      className={`bubble ${isUser ? 'bubble-user' : 'bubble-assistant'}`}
      data-testid={isUser ? 'message-user' : 'message-assistant'}
      data-streaming={item.isStreaming ? 'true' : undefined}
      aria-busy={item.isStreaming || undefined}
    >
      <span className="visually-hidden">{isUser ? t('chat.you') : t('chat.assistant')}: </span>
      {isEditing && item.turnId ? (
        <EditBox turnId={item.turnId} initial={item.text} onSent={() => setIsEditing(false)} onCancel={cancelEdit} />
      ) : isUser || !item.text ? (
        <span className="bubble-text">{item.text || (item.isStreaming ? t('chat.writing') : '')}</span>
      ) : (
        <Markdown text={item.text} className="bubble-text markdown" />
      )}
      {item.stopReason === 'aborted' && <span className="bubble-tag">{t('chat.stopped')}</span>}
      {item.model && !item.isStreaming && (
        <span className="bubble-model" data-testid="answered-by" title={t('chat.answeredBy', { model: item.model })}>
          {item.model}
        </span>
      )}
      {!item.isStreaming && !isEditing && (
        <div className="bubble-actions">
          {item.versions && <BranchSwitch versions={item.versions} />}
          {time && (
            <time className="bubble-time" dateTime={new Date(item.createdAt).toISOString()} data-testid="message-time">
              {t('chat.sentAt', { time })}
            </time>
          )}
          <CopyButton
            text={item.text}
            testId="copy-message"
            label={t('actions.copy')}
            ariaLabel={t('actions.copyMessage')}
          />
          {isUser && canEdit && item.turnId && (
            <button
              ref={editButton}
              type="button"
              className="button button-small"
              data-testid="edit-message"
              aria-label={t('actions.editLabel')}
              onClick={() => setIsEditing(true)}
            >
              {t('actions.edit')}
            </button>
          )}
          {!isUser && canRegenerate && (
            <button
              type="button"
              className="button button-small"
              data-testid="regenerate"
              aria-label={t('actions.regenerateLabel')}
              onClick={() => void actions.regenerate().then(() => actions.requestFocus('composer'))}
            >
              {t('actions.regenerate')}
            </button>
          )}
        </div>
      )}
    </div>
  );
}

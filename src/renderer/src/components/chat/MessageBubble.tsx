// One chat bubble: the person's message as plain text, the assistant's rendered as Markdown
// (streaming included) under its thinking (ThinkingBlock), or a compact tool result; its time shows
// on hover and focus, and its actions (MessageActions.tsx: the versions' switcher where there are
// several, Copy, Edit and resend, Restore files to here, Regenerate) under it; an answer names the model that gave it (a
// fallback may have). Shared by the live chat and the read-only history transcript (where nothing
// live is offered).
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MessageItem } from '../../chat/chat-items';
import { Markdown } from '../../markdown/LazyMarkdown';
import { formatDateTime } from '../../util/format';
import { EditBox } from './EditBox';
import { MessageActions } from './MessageActions';
import type { RowState } from '../../chat/same-row';
import { ThinkingBlock } from './ThinkingBlock';
import { SentAttachments } from './AttachmentChips';

interface BubbleProps {
  item: MessageItem;
  row: RowState;
}

export function MessageBubble({ item, row }: BubbleProps) {
  const { t, i18n } = useTranslation();
  const [isEditing, setIsEditing] = useState(false);
  const bubble = useRef<HTMLDivElement>(null);
  const cancelEdit = (): void => {
    setIsEditing(false);
    // Back to the button that opened the editor, not to the page body.
    requestAnimationFrame(() => bubble.current?.querySelector<HTMLButtonElement>('[data-action="edit"]')?.focus());
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
      ref={bubble}
      className={`bubble ${isUser ? 'bubble-user' : 'bubble-assistant'}`}
      data-testid={isUser ? 'message-user' : 'message-assistant'}
      data-streaming={item.isStreaming ? 'true' : undefined}
      aria-busy={item.isStreaming || undefined}
    >
      <span className="visually-hidden">{isUser ? t('chat.you') : t('chat.assistant')}: </span>
      {item.thinking.map((block, i) => (
        <ThinkingBlock
          key={i}
          block={block}
          isThinking={item.isStreaming && !item.text && i === item.thinking.length - 1}
        />
      ))}
      {isEditing && item.turnId ? (
        <EditBox
          turnId={item.turnId}
          initial={item.text}
          attachments={item.attachments}
          onSent={() => setIsEditing(false)}
          onCancel={cancelEdit}
        />
      ) : isUser || !item.text ? (
        <span className="bubble-text">
          {item.text || (item.isStreaming && item.thinking.length === 0 ? t('chat.writing') : '')}
        </span>
      ) : (
        <Markdown text={item.text} className="bubble-text markdown" />
      )}
      {!isEditing && item.attachments && <SentAttachments blocks={item.attachments} />}
      {item.stopReason === 'aborted' && <span className="bubble-tag">{t('chat.stopped')}</span>}
      {item.model && !item.isStreaming && (
        <span className="bubble-model" data-testid="answered-by" title={t('chat.answeredBy', { model: item.model })}>
          {item.model}
        </span>
      )}
      {!item.isStreaming && !isEditing && (
        <MessageActions item={item} row={row} startEditing={() => setIsEditing(true)} className="bubble-actions">
          {time && (
            <time className="bubble-time" dateTime={new Date(item.createdAt).toISOString()} data-testid="message-time">
              {t('chat.sentAt', { time })}
            </time>
          )}
        </MessageActions>
      )}
    </div>
  );
}

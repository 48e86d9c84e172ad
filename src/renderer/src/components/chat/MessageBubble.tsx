// One chat bubble: a user or assistant message (streaming or stored) or a compact tool result.
// Shared by the live chat and the read-only history transcript.
import { useTranslation } from 'react-i18next';
import type { MessageItem } from '../../chat/chat-items';

export function MessageBubble({ item }: { item: MessageItem }) {
  const { t } = useTranslation();
  if (item.role === 'toolResult') {
    return (
      <li className="bubble bubble-tool" data-testid="message-tool">
        <span className="bubble-role">{t('chat.tool', { name: item.toolName ?? '' })}</span>
        <span className="bubble-text">{item.text}</span>
      </li>
    );
  }
  const isUser = item.role === 'user';
  return (
    <li
      className={`bubble ${isUser ? 'bubble-user' : 'bubble-assistant'}`}
      data-testid={isUser ? 'message-user' : 'message-assistant'}
      data-streaming={item.isStreaming ? 'true' : undefined}
      aria-busy={item.isStreaming || undefined}
    >
      <span className="visually-hidden">{isUser ? t('chat.you') : t('chat.assistant')}: </span>
      <span className="bubble-text">{item.text || (item.isStreaming ? t('chat.writing') : '')}</span>
      {item.stopReason === 'aborted' && <span className="bubble-tag">{t('chat.stopped')}</span>}
      {item.model && !item.isStreaming && (
        <span className="bubble-model" data-testid="answered-by" title={t('chat.answeredBy', { model: item.model })}>
          {item.model}
        </span>
      )}
    </li>
  );
}

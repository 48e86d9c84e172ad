// A reply's thinking, above its words (docs/thinking-and-context.md): "Thinking…" and open while
// the model thinks, collapsed to "Thought for 12 s" once the answer starts, expandable again with
// its button. Redacted thinking (Anthropic) says so and has nothing to expand. MessageBubble
// renders one per thinking block, in the live chat and the read-only history alike.
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ThinkingView } from '../../chat/chat-items';

interface ThinkingBlockProps {
  block: ThinkingView;
  /** The model is still thinking: nothing after this block has streamed yet. */
  isThinking: boolean;
}

export function ThinkingBlock({ block, isThinking }: ThinkingBlockProps) {
  const { t } = useTranslation();
  const id = useId();
  // The person's own choice wins; until they make one, it is open exactly while the model thinks.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const isOpen = !block.redacted && (chosen ?? isThinking);
  const seconds = block.durationMs === null ? null : Math.max(1, Math.round(block.durationMs / 1000));
  const label = isThinking
    ? t('thinking.running')
    : block.redacted
      ? t('thinking.redacted')
      : seconds === null
        ? t('thinking.done')
        : t('thinking.took', { count: seconds });
  return (
    <div className="thinking" data-testid="thinking" data-state={isThinking ? 'thinking' : 'done'}>
      {block.redacted ? (
        <span className="thinking-head">{label}</span>
      ) : (
        <button
          type="button"
          className="thinking-head thinking-toggle"
          aria-expanded={isOpen}
          aria-controls={id}
          data-testid="thinking-toggle"
          onClick={() => setChosen(!isOpen)}
        >
          <span aria-hidden="true" className="thinking-chevron">
            {isOpen ? '▾' : '▸'}
          </span>
          {label}
        </button>
      )}
      <div id={id} className="thinking-text" data-testid="thinking-text" hidden={!isOpen}>
        {block.text}
      </div>
    </div>
  );
}

// What a failed attempt had streamed before it failed (docs/retry-policy.md, "Nothing streamed is
// lost"): its words rendered as a reply, marked where the stream was cut off, its thinking behind
// a disclosure, and the tools it had begun to call. Shown on the failed card (chat and history)
// and, shortened, in each attempt of the retry timeline.
import { useTranslation } from 'react-i18next';
import type { PartialReply } from '../../chat/partial-reply';
import { Markdown } from '../../markdown/LazyMarkdown';

export function PartialReplyView({ partial }: { partial: PartialReply }) {
  const { t } = useTranslation();
  return (
    // A group, not a region: a list of failed cards would hold several landmarks of one name.
    <div role="group" className="partial-reply" data-testid="partial-reply" aria-label={t('errored.partial')}>
      {partial.thinking && (
        <details className="partial-thinking">
          <summary>{t('errored.thinking')}</summary>
          <p className="partial-thinking-text">{partial.thinking}</p>
        </details>
      )}
      {partial.text.trim() && <Markdown text={partial.text} className="bubble-text markdown" />}
      {partial.toolCalls.length > 0 && (
        <p className="partial-tools">{t('errored.begunTools', { list: partial.toolCalls.join(', ') })}</p>
      )}
      <p className="partial-cut" data-testid="partial-cut">
        {t('errored.cutOff')}
      </p>
    </div>
  );
}

/** One line of it for the timeline: the words' start, or nothing. */
export function partialSnippet(partial: PartialReply | null, maxChars = 120): string {
  const text = partial?.text.replace(/\s+/g, ' ').trim() ?? '';
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}

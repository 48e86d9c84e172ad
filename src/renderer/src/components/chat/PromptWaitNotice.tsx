// A local server working on the prompt before its first word (docs/retry-policy.md, "Two clocks"):
// "Processing the prompt… 45 s", counted from when the request went out, with the share where the
// server reports it (llama.cpp's prompt_progress) and Stop, which closes the request so the server
// can stop too. The last row of the chat's list while prompt_processing_start … _end.
import { useTranslation } from 'react-i18next';
import type { PromptWaitView } from '../../store/state';
import { useActions } from '../../store/app-store';
import { useNow } from '../../util/use-now';

export function PromptWaitNotice({ wait }: { wait: PromptWaitView }) {
  const { t } = useTranslation();
  const actions = useActions();
  const now = useNow(1000);
  const seconds = Math.max(0, Math.floor((now - wait.startedAt) / 1000));
  const share =
    wait.total && wait.processed !== undefined ? Math.min(100, Math.floor((wait.processed / wait.total) * 100)) : null;
  return (
    <div className="chat-aid">
      <div className="retry-banner prompt-wait" role="status" aria-live="polite" data-testid="prompt-wait">
        <span className="prompt-wait-text" data-testid="prompt-wait-text">
          {share === null ? t('promptWait.processing', { seconds }) : t('promptWait.progress', { seconds, share })}
        </span>
        <button
          type="button"
          className="button"
          data-testid="prompt-wait-stop"
          onClick={() => void actions.call('session.abort', {})}
        >
          {t('chat.stop')}
        </button>
      </div>
    </div>
  );
}

// ONE element per retry chain. A chain that recovered is a quiet note ("Recovered after 2
// retries", its timeline and cost behind a disclosure); one still retrying, or one whose retry the
// person cancelled, is a neutral card; one that failed is the red Error card: the latest error in the
// app's words (the provider's own text behind a disclosure), each category the chain met, what the app
// decided (counted in retries, as the banner counts: docs/retry-policy.md, "Counting"), what its
// failed attempts cost, what the last one had streamed before it failed, the files its run changed
// before it failed (docs/file-history.md), and its actions
// (MessageActions.tsx: Retry, Resend, Continue when it streamed words, "Check your API key" for an
// authentication error, "Retry at 14:05" for a wait above the maximum delay; a scheduled chain's
// card reads "Retrying at 14:05"). A cut-off reply that Continue went on from is a quiet note: the
// reply after it holds its words.
// Shared by the chat and the history.
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { NO_WORDS_TIMEOUT, type ErrorCategory } from '../../../../shared/error-category';
import { chainCategories, latestAttempt, type ErroredAttempt, type ErroredChainItem } from '../../chat/chat-items';
import { waitTooLongText } from '../../chat/timeline-labels';
import { useNow } from '../../util/use-now';
import { scheduledText } from '../../retry/scheduled-time';
import { SCHEDULE_LIMIT_MS } from '../../../../shared/retry-policy/decision-table';
import type { RetryDecisionRecord } from '../../../../shared/history';
import { FailureCostLine } from './FailureCostLine';
import { MessageActions } from './MessageActions';
import { READ_ONLY, type RowState } from '../../chat/same-row';
import {
  LargerModelButton,
  isOverflowStop,
  useOverflowFacts,
  useOverflowText,
  type OverflowFacts,
} from './OverflowAdvice';
import { PartialReplyView } from './PartialReplyView';
import { RetryTimeline } from './RetryTimeline';

interface CardProps {
  item: ErroredChainItem;
  /** Where the card stands (the live chat's last exchange while nothing runs may be tried again). */
  row?: RowState;
  isExpanded?: boolean;
}

/** A 400 that names images, to a message that carried some: the server (or model) may not read them. */
const IMAGE_REFUSAL = /\b(image|images|vision|multimodal|image_url)\b/i;

export function ErroredChainCard({ item, row = READ_ONLY, isExpanded = false }: CardProps) {
  const { t } = useTranslation();
  const overflowFacts = useOverflowFacts(item);
  const overflowText = useOverflowText(overflowFacts);
  if (item.status === 'recovered') return <RecoveredNote item={item} isExpanded={isExpanded} />;
  if (item.continued) return <ContinuedNote item={item} isExpanded={isExpanded} />;
  if (row.isSettling) return <SettlingCard />;
  const latest = latestAttempt(item);
  const categories = chainCategories(item);
  const isTooLong = isOverflowStop(item) && overflowText !== null;
  const scheduledAt = item.status === 'retrying' ? scheduledTime(item) : undefined;
  const verdict = isTooLong ? (
    overflowText
  ) : scheduledAt !== undefined ? (
    <ScheduledVerdict at={scheduledAt} />
  ) : (
    verdictText(t, item)
  );
  // A retry the person cancelled, or an interrupted one they discarded, is their choice, not an
  // error: a quiet card; a discarded one offers nothing again.
  const isDiscarded = item.discarded === true;
  const isCancelled = item.chain?.outcome === 'cancelled' || isDiscarded;
  return (
    <div
      className={`errored-card errored-card-${isCancelled ? 'cancelled' : item.status}`}
      data-testid="errored-turn-card"
      data-status={item.status}
      data-chain-id={item.chainId ?? undefined}
      data-category={latest.category ?? undefined}
      data-outcome={item.chain?.outcome}
    >
      <div className="errored-head">
        <span className="errored-icon" aria-hidden="true">
          !
        </span>
        <span className="errored-title">
          {item.status === 'retrying'
            ? t('errored.retrying')
            : isDiscarded
              ? t('errored.discardedTitle')
              : isCancelled
                ? t('errored.cancelledTitle')
                : t('errored.title')}
        </span>
        <span className={isCancelled ? 'badge' : 'badge badge-error'} data-testid="errored-category">
          {latest.category ? t(`category.${latest.category}`) : t('errored.unknownCategory')}
        </span>
      </div>
      {latest.partial && <PartialReplyView partial={latest.partial} />}
      <ErrorText category={latest.category} message={latest.errorMessage} />
      {item.prompt?.hadImages && IMAGE_REFUSAL.test(latest.errorMessage ?? '') && (
        <p className="errored-hint" data-testid="errored-image-hint">
          {t('attach.serverRefusedImages')}
        </p>
      )}
      {categories.length > 1 && (
        <p className="errored-categories">
          {t('errored.categoriesMet', { list: categories.map((c) => t(`category.${c}`)).join(' → ') })}
        </p>
      )}
      {verdict && (
        <p className="errored-decision" data-testid="errored-decision">
          <span className="errored-decision-label">{t('errored.decision')}: </span>
          {verdict}
        </p>
      )}
      {item.changedFiles && (
        <p className="errored-hint" data-testid="errored-changed-files">
          {t('errored.changedFiles', { count: item.changedFiles.length, files: item.changedFiles.join(', ') })}
        </p>
      )}
      <FailureCostLine attempts={item.attempts} />
      {item.status === 'failed' && !isDiscarded && (
        <FailedActions item={item} row={row} overflow={isTooLong ? overflowFacts : null} />
      )}
      {(item.attempts.length > 1 || item.decisions.length > 0) && (
        <details className="errored-details" open={isExpanded}>
          <summary>{t('errored.showAttempts')}</summary>
          <RetryTimeline decisions={item.decisions} attempts={item.attempts} chain={item.chain} />
        </details>
      )}
    </div>
  );
}

/** A provider's failure in the app's words (what happened, what to do); the library's own text is behind a disclosure. */
function ErrorText({ category, message }: { category: ErroredAttempt['category']; message: string }) {
  const { t } = useTranslation();
  // The tools' own refusals are already written for the person.
  if (category !== null && isOwnWords(category))
    return (
      <p className="errored-message" data-testid="errored-message">
        {message}
      </p>
    );
  return (
    <>
      <p className="errored-explain" data-testid="errored-explain">
        {category === 'timeout' && message.includes(NO_WORDS_TIMEOUT)
          ? t('explain.timeoutNoWords')
          : t(`explain.${category && category !== 'aborted' ? category : 'unexpected'}`)}
      </p>
      {message && (
        <details className="errored-raw">
          <summary>{t('errored.rawDetails')}</summary>
          <p className="errored-message" data-testid="errored-message">
            {message}
          </p>
        </details>
      )}
    </>
  );
}

const OWN_WORDS = ['sandbox', 'sandbox_security', 'patch_apply'] as const;
type OwnWords = (typeof OWN_WORDS)[number];
const isOwnWords = (category: ErrorCategory): category is OwnWords =>
  (OWN_WORDS as readonly ErrorCategory[]).includes(category);

/** One stable placeholder until the decision and the chain's end arrive (a fraction of a second). */
function SettlingCard() {
  const { t } = useTranslation();
  return (
    <div
      className="errored-card errored-card-settling"
      data-testid="errored-turn-card"
      data-status="settling"
      aria-busy="true"
    >
      <div className="errored-head">
        <span className="errored-icon" aria-hidden="true">
          !
        </span>
        <span className="errored-title">{t('errored.title')}</span>
        <span className="badge" data-testid="errored-category">
          <span aria-hidden="true">…</span>
          <span className="visually-hidden">{t('errored.settling')}</span>
        </span>
      </div>
    </div>
  );
}

function RecoveredNote({ item, isExpanded }: { item: ErroredChainItem; isExpanded: boolean }) {
  const { t } = useTranslation();
  return (
    <div
      className="recovered-note"
      data-testid="recovered-note"
      data-chain-id={item.chainId ?? undefined}
      data-outcome="recovered"
    >
      <details open={isExpanded}>
        <summary>{t('outcome.recovered', { count: item.retries })}</summary>
        <RetryTimeline decisions={item.decisions} attempts={item.attempts} chain={item.chain} />
        <FailureCostLine attempts={item.attempts} />
      </details>
    </div>
  );
}

/** A cut-off reply that Continue went on from: the reply below holds its words, this says what happened. */
function ContinuedNote({ item, isExpanded }: { item: ErroredChainItem; isExpanded: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="recovered-note" data-testid="continued-note" data-chain-id={item.chainId ?? undefined}>
      <details open={isExpanded}>
        <summary>{t('outcome.continued')}</summary>
        <RetryTimeline decisions={item.decisions} attempts={item.attempts} chain={item.chain} />
        <FailureCostLine attempts={item.attempts} />
      </details>
    </div>
  );
}

interface FailedActionsProps {
  item: ErroredChainItem;
  row: RowState;
  /** A message too long for the model: the way on is a model with a larger window, not Retry. */
  overflow: OverflowFacts | null;
}

function FailedActions({ item, row, overflow }: FailedActionsProps) {
  if (overflow)
    return row.isLive && row.isLast && overflow.larger ? (
      <div className="errored-actions">
        <LargerModelButton larger={overflow.larger} item={item} />
      </div>
    ) : null;
  return <MessageActions item={item} row={row} className="errored-actions" />;
}

/** The time the chain's scheduled retry waits for, while it waits (its newest decision says so). */
function scheduledTime(item: ErroredChainItem): number | undefined {
  const last = item.decisions.at(-1);
  return last?.scheduled && last.finalDecision === null ? last.retryAt : undefined;
}

/** "Retrying at 14:05 (in 2 h 13 min)", as the banner says it; what is left is refreshed each second. */
function ScheduledVerdict({ at }: { at: number }) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  return <span data-testid="errored-scheduled">{scheduledText(t, i18n.language, at, now)}</span>;
}

/** A wait above the maximum delay: how long, and — past 24 h — that it is not scheduled. */
function stoppedForWaitText(t: TFunction, decision: RetryDecisionRecord, hintMs: number, maxDelayMs: number): string {
  const text = waitTooLongText(t, hintMs, maxDelayMs);
  return decision.hintMs !== undefined && decision.hintMs > SCHEDULE_LIMIT_MS
    ? `${text}. ${t('errored.notScheduled')}`
    : text;
}

/** What the app decided, in the count the banner uses (retries). */
function verdictText(t: TFunction, item: ErroredChainItem): string {
  const finalDecision = item.decisions.findLast((d) => d.finalDecision === 'abort');
  // The decision record says when the provider asked for more than the maximum delay.
  const { hintMs, maxDelayMs } = finalDecision ?? {};
  switch (item.status) {
    case 'retrying':
      return t('outcome.pending');
    case 'compacted':
      // A failed compaction is never "handled": only a summary that was made says so.
      if (item.compaction?.status === 'done') return t('outcome.compactedDone');
      if (item.compaction?.status === 'failed') return t('outcome.compactedFailed');
      return t('outcome.compacted');
    case 'recovered':
      return t('outcome.recovered', { count: item.retries });
    case 'failed':
    case 'unknown':
      if (finalDecision && hintMs !== undefined && maxDelayMs !== undefined)
        return stoppedForWaitText(t, finalDecision, hintMs, maxDelayMs);
      return failedText(t, item, finalDecision?.reason ?? '');
  }
}

function failedText(t: TFunction, item: ErroredChainItem, reason: string): string {
  const outcome = item.chain?.outcome;
  if (outcome === 'exhausted') return t('outcome.exhausted', { count: item.retries });
  if (item.discarded) return t('outcome.discarded');
  if (outcome === 'cancelled' || outcome === 'disabled' || outcome === 'not_retryable' || outcome === 'interrupted')
    return t(`outcome.${outcome}`);
  if (!reason) return item.status === 'unknown' ? t('errored.notRetried') : '';
  // No chain row yet (a stop of its own): the main process's reason ("auto-retry is turned off").
  return `${t('decisionAction.abort')} — ${reason}`;
}

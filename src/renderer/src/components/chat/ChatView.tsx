// The chat pane: header (title, the model picker, Simulator badge, workspace), the transcript —
// one flat list built by buildChatItems plus the live chat's rows (live-items.ts: approval,
// interrupted turn, Continue, rate-limit wait), rendered one row per item (ChatItemView) — a status
// line, the retry banner and the composer. Which row may offer which action is decided here, once.
// A long session opens on its newest page; older pages are fetched at the top of the transcript.
import { useLayoutEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { buildChatItems, type ChatItem } from '../../chat/chat-items';
import { canContinue, isExchangeItem, withLiveItems } from '../../chat/live-items';
import { useActions, useAppState } from '../../store/app-store';
import { isTurnRunning, type AppState } from '../../store/state';
import { RetryBanner } from '../RetryBanner';
import { WorkspacePicker } from '../tools/WorkspacePicker';
import { ChatItemView, READ_ONLY, type ItemActions } from './ChatItemView';
import { Composer } from './Composer';
import { ModelPicker } from './ModelPicker';

/** The snapshot's title, else the stored one (the history names a session after its first turn). */
function sessionTitle(session: AppState['session'], sessions: AppState['history']['sessions']): string {
  if (session.title) return session.title;
  const stored = sessions.find((s) => s.id === session.sessionId)?.title;
  return stored || (session.turns.find((t) => t.role === 'user')?.text.split('\n')[0] ?? '');
}

/** How close to the bottom (px) still counts as "at the bottom" for auto-scroll. */
const PIN_THRESHOLD_PX = 80;
/** How close to the top (px) fetches the older page (history.turns) of a long session. */
const LOAD_OLDER_PX = 200;

/**
 * Edit any stored message of the person's; regenerate or retry only the last exchange; nothing
 * while a turn runs. A chain offered to continue after a restart is answered on its own card.
 */
function actionsFor(items: ChatItem[], isBusy: boolean, offeredChain: string | null): (item: ChatItem) => ItemActions {
  if (isBusy) return () => READ_ONLY;
  const last = items.findLast(isExchangeItem);
  return (item) => ({
    canEdit: item.kind === 'message' && item.role === 'user' && item.turnId !== null,
    canRegenerate: item === last && item.kind === 'message' && item.role === 'assistant' && item.turnId !== null,
    canRetry: item === last && item.kind === 'errored-chain' && item.chainId !== offeredChain,
  });
}

/** After a failure the person's message goes back into the composer: the last card's prompt, once it failed for good. */
function failedPrompt(items: ChatItem[], offeredChain: string | null): { key: string; text: string } | null {
  const last = items.findLast(isExchangeItem);
  if (last?.kind !== 'errored-chain' || last.status !== 'failed' || !last.prompt) return null;
  return last.chainId !== null && last.chainId === offeredChain ? null : { key: last.key, text: last.prompt.text };
}

export function ChatView() {
  const { t } = useTranslation();
  const session = useAppState(
    useShallow((s) => ({
      model: s.session.model,
      turns: s.session.turns,
      pendingMessages: s.session.pendingMessages,
      streamingMessage: s.session.streamingMessage,
      chains: s.session.chains,
      decisions: s.session.decisions,
      compactions: s.session.compactions,
      isCompacting: s.session.isCompacting,
      activeToolName: s.session.activeToolName,
      toolRuns: s.session.toolRuns,
      pendingApprovals: s.session.pendingApprovals,
    })),
  );
  const live = useAppState(
    useShallow((s) => ({
      approval: s.session.pendingApprovals[0] ?? null,
      interrupted: s.session.interruptedRetry,
      canContinue: canContinue(s),
      pacing: s.session.pacing,
    })),
  );
  const isBusy = useAppState(isTurnRunning);
  const title = useAppState((s) => sessionTitle(s.session, s.history.sessions));
  const hasOlderTurns = useAppState((s) => s.session.hasOlderTurns);
  const actions = useActions();
  const transcript = useMemo(() => buildChatItems(session), [session]);
  const items = useMemo(() => withLiveItems(transcript, live), [transcript, live]);
  const offeredChain = live.interrupted?.chainId ?? null;
  const actionsOf = useMemo(() => actionsFor(items, isBusy, offeredChain), [items, isBusy, offeredChain]);
  const transcriptRef = useRef<HTMLDivElement>(null);
  // Follow new content only while the reader is at the bottom; scrolling up to read stops it, and
  // a message the person sends starts it again (they want to see the answer). An older page joins
  // the front instead: the reader stays where they were (the same distance from the bottom).
  const isPinnedRef = useRef(true);
  const lastSentRef = useRef<string | null>(null);
  const olderRef = useRef<{ fromBottom: number; firstKey: string | undefined } | null>(null);
  useLayoutEffect(() => {
    const el = transcriptRef.current;
    const older = olderRef.current;
    const isOlderPage = older !== null && items[0]?.key !== older.firstKey;
    const lastSent = items.findLast((i) => i.kind === 'message' && i.role === 'user')?.key ?? null;
    if (!isOlderPage && lastSent !== lastSentRef.current) isPinnedRef.current = true;
    lastSentRef.current = lastSent;
    if (!el) return;
    if (isOlderPage) {
      olderRef.current = null;
      el.scrollTop = el.scrollHeight - older.fromBottom;
    } else if (isPinnedRef.current) el.scrollTop = el.scrollHeight;
  }, [items]);
  const loadOlder = (): void => {
    const el = transcriptRef.current;
    if (el) olderRef.current = { fromBottom: el.scrollHeight - el.scrollTop, firstKey: items[0]?.key };
    void actions.loadOlderTurns();
  };

  return (
    <section className="chat" aria-labelledby="chat-title">
      <header className="pane-header">
        <h1 className="pane-title" id="chat-title" data-testid="chat-title">
          {title || t('nav.untitled')}
        </h1>
        {session.model && <ModelPicker model={session.model} />}
        {session.model?.isSimulator && (
          <span className="badge badge-simulator" data-testid="simulator-badge" title={t('app.simulatorHint')}>
            {t('app.simulator')}
          </span>
        )}
        <WorkspacePicker />
      </header>
      <div
        ref={transcriptRef}
        className="transcript"
        data-testid="transcript"
        onScroll={(event) => {
          const el = event.currentTarget;
          isPinnedRef.current = el.scrollHeight - el.scrollTop - el.clientHeight < PIN_THRESHOLD_PX;
          if (hasOlderTurns && el.scrollTop < LOAD_OLDER_PX) loadOlder();
        }}
      >
        {hasOlderTurns && (
          <button type="button" className="button button-small transcript-older" onClick={loadOlder}>
            {t('chat.loadOlder')}
          </button>
        )}
        {items.length === 0 ? (
          <EmptyChat />
        ) : (
          <ol className="transcript-list" aria-label={t('chat.transcript')}>
            {items.map((item) => (
              <ChatItemView key={item.key} item={item} actions={actionsOf(item)} />
            ))}
          </ol>
        )}
      </div>
      {(session.isCompacting || (session.activeToolName && session.pendingApprovals.length === 0)) && (
        <p className="chat-status" data-testid="chat-status">
          {session.isCompacting ? t('chat.compacting') : t('chat.runningTool', { name: session.activeToolName })}
        </p>
      )}
      <RetryBanner />
      <Composer restore={isBusy ? null : failedPrompt(items, offeredChain)} />
    </section>
  );
}

/** A first-run hint: one click sends a prompt whose reply shows what the chat renders. */
function EmptyChat() {
  const { t } = useTranslation();
  const actions = useActions();
  const isSimulator = useAppState((s) => s.session.model?.isSimulator ?? false);
  return (
    <div className="transcript-empty">
      <p>{t('chat.empty')}</p>
      {isSimulator && (
        <p>
          {t('chat.emptyTry')}{' '}
          <button
            type="button"
            className="button button-small"
            data-testid="suggestion"
            onClick={() => void actions.prompt(t('chat.suggestion')).then(() => actions.requestFocus('composer'))}
          >
            {t('chat.suggestion')}
          </button>
        </p>
      )}
    </div>
  );
}

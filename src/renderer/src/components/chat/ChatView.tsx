// The chat pane: header (title, model, Simulator badge, workspace), the transcript built by
// buildChatItems (bubbles, tool cards and one card per retry chain; a long session's older pages
// fetched at the top), a status line, the Continue bar, the approval card, the interrupted-turn
// card, the pacing notice, the retry banner and the composer.
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { buildChatItems } from '../../chat/chat-items';
import { useActions, useAppState } from '../../store/app-store';
import type { AppState } from '../../store/state';
import { RetryBanner } from '../RetryBanner';
import { ApprovalCard } from '../tools/ApprovalCard';
import { ContinueBar } from '../tools/ContinueBar';
import { WorkspacePicker } from '../tools/WorkspacePicker';
import { Composer } from './Composer';
import { InterruptedTurnCard } from './InterruptedTurnCard';
import { PacingNotice } from './PacingNotice';
import { TranscriptItem } from './TranscriptItem';

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
      isCompacting: s.session.isCompacting,
      activeToolName: s.session.activeToolName,
      toolRuns: s.session.toolRuns,
      pendingApprovals: s.session.pendingApprovals,
    })),
  );
  const title = useAppState((s) => sessionTitle(s.session, s.history.sessions));
  const hasOlderTurns = useAppState((s) => s.session.hasOlderTurns);
  const actions = useActions();
  const items = useMemo(
    () =>
      buildChatItems({
        turns: session.turns,
        pendingMessages: session.pendingMessages,
        streamingMessage: session.streamingMessage,
        chains: session.chains,
        decisions: session.decisions,
        toolRuns: session.toolRuns,
        pendingApprovals: session.pendingApprovals,
      }),
    [
      session.turns,
      session.pendingMessages,
      session.streamingMessage,
      session.chains,
      session.decisions,
      session.toolRuns,
      session.pendingApprovals,
    ],
  );
  const transcriptRef = useRef<HTMLDivElement>(null);
  // Follow new content only while the reader is at the bottom; scrolling up to read stops it.
  const isPinnedRef = useRef(true);
  useEffect(() => {
    const el = transcriptRef.current;
    if (el && isPinnedRef.current) el.scrollTop = el.scrollHeight;
  }, [items]);
  // Older turns join the front: keep the reader where they were (distance from the bottom).
  const fromBottomRef = useRef<number | null>(null);
  useLayoutEffect(() => {
    const el = transcriptRef.current;
    if (!el || fromBottomRef.current === null || isPinnedRef.current) return;
    el.scrollTop = el.scrollHeight - fromBottomRef.current;
    fromBottomRef.current = null;
  }, [items]);
  const loadOlder = (): void => {
    const el = transcriptRef.current;
    if (el) fromBottomRef.current = el.scrollHeight - el.scrollTop;
    void actions.loadOlderTurns();
  };

  return (
    <section className="chat" aria-label={t('nav.chat')}>
      <header className="pane-header">
        <h1 className="pane-title" data-testid="chat-title">
          {title || t('nav.untitled')}
        </h1>
        {session.model && (
          <span className="model-label" data-testid="model-label">
            {/* The badge already says "Simulator": name the simulated model by its id instead. */}
            {session.model.isSimulator ? session.model.id : session.model.label || session.model.id}
          </span>
        )}
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
          <p className="transcript-empty">{t('chat.empty')}</p>
        ) : (
          <ol className="transcript-list" aria-label={t('chat.transcript')}>
            {items.map((item) => (
              <TranscriptItem key={item.key} item={item} />
            ))}
          </ol>
        )}
      </div>
      {(session.isCompacting || (session.activeToolName && session.pendingApprovals.length === 0)) && (
        <p className="chat-status" data-testid="chat-status">
          {session.isCompacting ? t('chat.compacting') : t('chat.runningTool', { name: session.activeToolName })}
        </p>
      )}
      <ContinueBar />
      <ApprovalCard />
      <InterruptedTurnCard />
      <PacingNotice />
      <RetryBanner />
      <Composer />
    </section>
  );
}

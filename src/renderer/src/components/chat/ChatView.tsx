// The chat pane: header (title, the model picker, the thinking level, Simulator badge, the context
// meter and session cost, the instructions chip, workspace), the transcript —
// one flat list built by buildChatItems plus the live chat's rows (live-items.ts: approval,
// interrupted turn, Continue, rate-limit wait), rendered one row per item (ChatItemView) through
// the virtualised TranscriptList, with the away summary where the person left (away-summary.ts) — a status line, the retry banner and the composer. Where each
// row stands is decided once per change (row-states.ts; an earlier version's rows offer nothing);
// which actions that offers, in MessageActions.tsx. A long session opens on its newest page;
// older pages are fetched as the reader nears the top (or by "Show older turns"), keeping the
// reader's place.
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { buildChatItems, type ChatItem } from '../../chat/chat-items';
import { canContinue, isExchangeItem, withLiveItems } from '../../chat/live-items';
import { withFileChanges } from '../../chat/file-change-items';
import { buildAwaySummary, isWorthTelling, withAwaySummary } from '../../chat/away-summary';
import { AwayDismissContext, useAwayRange } from '../../chat/use-away-range';
import type { SessionFileChanges } from '../../../../shared/file-history';
import { rowStates } from '../../chat/row-states';
import { useActions, useAppState } from '../../store/app-store';
import { isTurnRunning, type AppState } from '../../store/state';
import { branchPath, type BranchChoices } from '../../../../shared/history';
import { RetryBanner } from '../../retry/RetryBanner';
import { SpendingCapCard } from './SpendingCapCard';
import { WorkspacePicker } from '../../tools/WorkspacePicker';
import { BranchChoiceContext } from './BranchSwitch';
import { ChatItemView } from './ChatItemView';
import { READ_ONLY } from '../../chat/same-row';
import { Composer } from './Composer';
import { ContextMeter } from './ContextMeter';
import { InstructionsChip } from './InstructionsChip';
import { useFileDrop } from '../../attachments/use-file-drop';
import { ModelPicker } from './ModelPicker';
import { SimulatorBadge } from './SimulatorBadge';
import { ThinkingControl } from './ThinkingControl';
import { TranscriptList } from './TranscriptList';
import type { ModelInfo } from '../../../../shared/events';

// The pane re-renders at every frame of a streaming reply; what around the transcript does not
// change with the reply is kept from rendering again with it (about a tenth of the page's work
// while a long reply streams: bench/markdown-stream.ts).
const StillComposer = memo(Composer);
const StillRetryBanner = memo(RetryBanner);

const ChatHeader = memo(function ChatHeader({ title, model }: { title: string; model: ModelInfo | null }) {
  return (
    <header className="pane-header">
      <h1 className="pane-title" id="chat-title" data-testid="chat-title">
        {title}
      </h1>
      {model && <ModelPicker model={model} />}
      {model && <ThinkingControl model={model} />}
      {model?.isSimulator && <SimulatorBadge />}
      <ContextMeter />
      <InstructionsChip />
      <WorkspacePicker />
    </header>
  );
});

/** The snapshot's title, else the stored one (the history names a session after its first turn). */
function sessionTitle(session: AppState['session'], sessions: AppState['history']['sessions']): string {
  if (session.title) return session.title;
  const stored = sessions.find((s) => s.id === session.sessionId)?.title;
  // A new chat's first prompt held for a rate limit names it already.
  const first = session.turns.find((t) => t.role === 'user')?.text ?? session.pacing?.text ?? '';
  return stored || first.split('\n')[0];
}

/**
 * Follow new content only while the reader is at the bottom; scrolling up to read stops it. A
 * message the person sends brings the bottom back (they want to see the answer), and so does an
 * approval being asked (its card takes the focus and the keys) or the spending cap's question (its
 * card under the transcript takes room from it: the newest row's actions stay in view).
 */
function followKey(items: ChatItem[], approvalId: string | undefined, capId: string | undefined): string {
  const sent = items.findLast((i) => (i.kind === 'message' && i.role === 'user') || i.kind === 'held-message');
  return `${sent?.key ?? ''}:${approvalId ?? ''}:${capId ?? ''}`;
}

/** After a failure the person's message goes back into the composer: the last card's prompt, once it failed for good. */
function failedPrompt(
  items: ChatItem[],
  offeredChain: string | null,
): { key: string; text: string; turnId: string } | null {
  const last = items.findLast(isExchangeItem);
  if (last?.kind !== 'errored-chain' || last.status !== 'failed' || !last.prompt) return null;
  if (last.chainId !== null && last.chainId === offeredChain) return null;
  return { key: last.key, text: last.prompt.text, turnId: last.prompt.turnId };
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
      capId: s.session.spendingCap?.id,
      interrupted: s.session.interruptedRetry,
      canContinue: canContinue(s),
      pacing: s.session.pacing,
      promptWait: s.session.promptWait,
    })),
  );
  const isBusy = useAppState(isTurnRunning);
  const title = useAppState((s) => sessionTitle(s.session, s.history.sessions));
  const sessionId = useAppState((s) => s.session.sessionId);
  const versions = useVersionChoice(sessionId, session.turns.length + session.pendingMessages.length);
  const transcript = useMemo(
    () => buildChatItems({ ...session, branchChoices: versions.choices }),
    [session, versions.choices],
  );
  const fileChanges = useFileChanges(sessionId, session.turns.length);
  const activity = useAppState((s) => s.history.activity.find((a) => a.sessionId === s.session.sessionId) ?? null);
  const away = useAwayRange(sessionId, session.turns.at(-1)?.seq ?? 0);
  const range = away.range;
  const items = useMemo(() => {
    const withFiles = withFileChanges(transcript, fileChanges);
    const summary = range
      ? buildAwaySummary({
          range,
          ...session,
          fileChanges,
          activity,
          approvalsWaiting: session.pendingApprovals.length,
        })
      : null;
    const told =
      range && summary && isWorthTelling(summary)
        ? withAwaySummary(withFiles, session.turns, range, summary)
        : withFiles;
    return withLiveItems(told, live);
  }, [transcript, fileChanges, live, range, session, activity]);
  const offeredChain = live.interrupted?.chainId ?? null;
  // An earlier version is there to be read: its rows offer nothing, and nothing refills the composer.
  const isEarlier = useMemo(
    () => !branchPath(session.turns, versions.choices).isLatest,
    [session.turns, versions.choices],
  );
  const rowOf = useMemo(
    () => (isEarlier ? () => READ_ONLY : rowStates(items, isBusy, offeredChain)),
    [items, isBusy, offeredChain, isEarlier],
  );
  const hasOlderTurns = useAppState((s) => s.session.hasOlderTurns);
  const actions = useActions();
  const loadOlder = (): void => void actions.loadOlderTurns();
  const fileSinkRef = useRef<((files: File[]) => void) | null>(null);
  const drop = useFileDrop(fileSinkRef);

  return (
    <section
      className="chat"
      aria-labelledby="chat-title"
      data-dragging={drop.dragging || undefined}
      {...drop.handlers}
    >
      <ChatHeader title={title || t('nav.untitled')} model={session.model} />
      {items.length === 0 ? (
        <div className="transcript" data-testid="transcript">
          <EmptyChat />
        </div>
      ) : (
        <TranscriptList
          key={sessionId ?? ''}
          items={items}
          label={t('chat.transcript')}
          renderItem={(item) => (
            <BranchChoiceContext.Provider value={versions.choose}>
              <AwayDismissContext.Provider value={away.dismiss}>
                <ChatItemView item={item} row={rowOf(item)} />
              </AwayDismissContext.Provider>
            </BranchChoiceContext.Provider>
          )}
          followKey={followKey(items, live.approval?.id, live.capId)}
          older={{ hasOlder: hasOlderTurns, load: loadOlder, whenNearTop: true }}
        />
      )}
      {(session.isCompacting || (session.activeToolName && session.pendingApprovals.length === 0)) && (
        <p className="chat-status" data-testid="chat-status">
          {session.isCompacting ? t('chat.compacting') : t('chat.runningTool', { name: session.activeToolName })}
        </p>
      )}
      <StillRetryBanner />
      <SpendingCapCard />
      <StillComposer
        restore={isBusy || isEarlier ? null : failedPrompt(items, offeredChain)}
        fileSinkRef={fileSinkRef}
      />
    </section>
  );
}

/**
 * The session's recorded file changes (docs/file-history.md), asked again when a turn is stored and
 * at every history_changed (an undo sends one); an answer for another session is dropped.
 */
function useFileChanges(sessionId: string | null, turns: number): SessionFileChanges | null {
  const actions = useActions();
  const revision = useAppState((s) => s.history.revision);
  const [changes, setChanges] = useState<SessionFileChanges | null>(null);
  useEffect(() => {
    if (!sessionId) return;
    let isCurrent = true;
    void actions.call('files.changes', { sessionId }).then((found) => {
      if (isCurrent && found) setChanges(found);
    });
    return () => {
      isCurrent = false;
    };
  }, [actions, sessionId, turns, revision]);
  return changes?.sessionId === sessionId ? changes : null;
}

/**
 * Which version the chat shows at each fork. A choice lasts while the conversation stays as it
 * was: anything new (a message sent, a reply stored) shows the newest version again, where it went.
 */
function useVersionChoice(sessionId: string | null, size: number) {
  const [view, setView] = useState<{ of: string; choices: BranchChoices }>({ of: '', choices: {} });
  const of = `${sessionId ?? ''}:${size}`;
  const choices = useMemo(() => (view.of === of ? view.choices : {}), [view, of]);
  // One function for the chat's life: it is the value of every row's BranchChoiceContext, and a
  // new one at each stored turn made React search every row's whole subtree for its readers.
  const ofRef = useRef(of);
  useLayoutEffect(() => {
    ofRef.current = of;
  }, [of]);
  const choose = useCallback((fork: number, seq: number) => {
    const now = ofRef.current;
    setView((v) => ({ of: now, choices: { ...(v.of === now ? v.choices : {}), [fork]: seq } }));
  }, []);
  return { choices, choose };
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

// One stored session, read-only: its transcript (bubbles and one card per retry chain, with the
// timeline open; a long one virtualised by TranscriptList, scrolling with the history pane; a
// switcher on each message with versions, and the failed chains of the versions not shown), its
// tokens and cost (of the turns shown), each run's changed files (Review only: undo is the
// chat's), and Resume, Delete (after a confirmation) and Export JSON / Markdown, which says where
// the file went (the desktop app asks with a save dialog). Opening it focuses its heading. A long session opens
// on its newest page; "Show older turns" fetches the pages before it, keeping the reader's place.
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  TURN_PAGE_SIZE,
  branchPath,
  type BranchChoices,
  type SessionDetail,
  type TurnPage,
} from '../../../../shared/history';
import { buildChatItems, otherVersionCards, type ChatItemsInput } from '../../chat/chat-items';
import { withFileChanges } from '../../chat/file-change-items';
import { useActions, useAppState } from '../../store/app-store';
import type { ChainView } from '../../store/state';
import { downloadText } from '../../util/download';
import { formatDateTime } from '../../util/format';
import { useLoader } from '../../util/use-loader';
import { useFocusTarget } from '../../util/use-focus-target';
import { BranchChoiceContext } from '../chat/BranchSwitch';
import { ChatItemView } from '../chat/ChatItemView';
import { SessionCost } from '../chat/ContextMeter';
import { TranscriptList } from '../chat/TranscriptList';
import { ConfirmDialog } from './ConfirmDialog';

interface DetailProps {
  sessionId: string;
  /** The history pane's scroller, which the transcript scrolls with (null until it is mounted). */
  scrollParent: HTMLElement | null;
  onBack: () => void;
}

export function SessionDetailView({ sessionId, scrollParent, onBack }: DetailProps) {
  const { t } = useTranslation();
  const actions = useActions();
  const revision = useAppState((s) => s.history.revision);
  const { data, isLoading } = useLoader(
    () => actions.call('history.get', { sessionId, limit: TURN_PAGE_SIZE }),
    [sessionId, revision],
  );

  return (
    <div className="history-detail" data-testid="history-detail">
      <button type="button" className="button button-small" data-testid="history-back" onClick={onBack}>
        {t('history.back')}
      </button>
      {data ? (
        <DetailBody detail={data} scrollParent={scrollParent} onDeleted={onBack} />
      ) : (
        <p className="pane-empty">{isLoading ? t('history.loading') : ''}</p>
      )}
    </div>
  );
}

const NO_CHOICES: BranchChoices = {};

/** The pages held so far as the transcript's input, each chain and decision once. */
function transcriptInput(parts: (SessionDetail | TurnPage)[], branchChoices: BranchChoices): ChatItemsInput {
  const chains: Record<string, ChainView> = {};
  for (const c of parts.flatMap((p) => p.chains))
    chains[c.id] = { outcome: c.outcome, attempts: c.attempts, finalError: c.finalError };
  const decisions = [...new Map(parts.flatMap((p) => p.decisions).map((d) => [d.id, d])).values()];
  return { turns: parts.flatMap((p) => p.turns), chains, decisions, branchChoices };
}

interface BodyProps {
  detail: SessionDetail;
  scrollParent: HTMLElement | null;
  onDeleted: () => void;
}

function DetailBody({ detail, scrollParent, onDeleted }: BodyProps) {
  const { t, i18n } = useTranslation();
  const actions = useActions();
  const [isConfirming, setIsConfirming] = useState(false);
  const [exported, setExported] = useState('');
  const host = useAppState((s) => s.ui.host);
  const heading = useFocusTarget<HTMLHeadingElement>('history-detail');
  // Older pages fetched so far, oldest first; they belong to this detail (a refetch starts over).
  const [older, setOlder] = useState<{ of: SessionDetail; pages: TurnPage[] }>({ of: detail, pages: [] });
  const pages = useMemo(() => (older.of === detail ? older.pages : []), [older, detail]);
  const hasOlderTurns = pages.length > 0 ? pages[0].hasOlderTurns : detail.hasOlderTurns;
  const title = detail.session.title || t('nav.untitled');
  const [choices, setChoices] = useState<{ of: SessionDetail; choices: BranchChoices }>({ of: detail, choices: {} });
  const branchChoices = choices.of === detail ? choices.choices : NO_CHOICES;
  const input = useMemo(() => transcriptInput([...pages, detail], branchChoices), [detail, pages, branchChoices]);
  const revision = useAppState((s) => s.history.revision);
  const files = useLoader(
    () => actions.call('files.changes', { sessionId: detail.session.id }),
    [detail.session.id, revision],
  );
  const items = useMemo(() => withFileChanges(buildChatItems(input), files.data ?? null), [input, files.data]);
  const others = useMemo(() => otherVersionCards(input), [input]);
  const shownTurns = useMemo(
    () => branchPath(input.turns, branchChoices).path.filter((turn) => turn.role === 'user').length,
    [input, branchChoices],
  );
  const choose = useMemo(
    () => (fork: number, seq: number) =>
      setChoices((c) => ({ of: detail, choices: { ...(c.of === detail ? c.choices : {}), [fork]: seq } })),
    [detail],
  );
  const showOlder = async (): Promise<void> => {
    const first = pages[0]?.turns[0] ?? detail.turns[0];
    if (!first) return;
    const page = await actions.call('history.turns', { sessionId: detail.session.id, beforeSeq: first.seq });
    if (page) setOlder({ of: detail, pages: [page, ...pages] });
  };

  const exportAs = async (format: 'json' | 'markdown'): Promise<void> => {
    if (host === 'electron') {
      const saved = await actions.call('history.saveExport', { sessionId: detail.session.id, format });
      if (saved) setExported(saved.path ? t('history.savedTo', { path: saved.path }) : t('history.saveCancelled'));
      return;
    }
    const file = await actions.call('history.export', { sessionId: detail.session.id, format });
    if (!file) return;
    downloadText(file.filename, file.mimeType, file.content);
    setExported(t('history.downloaded', { filename: file.filename }));
  };
  const confirmDelete = async (): Promise<void> => {
    setIsConfirming(false);
    if (await actions.deleteSession(detail.session.id)) onDeleted();
  };

  return (
    <>
      <header className="detail-header">
        <h2 className="detail-title" ref={heading} tabIndex={-1} data-testid="history-detail-title">
          {title}
        </h2>
        <span className="badge">{t('history.readOnly')}</span>
        <span className="muted">
          {formatDateTime(detail.session.createdAt, i18n.language)} ·{' '}
          <span data-testid="history-detail-counts">
            {shownTurns < detail.session.turnCount
              ? t('history.turnsShown', { count: detail.session.turnCount, shown: shownTurns })
              : t('history.turns', { count: detail.session.turnCount })}
            {detail.session.erroredTurnCount > 0 &&
              ` · ${t('history.erroredBadge', { count: detail.session.erroredTurnCount })}`}
          </span>
          {detail.session.workspace && ` · ${t('tools.workspace')}: ${detail.session.workspace}`}
        </span>
        <SessionCost turns={[...pages.flatMap((p) => p.turns), ...detail.turns]} summary={detail.session} />
      </header>
      <div className="detail-actions">
        <button
          type="button"
          className="button button-primary"
          data-testid="history-resume"
          onClick={() => void actions.resume(detail.session.id)}
        >
          {t('history.resume')}
        </button>
        <button
          type="button"
          className="button"
          data-testid="history-export-json"
          onClick={() => void exportAs('json')}
        >
          {t('history.exportJson')}
        </button>
        <button
          type="button"
          className="button"
          data-testid="history-export-markdown"
          onClick={() => void exportAs('markdown')}
        >
          {t('history.exportMarkdown')}
        </button>
        <button
          type="button"
          className="button button-danger"
          data-testid="history-delete"
          onClick={() => setIsConfirming(true)}
        >
          {t('history.delete')}
        </button>
      </div>
      <p className="export-status" role="status" data-testid="export-status">
        {exported}
      </p>
      {scrollParent && (
        <TranscriptList
          key={detail.session.id}
          items={items}
          label={t('chat.transcript')}
          renderItem={(item) => (
            <BranchChoiceContext.Provider value={choose}>
              <ChatItemView item={item} isExpanded />
            </BranchChoiceContext.Provider>
          )}
          scrollParent={scrollParent}
          older={{ hasOlder: hasOlderTurns, load: () => void showOlder() }}
        />
      )}
      {others.length > 0 && (
        <section className="other-versions" aria-labelledby="other-versions-title" data-testid="history-other-versions">
          <h3 id="other-versions-title" className="other-versions-title">
            {t('history.otherVersions', { count: others.length })}
          </h3>
          {others.map((card) => (
            <ChatItemView key={card.key} item={card} isExpanded />
          ))}
        </section>
      )}
      <ConfirmDialog
        isOpen={isConfirming}
        title={t('history.confirmTitle')}
        confirmLabel={t('history.delete')}
        cancelLabel={t('history.cancel')}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setIsConfirming(false)}
      >
        <p>{t('history.confirmBody', { title })}</p>
      </ConfirmDialog>
    </>
  );
}

// The sidebar's recent sessions: one Tab stop (a roving tabindex: Up/Down/Home/End move between
// chats, Right/Left reach a chat's Rename and Delete), Enter opens, F2 renames in place, Delete asks
// before deleting. Each row shows how many of its exchanges ended in an error and what the chat is
// doing (SessionActivityLine). A chat that works but is not stored yet — a new chat whose first
// prompt is held for a rate limit — is listed at once, under that prompt (without Rename and Delete).
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { SessionActivity } from '../../../../shared/events';
import type { SessionSummary } from '../../../../shared/history';
import { useActions, useAppState } from '../../store/app-store';
import { RECENT_SESSIONS, unstoredSessions } from '../../store/sidebar-sessions';
import { useFocusTarget } from '../../util/use-focus-target';
import { ConfirmDialog } from '../history/ConfirmDialog';
import { RenameForm } from './RenameForm';
import { SessionActivityLine } from './SessionActivityLine';

export function SessionList() {
  const { t } = useTranslation();
  const actions = useActions();
  const stored = useAppState((s) => s.history.sessions);
  const currentId = useAppState((s) => s.session.sessionId);
  const activity = useAppState((s) => s.history.activity);
  const unstored = useMemo(() => unstoredSessions(stored, activity), [stored, activity]);
  const sessions = [...unstored, ...stored].slice(0, RECENT_SESSIONS);
  const activityOf = (id: string) => activity.find((a) => a.sessionId === id);
  const [activeId, setActiveId] = useState<string | null>(null);
  const [renamingId, setRenamingId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<SessionSummary | null>(null);
  const rows = useRef(new Map<string, HTMLElement>());
  const listRef = useFocusTarget<HTMLUListElement>('session-list');
  const active = sessions.find((s) => s.id === activeId) ?? sessions.find((s) => s.id === currentId) ?? sessions[0];

  if (sessions.length === 0) return <p className="sidebar-empty">{t('nav.noSessions')}</p>;

  const focusRow = (id: string, part = 0): void => {
    setActiveId(id);
    const row = rows.current.get(id);
    row?.querySelectorAll<HTMLElement>('[data-roving]')[part]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>): void => {
    if (!active || renamingId) return;
    const index = sessions.indexOf(active);
    const parts = [...(rows.current.get(active.id)?.querySelectorAll<HTMLElement>('[data-roving]') ?? [])];
    const part = Math.max(0, parts.indexOf(document.activeElement as HTMLElement));
    const moves: Record<string, () => void> = {
      ArrowDown: () => focusRow(sessions[Math.min(sessions.length - 1, index + 1)].id),
      ArrowUp: () => focusRow(sessions[Math.max(0, index - 1)].id),
      Home: () => focusRow(sessions[0].id),
      End: () => focusRow(sessions[sessions.length - 1].id),
      ArrowRight: () => focusRow(active.id, Math.min(parts.length - 1, part + 1)),
      ArrowLeft: () => focusRow(active.id, Math.max(0, part - 1)),
      F2: () => setRenamingId(active.id),
      Delete: () => setDeleting(active),
    };
    const move = moves[event.key];
    if (!move || (unstored.includes(active) && (event.key === 'F2' || event.key === 'Delete'))) return;
    event.preventDefault();
    move();
  };
  const confirmDelete = async (session: SessionSummary): Promise<void> => {
    setDeleting(null);
    const index = sessions.indexOf(session);
    await actions.deleteSession(session.id);
    const next = sessions[index + 1] ?? sessions[index - 1];
    if (next) requestAnimationFrame(() => focusRow(next.id));
    else actions.requestFocus('composer');
  };

  return (
    <>
      <p className="visually-hidden" id="sidebar-sessions-hint">
        {t('nav.sessionsHint')}
      </p>
      <ul
        ref={listRef}
        className="sidebar-sessions"
        aria-labelledby="sidebar-sessions"
        aria-describedby="sidebar-sessions-hint"
        tabIndex={-1}
        onKeyDown={onKeyDown}
        onFocus={(event) => {
          // Focus sent to the list itself (after Stop, after a delete) goes on to its active row.
          if (event.target === event.currentTarget && active) focusRow(active.id);
        }}
      >
        {sessions.map((session) => {
          const title = session.title || t('nav.untitled');
          const isActive = session.id === active?.id;
          return (
            <li
              key={session.id}
              className="sidebar-row"
              ref={(el) => {
                if (el) rows.current.set(session.id, el);
                else rows.current.delete(session.id);
              }}
            >
              {renamingId === session.id ? (
                <RenameForm
                  session={session}
                  onDone={() => {
                    // After a save the call comes from a resolved promise, not the key press: the
                    // row must be back before it is focused, which a frame's wait did not promise.
                    flushSync(() => setRenamingId(null));
                    focusRow(session.id);
                  }}
                />
              ) : (
                <SessionRow
                  session={session}
                  isHeld={unstored.includes(session)}
                  activity={activityOf(session.id)}
                  title={title}
                  isActive={isActive}
                  isCurrent={session.id === currentId}
                  onOpen={() => void actions.resume(session.id)}
                  onRename={() => setRenamingId(session.id)}
                  onDelete={() => setDeleting(session)}
                  onFocus={() => setActiveId(session.id)}
                />
              )}
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        isOpen={deleting !== null}
        title={t('history.confirmTitle')}
        confirmLabel={t('history.delete')}
        cancelLabel={t('history.cancel')}
        onConfirm={() => deleting && void confirmDelete(deleting)}
        onCancel={() => {
          const id = deleting?.id;
          setDeleting(null);
          if (id) requestAnimationFrame(() => focusRow(id));
        }}
      >
        <p>{t('history.confirmBody', { title: deleting?.title || t('nav.untitled') })}</p>
      </ConfirmDialog>
    </>
  );
}

interface SessionRowProps {
  session: SessionSummary;
  /** Not stored yet: nothing to rename or delete. */
  isHeld: boolean;
  title: string;
  isActive: boolean;
  isCurrent: boolean;
  activity: SessionActivity | undefined;
  onOpen: () => void;
  onRename: () => void;
  onDelete: () => void;
  onFocus: () => void;
}

function SessionRow(props: SessionRowProps) {
  const { session, title, isActive, isCurrent, isHeld, activity, onOpen, onRename, onDelete, onFocus } = props;
  const { t } = useTranslation();
  const tabIndex = isActive ? 0 : -1;
  return (
    <>
      <a
        href={`#session-${session.id}`}
        className="sidebar-session"
        data-testid="sidebar-session"
        data-roving="link"
        tabIndex={tabIndex}
        title={title}
        aria-current={isCurrent ? 'true' : undefined}
        onFocus={onFocus}
        onClick={(event) => {
          event.preventDefault();
          onOpen();
        }}
      >
        <span className="sidebar-session-text">
          <span className="sidebar-session-title">{title}</span>
          {activity && !isCurrent && <SessionActivityLine activity={activity} />}
        </span>
        {session.erroredTurnCount > 0 && (
          <span className="badge badge-error" data-testid="sidebar-errored-badge">
            <span aria-hidden="true">{session.erroredTurnCount}</span>
            <span className="visually-hidden">{t('history.erroredBadge', { count: session.erroredTurnCount })}</span>
          </span>
        )}
      </a>
      {!isHeld && <RowActions title={title} onFocus={onFocus} onRename={onRename} onDelete={onDelete} />}
    </>
  );
}

interface RowActionsProps {
  title: string;
  onFocus: () => void;
  onRename: () => void;
  onDelete: () => void;
}

function RowActions({ title, onFocus, onRename, onDelete }: RowActionsProps) {
  const { t } = useTranslation();
  return (
    <>
      <RowAction
        part="rename"
        label={t('nav.renameLabel', { title })}
        hint={t('nav.rename')}
        mark="✎"
        onFocus={onFocus}
        onClick={onRename}
      />
      <RowAction
        part="delete"
        label={t('nav.deleteLabel', { title })}
        hint={t('nav.delete')}
        mark="×"
        onFocus={onFocus}
        onClick={onDelete}
      />
    </>
  );
}

interface RowActionProps {
  part: 'rename' | 'delete';
  label: string;
  hint: string;
  mark: string;
  onFocus: () => void;
  onClick: () => void;
}

/** A row's Rename or Delete: out of the Tab order (→ reaches it), shown on hover and focus. */
function RowAction({ part, label, hint, mark, onFocus, onClick }: RowActionProps) {
  return (
    <button
      type="button"
      className="icon-button sidebar-row-action"
      data-roving={part}
      data-testid={`sidebar-${part}`}
      tabIndex={-1}
      aria-label={label}
      title={hint}
      onFocus={onFocus}
      onClick={onClick}
    >
      <span aria-hidden="true">{mark}</span>
    </button>
  );
}

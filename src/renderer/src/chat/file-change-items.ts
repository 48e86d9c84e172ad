// The chat's "Changed N files (+a −b)" rows (docs/file-history.md, "In the chat"): the session's
// recorded file changes (files.changes) grouped by the person's message whose run made them, each
// row placed after that run's last row — before the person's next message. A message not shown
// (an older page, another version) gets no row. Each earlier message of the person from which on
// some change is still in place is marked for Restore files to here, and a failed card whose run
// changed files before it failed names them (its Resend then offers to undo them first). ChatView adds them;
// FileChangesRow renders a row, RestoreFiles the restore. Pure.
import type { SessionFileChanges } from '../../../shared/file-history';
import type { ChatItem } from './chat-items';

export interface FileChangesItem {
  kind: 'file-changes';
  key: string;
  sessionId: string;
  /** The person's message (its turn id) whose run changed the files. */
  userTurnId: string;
  /** Each file once, its lines summed over the run's calls. */
  files: number;
  added: number;
  removed: number;
  /** Changes still in place, and changes an undo took back: Undo offers the first, Redo the second. */
  applied: number;
  undone: number;
}

/** One row per person's message whose run changed files, in the order they were made. */
export function fileChangeRows(changes: SessionFileChanges): FileChangesItem[] {
  const rows = new Map<string, FileChangesItem & { paths: Set<string> }>();
  for (const change of changes.changes) {
    if (change.userTurnId === null) continue;
    const row = rows.get(change.userTurnId) ?? {
      kind: 'file-changes' as const,
      key: `files-${change.userTurnId}`,
      sessionId: changes.sessionId,
      userTurnId: change.userTurnId,
      files: 0,
      added: 0,
      removed: 0,
      applied: 0,
      undone: 0,
      paths: new Set<string>(),
    };
    row.paths.add(change.path);
    row.files = row.paths.size;
    row.added += change.added;
    row.removed += change.removed;
    if (change.state === 'applied') row.applied += 1;
    else row.undone += 1;
    rows.set(change.userTurnId, row);
  }
  return [...rows.values()].map(({ paths: _paths, ...row }) => row);
}

const isUserMessage = (item: ChatItem): boolean => item.kind === 'message' && item.role === 'user';

/** Each row after its run: before the person's next message, else after the last row of the conversation. */
export function withFileChanges(items: ChatItem[], changes: SessionFileChanges | null): ChatItem[] {
  if (!changes || changes.changes.length === 0) return items;
  let out = withRestoreOffers(withChangedFilesOnCards(items, changes), changes);
  for (const row of fileChangeRows(changes)) {
    const anchor = out.findIndex((item) => item.kind === 'message' && item.turnId === row.userTurnId);
    if (anchor < 0) continue;
    const next = out.findIndex((item, i) => i > anchor && isUserMessage(item));
    const at = next >= 0 ? next : lastConversationIndex(out) + 1;
    out = [...out.slice(0, at), row, ...out.slice(at)];
  }
  return out;
}

/**
 * Marks each person's message, but the last, from which on a run's change is still in place: its
 * Restore files to here takes back that run's changes and every later one's (files.undo scope from).
 */
export function withRestoreOffers(items: ChatItem[], changes: SessionFileChanges): ChatItem[] {
  const applied = new Set(changes.changes.filter((c) => c.state === 'applied').map((c) => c.userTurnId));
  const people = items.flatMap((item, i) => (isUserMessage(item) ? [i] : []));
  const offered = new Set<number>();
  let hasLater = false;
  for (let n = people.length - 1; n >= 0; n -= 1) {
    const item = items[people[n]];
    hasLater ||= item.kind === 'message' && item.turnId !== null && applied.has(item.turnId);
    if (hasLater && n < people.length - 1) offered.add(people[n]);
  }
  if (offered.size === 0) return items;
  return items.map((item, i) => (offered.has(i) && item.kind === 'message' ? { ...item, restoreFiles: true } : item));
}

/**
 * A failed card whose run changed files before it failed names them (each once, in the order
 * changed), and says whether some of those changes are still in place (Resend can undo them first).
 */
export function withChangedFilesOnCards(items: ChatItem[], changes: SessionFileChanges): ChatItem[] {
  return items.map((item) => {
    if (item.kind !== 'errored-chain' || item.status !== 'failed' || !item.prompt) return item;
    const failedAt = Math.max(...item.attempts.map((a) => a.createdAt));
    const turnId = item.prompt.turnId;
    const made = changes.changes.filter((c) => c.userTurnId === turnId && c.createdAt <= failedAt);
    if (made.length === 0) return item;
    const changedFiles = [...new Set(made.map((c) => c.path))];
    return { ...item, changedFiles, changesInPlace: made.some((c) => c.state === 'applied') };
  });
}

/** The last row that is not one of the live chat's prompts at the end (Continue, a held message). */
function lastConversationIndex(items: ChatItem[]): number {
  const tail = new Set<ChatItem['kind']>(['continue', 'held-message', 'pacing', 'approval']);
  let i = items.length - 1;
  while (i >= 0 && tail.has(items[i].kind)) i -= 1;
  return i;
}

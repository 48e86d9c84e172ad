// The chat's "Changed N files (+a −b)" rows (docs/file-history.md, "In the chat"): the session's
// recorded file changes (files.changes) grouped by the person's message whose run made them, each
// row placed after that run's last row — before the person's next message. A message not shown
// (an older page, another version) gets no row. ChatView adds them; FileChangesRow renders one. Pure.
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
  let out = items;
  for (const row of fileChangeRows(changes)) {
    const anchor = out.findIndex((item) => item.kind === 'message' && item.turnId === row.userTurnId);
    if (anchor < 0) continue;
    const next = out.findIndex((item, i) => i > anchor && isUserMessage(item));
    const at = next >= 0 ? next : lastConversationIndex(out) + 1;
    out = [...out.slice(0, at), row, ...out.slice(at)];
  }
  return out;
}

/** The last row that is not one of the live chat's prompts at the end (Continue, a held message). */
function lastConversationIndex(items: ChatItem[]): number {
  const tail = new Set<ChatItem['kind']>(['continue', 'held-message', 'pacing', 'approval']);
  let i = items.length - 1;
  while (i >= 0 && tail.has(items[i].kind)) i -= 1;
  return i;
}

// One unsent draft per chat (docs/architecture.md, "Drafts"): the composer's words, its files and
// the failed message it was refilled with, kept in memory and in this window's localStorage, so a
// draft stays with its chat across a chat switch, Settings or History and back, and a reload.
// Files that do not fit the storage's quota stay in memory for the window's life. Used by Composer.
import type { PendingFile } from '../attachments/pending-files';

export interface Draft {
  text: string;
  files: PendingFile[];
  /** The failed message put back in the box, by its card's key: put back once, taken out when retried. */
  refill: { key: string; text: string } | null;
}

const EMPTY: Draft = { text: '', files: [], refill: null };
const PREFIX = 'resolute.draft.';
const live = new Map<string, Draft>();

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

function read(chat: string): Draft {
  const stored = storage()?.getItem(PREFIX + chat);
  if (!stored) return EMPTY;
  try {
    const draft = JSON.parse(stored) as Partial<Draft>;
    return {
      text: typeof draft.text === 'string' ? draft.text : '',
      files: Array.isArray(draft.files) ? draft.files : [],
      refill: draft.refill ?? null,
    };
  } catch {
    return EMPTY;
  }
}

/** The chat's draft: what was typed, attached and put back there last, or an empty one. */
export function draftOf(chat: string | null): Draft {
  if (chat === null) return EMPTY;
  const known = live.get(chat);
  if (known) return known;
  const stored = read(chat);
  live.set(chat, stored);
  return stored;
}

/** Keep the chat's draft; an empty one is forgotten. */
export function keepDraft(chat: string | null, draft: Draft): void {
  if (chat === null) return;
  const previous = live.get(chat);
  if (previous && previous.text === draft.text && previous.files === draft.files && previous.refill === draft.refill)
    return;
  live.set(chat, draft);
  const store = storage();
  if (!store) return;
  const isEmpty = draft.text === '' && draft.files.length === 0 && draft.refill === null;
  if (isEmpty) return store.removeItem(PREFIX + chat);
  try {
    store.setItem(PREFIX + chat, JSON.stringify(draft));
  } catch {
    // Past the quota (large files): the words and the refill are kept, the files only in memory.
    try {
      store.setItem(PREFIX + chat, JSON.stringify({ ...draft, files: [] }));
    } catch {
      // Storage refused even the words: the draft lives in memory until the window closes.
    }
  }
}

/** The composer's words and files when the person asked for another chat, before it showed. */
export interface AskedMark {
  text: string;
  files: PendingFile[];
}

/**
 * Who gets what when another chat shows after the person asked for it (docs/architecture.md,
 * "Drafts"): the words and the files added since the ask were meant for the chat shown, when its
 * own draft is empty; the chat left keeps what the box held at the ask. `null`: no ask was pending,
 * or the chat shown has its own draft, and each chat keeps its own.
 */
export function splitAtShow(
  asked: AskedMark | null,
  box: Pick<Draft, 'text' | 'files'>,
  shownDraft: Draft,
): { left: Pick<Draft, 'text' | 'files'>; shown: Pick<Draft, 'text' | 'files'> } | null {
  if (asked === null) return null;
  if (shownDraft.text !== '' || shownDraft.files.length > 0) return null;
  const textChanged = box.text !== asked.text;
  const added = box.files.filter((file) => !asked.files.includes(file));
  if (!textChanged && added.length === 0) return null;
  return {
    left: { text: asked.text, files: asked.files },
    shown: { text: textChanged ? box.text : '', files: added },
  };
}

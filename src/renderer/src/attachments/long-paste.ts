// A long paste into the composer becomes a text attachment rather than words in the message box
// (docs/attachments.md, "In the composer"): a box holding pages of text is hard to edit, and past
// the message's own cap it could not be sent at all. Composer.tsx calls it on every paste.
import { ATTACHMENT_LIMITS } from '../../../shared/attachments';

/** A paste longer than this many characters goes as a file, as Claude desktop does. */
export const PASTE_AS_FILE_CHARS = 20_000;

export type LongPaste =
  /** Short enough: it goes into the message box as usual. */
  | { kind: 'inline' }
  | { kind: 'file'; file: File }
  /** Longer than even a file may be: nothing is added, and the composer says why. */
  | { kind: 'too_long'; chars: number };

/** What a paste of `text` becomes; `taken` are the names of the files already waiting. */
export function longPaste(text: string, taken: readonly string[]): LongPaste {
  if (text.length <= PASTE_AS_FILE_CHARS) return { kind: 'inline' };
  if (text.length > ATTACHMENT_LIMITS.maxTextChars) return { kind: 'too_long', chars: text.length };
  return { kind: 'file', file: new File([text], freeName(taken), { type: 'text/plain' }) };
}

/** pasted-text.txt, or pasted-text-2.txt and on when that name already waits. */
function freeName(taken: readonly string[]): string {
  let name = 'pasted-text.txt';
  for (let n = 2; taken.includes(name); n += 1) name = `pasted-text-${n}.txt`;
  return name;
}

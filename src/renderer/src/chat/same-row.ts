// Whether a chat row would show the same as before (ChatItemView's memo comparison). The items are
// built afresh on every change (chat-items.ts), so rows compare what they show: while a reply
// streams, or while the events of a failure arrive, only the rows that changed render again.
import type { ChatItem } from './chat-items';

/** Where a row stands, which decides the actions it offers (components/chat/MessageActions.tsx). */
export interface RowState {
  /** The live chat while nothing runs (and not a chain offered on its own card): actions may act. */
  isLive: boolean;
  /** The chat's last exchange. */
  isLast: boolean;
  /** The live chat's last card whose outcome has not arrived yet: it shows "…", not a guess. */
  isSettling?: boolean;
}

export const READ_ONLY: RowState = { isLive: false, isLast: false };

export function sameRowState(a: RowState = READ_ONLY, b: RowState = READ_ONLY): boolean {
  return a.isLive === b.isLive && a.isLast === b.isLast && a.isSettling === b.isSettling;
}

export interface RowProps {
  item: ChatItem;
  /** Where the row stands, which decides the actions it offers. */
  row?: RowState;
  /** The history opens every card's timeline. */
  isExpanded?: boolean;
}

/**
 * Every row is plain data (a message with its thinking blocks, a chain's card with its timeline, a
 * tool call…): compared whole, which costs far less than rendering a card again.
 */
export function isSameRow(a: RowProps, b: RowProps): boolean {
  return sameRowState(a.row, b.row) && a.isExpanded === b.isExpanded && sameData(a.item, b.item);
}

/** Deep equality of JSON-like values (arrays, plain objects, primitives); anything else by identity. */
export function sameData(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const proto = Object.getPrototypeOf(a) as unknown;
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return false;
  const [ka, kb] = [Object.keys(a), Object.keys(b)];
  if (ka.length !== kb.length) return false;
  const [ra, rb] = [a as Record<string, unknown>, b as Record<string, unknown>];
  return ka.every((key) => Object.hasOwn(rb, key) && sameData(ra[key], rb[key]));
}

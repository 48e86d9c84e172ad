// Whether a chat row would show the same as before (ChatItemView's memo comparison). The items are
// built afresh on every change (chat-items.ts), so rows compare what they show: while a reply
// streams, or while the events of a failure arrive, only the rows that changed render again.
import type { ChatItem } from './chat-items';

/** What a row may offer: actions only in the live chat, on what they apply to, while nothing runs. */
export interface ItemActions {
  canEdit: boolean;
  canRegenerate: boolean;
  canRetry: boolean;
  /** The live chat's last card whose outcome has not arrived yet: it shows "…", not a guess. */
  isSettling?: boolean;
}

export const READ_ONLY: ItemActions = { canEdit: false, canRegenerate: false, canRetry: false };

export interface RowProps {
  item: ChatItem;
  actions?: ItemActions;
  /** The history opens every card's timeline. */
  isExpanded?: boolean;
}

export function isSameRow(a: RowProps, b: RowProps): boolean {
  const [x, y] = [a.item, b.item];
  const sameActions = (a.actions ?? READ_ONLY) === (b.actions ?? READ_ONLY) || sameFlags(a.actions, b.actions);
  if (!sameActions || a.isExpanded !== b.isExpanded) return false;
  // Any other row (a chain's card, a tool call…) is plain data: compared whole, which costs far
  // less than rendering a card with its timeline again.
  if (x.kind !== 'message' || y.kind !== 'message') return sameData(x, y);
  return (
    x.key === y.key &&
    x.text === y.text &&
    x.turnId === y.turnId &&
    x.isStreaming === y.isStreaming &&
    x.stopReason === y.stopReason &&
    x.model === y.model &&
    x.createdAt === y.createdAt
  );
}

function sameFlags(a: ItemActions = READ_ONLY, b: ItemActions = READ_ONLY): boolean {
  return (
    a.canEdit === b.canEdit &&
    a.canRegenerate === b.canRegenerate &&
    a.canRetry === b.canRetry &&
    a.isSettling === b.isSettling
  );
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

// Where each row of the live chat stands (RowState, same-row.ts), which decides the actions it
// offers (components/chat/MessageActions.tsx): rows act only while nothing runs, and only the last
// exchange is tried again. Decided once per change of the chat (ChatView); a row whose state stays
// the same does not render again, so only rows that can act are given a state that changes. Pure.
import type { ChatItem } from './chat-items';
import { isExchangeItem } from './live-items';
import { READ_ONLY, type RowState } from './same-row';

const SETTLING: RowState = { ...READ_ONLY, isSettling: true };

/** An errored card whose chain has not ended yet while no retry is under way: its outcome comes next. */
function isSettling(item: ChatItem): boolean {
  return (
    item.kind === 'errored-chain' && item.chain === null && (item.status === 'unknown' || item.status === 'failed')
  );
}

/**
 * Each row's state, given the chat's items, whether a turn runs, and the chain offered to continue
 * after a restart (answered on its own card, not as the last exchange).
 */
export function rowStates(
  items: ChatItem[],
  isBusy: boolean,
  offeredChain: string | null,
): (item: ChatItem) => RowState {
  const last = items.findLast(isExchangeItem);
  // A failure whose outcome is still on its way offers nothing yet: no state is painted that the
  // next event takes back (a guessed category, Edit coming and going).
  if (last && isSettling(last)) return (item) => (item === last ? SETTLING : READ_ONLY);
  if (isBusy) return () => READ_ONLY;
  return (item) => {
    const isLast = item === last;
    // Only a person's message (Edit), a run's Changed N files row (Undo, Redo) and the away
    // summary (its Undo) act anywhere in the chat; any other row acts only as the last exchange. The rest keep READ_ONLY, so a run's
    // start and end do not render them again.
    const actsAnywhere =
      (item.kind === 'message' && item.role === 'user') || item.kind === 'file-changes' || item.kind === 'away-summary';
    if (!isLast && !actsAnywhere) return READ_ONLY;
    // As before issue 25: a card without a chain id is not live either while no chain is on offer.
    return { isLive: !(item.kind === 'errored-chain' && item.chainId === offeredChain), isLast };
  };
}

// Where the person left each chat (docs/architecture.md, "While you were away"): the newest turn
// seen while the chat was shown in a focused, visible window, kept in this window's localStorage
// (`resolute.seen.<session id>`) so it holds across a reload. Turns stored while the chat was not
// shown or the window was away are the range the away summary tells, once: coming back moves the
// mark, so the card does not come back after a reload, and it lasts while its chat stays shown
// (Settings or History and back included) or until it is dismissed. Used by ChatView.
import { createContext, useCallback, useContext, useEffect, useState } from 'react';
import type { AwayRange } from './away-summary';

const PREFIX = 'resolute.seen.';
/** The card shown, kept across the chat pane's remounts (Settings shown and back) until it ends. */
let heldRange: AwayRange | null = null;

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** The newest turn seq seen of a chat in this window; null when it was never shown here. */
export function seenSeq(sessionId: string): number | null {
  const value = Number(storage()?.getItem(PREFIX + sessionId) ?? Number.NaN);
  return Number.isInteger(value) ? value : null;
}

function markSeen(sessionId: string, seq: number): void {
  try {
    storage()?.setItem(PREFIX + sessionId, String(seq));
  } catch {
    // A full storage loses the mark: at worst the card is not told; nothing else depends on it.
  }
}

/** The person is at the window: it is visible and has the focus. */
function isPresent(): boolean {
  return document.visibilityState === 'visible' && document.hasFocus();
}

function usePresence(): boolean {
  const [present, setPresent] = useState(isPresent);
  useEffect(() => {
    const update = (): void => setPresent(isPresent());
    window.addEventListener('focus', update);
    window.addEventListener('blur', update);
    document.addEventListener('visibilitychange', update);
    return () => {
      window.removeEventListener('focus', update);
      window.removeEventListener('blur', update);
      document.removeEventListener('visibilitychange', update);
    };
  }, []);
  return present;
}

/**
 * The range of turns the shown chat stored while the person was away, from their coming back until
 * they dismiss it or show another chat; `lastSeq` is the newest stored turn's seq (0: none yet).
 * Coming back is a change of chat or of presence (a mount counts: Settings was shown); while the
 * chat stays shown to a present person, its turns are seen as they come.
 */
export function useAwayRange(
  sessionId: string | null,
  lastSeq: number,
): { range: AwayRange | null; dismiss: () => void } {
  const present = usePresence();
  const [range, setRange] = useState<AwayRange | null>(() => heldRange);
  const [looked, setLooked] = useState<{ sessionId: string | null; present: boolean }>({
    sessionId: null,
    present: false,
  });
  // Adjusted while rendering (React's way for state that follows props): no frame shows the chat
  // without its card.
  if (looked.sessionId !== sessionId || looked.present !== present) {
    setLooked({ sessionId, present });
    const seen = sessionId && present ? seenSeq(sessionId) : null;
    if (sessionId && seen !== null && lastSeq > seen) {
      setRange(
        range?.sessionId === sessionId ? { ...range, toSeq: lastSeq } : { sessionId, fromSeq: seen, toSeq: lastSeq },
      );
    } else if (range && range.sessionId !== sessionId) {
      setRange(null);
    }
  }
  useEffect(() => {
    heldRange = range;
  }, [range]);
  useEffect(() => {
    if (present && sessionId && seenSeq(sessionId) !== lastSeq) markSeen(sessionId, lastSeq);
  }, [present, sessionId, lastSeq]);
  const dismiss = useCallback(() => setRange(null), []);
  return { range: range?.sessionId === sessionId ? range : null, dismiss };
}

/** The shown card's Dismiss, given by ChatView to the rows (a row renders from its item alone). */
export const AwayDismissContext = createContext<() => void>(() => undefined);

export const useAwayDismiss = (): (() => void) => useContext(AwayDismissContext);

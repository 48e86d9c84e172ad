// Stick to the bottom of the live chat's virtualised transcript (TranscriptList) while the reader
// is there: whenever the list grows — a row added, the newest row growing as a reply streams in —
// it scrolls to the end. Not react-virtuoso's followOutput: once it has followed an added row it
// keeps scrolling to the end for as long as rows keep changing, and a streaming reply changes
// every few milliseconds, so a reader who scrolled up would be taken back down.
import { useCallback, useLayoutEffect, useRef, type SyntheticEvent } from 'react';
import type { VirtuosoHandle } from 'react-virtuoso';

/** How close to the bottom (px) still counts as "at the bottom". */
const PIN_THRESHOLD_PX = 80;
/** A scroll this soon after the person's own input on the transcript (wheel, key, pointer, touch, focus) is theirs, ms. */
const INTENT_MS = 800;

/**
 * Only the person scrolls the reader away from the bottom: a reply growing moves the bottom
 * without a scroll event, and react-virtuoso's own corrections (rows measured above the viewport)
 * scroll without the person's input, so neither counts as scrolling up. Coming back to the bottom
 * starts following again; each new `followKey` (a message sent, an approval asked) brings the
 * bottom back into view.
 */
export function useFollowBottom(followKey: string | undefined) {
  const handle = useRef<VirtuosoHandle>(null);
  const isPinned = useRef(true);
  const intentAt = useRef(Number.NEGATIVE_INFINITY);
  // The first open too (not react-virtuoso's initialTopMostItemIndex: it keeps scrolling to its
  // target whenever rows change in the next second, and rows joining the front are a change).
  const lastKey = useRef<string | null>(null);
  const toBottom = useCallback(() => handle.current?.scrollTo({ top: Number.MAX_SAFE_INTEGER }), []);
  useLayoutEffect(() => {
    if (followKey === undefined || followKey === lastKey.current) return;
    lastKey.current = followKey;
    isPinned.current = true;
    toBottom();
  }, [followKey, toBottom]);
  return {
    handle,
    onHeightChanged: useCallback(() => {
      if (isPinned.current) toBottom();
    }, [toBottom]),
    onScroll: useCallback((el: HTMLElement) => {
      if (el.scrollHeight - el.scrollTop - el.clientHeight < PIN_THRESHOLD_PX) isPinned.current = true;
      else if (performance.now() - intentAt.current < INTENT_MS) isPinned.current = false;
    }, []),
    onIntent: useCallback((event: SyntheticEvent) => {
      intentAt.current = performance.now();
      // A wheel turned up leaves at once, before its scroll lands behind a streamed update.
      if (event.type === 'wheel' && (event.nativeEvent as WheelEvent).deltaY < 0) isPinned.current = false;
    }, []),
  };
}

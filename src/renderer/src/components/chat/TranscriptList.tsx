// The transcript as a virtualised list (@tanstack/react-virtual): the chat (ChatView) and a stored
// session (SessionDetailView) render their rows (ChatItemView) through it. A short transcript keeps
// every row in the DOM; a longer one, or one that older pages may still join, only the rows near
// the viewport (docs/performance.md, "Long transcripts"). The list is anchored at its end: an
// older page joins the front without moving what the reader sees, and the live chat opens at its
// newest row and follows new output while the reader is at the bottom.
import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import {
  useEffectEvent,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatItem } from '../../chat/chat-items';
import { estimateRowHeight } from '../../chat/row-height';

/** Up to this many rows (and no older pages to come) all stay rendered: find-in-page sees a whole short chat. */
export const VIRTUALISE_ABOVE = 60;
/** Rows rendered beyond each edge of the viewport: the keyboard and a fast wheel find them there. */
const OVERSCAN_ROWS = 4;
/** Between two rows, px (the list's own spacing: rows are placed, not laid out). */
const ROW_GAP = 10;
/** Above the first row and below the last in the chat's own scroller, px. */
const CHAT_PADDING = 16;
/** How close to the bottom (px) still counts as "at the bottom" for following new output. */
const PIN_THRESHOLD_PX = 80;

/** A long session's older pages: whether there are more, and how to fetch the next one. */
export interface OlderPages {
  hasOlder: boolean;
  load: () => void;
  /** Fetch as the reader comes within a screen of the top (the chat), not only by the button. */
  whenNearTop?: boolean;
}

interface TranscriptListProps {
  items: ChatItem[];
  renderItem: (item: ChatItem) => ReactNode;
  /** The list's accessible name. */
  label: string;
  /**
   * The live chat: open at the newest row and follow new output while the reader is at the bottom;
   * each new value (a message sent, an approval asked) brings the bottom back into view.
   */
  followKey?: string;
  /** A long session's older pages: "Show older turns" while there are more. */
  older?: OlderPages;
  /** Scroll with this element (the history pane, whose header scrolls away with the list) instead of a scroller of its own. */
  scrollParent?: HTMLElement;
}

export function TranscriptList(props: TranscriptListProps) {
  const { items, label, followKey, older, scrollParent } = props;
  const ownScroller = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLOListElement>(null);
  const isFollowing = followKey !== undefined;
  const hasOlder = older?.hasOlder ?? false;
  const renderAll = items.length <= VIRTUALISE_ABOVE && !hasOlder;
  const scrollMargin = useListOffset(list, scrollParent);
  // The virtualizer is read as it renders; none of its functions goes to anything memoised.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer<HTMLElement, HTMLLIElement>({
    count: items.length,
    getScrollElement: () => scrollParent ?? ownScroller.current,
    estimateSize: (index) => estimateRowHeight(items[index]),
    getItemKey: (index) => items[index].key,
    overscan: renderAll ? items.length : OVERSCAN_ROWS,
    gap: ROW_GAP,
    paddingStart: scrollParent ? 0 : CHAT_PADDING,
    paddingEnd: scrollParent ? 0 : CHAT_PADDING,
    scrollMargin,
    anchorTo: 'end',
    followOnAppend: isFollowing,
    scrollEndThreshold: isFollowing ? PIN_THRESHOLD_PX : 1,
  });
  useFollowKey(followKey, () => virtualizer.scrollToEnd());
  usePinnedThroughResize(isFollowing ? ownScroller : null, () => virtualizer.scrollToEnd());

  const rows = (
    <VirtualRows virtualizer={virtualizer} listRef={list} label={label} offset={scrollMargin}>
      {(index) => props.renderItem(items[index])}
    </VirtualRows>
  );
  if (scrollParent) {
    return (
      <>
        {older && <OlderTurnsSlot older={older} />}
        {rows}
      </>
    );
  }
  return (
    <div className="transcript-frame">
      {hasOlder && older && (
        <div className="transcript-older">
          <OlderTurnsButton onClick={older.load} />
        </div>
      )}
      <div
        ref={ownScroller}
        className="transcript"
        data-testid="transcript"
        // Focusable, so the keyboard scrolls the transcript (Home goes to the top, PageUp a screen up).
        tabIndex={0}
        onScroll={(event) => {
          const el = event.currentTarget;
          if (hasOlder && older?.whenNearTop && el.scrollTop < el.clientHeight) older.load();
        }}
        onKeyDown={(event) => {
          if (jumpTo(event, virtualizer)) event.preventDefault();
        }}
      >
        {rows}
      </div>
    </div>
  );
}

interface RowsProps {
  virtualizer: Virtualizer<HTMLElement, HTMLLIElement>;
  listRef: RefObject<HTMLOListElement | null>;
  label: string;
  /** Where the list starts in the page that scrolls it, px (rows are placed from there). */
  offset: number;
  children: (index: number) => ReactNode;
}

/** The rows the virtualizer has in range, each placed where it belongs in the whole list. */
function VirtualRows({ virtualizer, listRef, label, offset, children }: RowsProps) {
  const count = virtualizer.options.count;
  return (
    <ol
      ref={listRef}
      className="transcript-list transcript-list-virtual"
      aria-label={label}
      style={{ height: virtualizer.getTotalSize() }}
    >
      {virtualizer.getVirtualItems().map((row) => (
        <li
          key={row.key}
          ref={virtualizer.measureElement}
          className="transcript-row"
          data-index={row.index}
          // Only some rows are in the DOM: each says where it stands in the whole list.
          aria-setsize={count}
          aria-posinset={row.index + 1}
          style={{ transform: `translateY(${row.start - offset}px)` }}
        >
          {children(row.index)}
        </li>
      ))}
    </ol>
  );
}

/**
 * Home and End go to the first and the last row held, by the list itself: the browser's own jump
 * over rows placed by estimate stops short where the list corrects them as they are measured.
 * Not from a text field (an edit box), where the keys move the caret. True when it jumped.
 */
function jumpTo(event: KeyboardEvent, virtualizer: Virtualizer<HTMLElement, HTMLLIElement>): boolean {
  const target = event.target as HTMLElement;
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || target.isContentEditable) return false;
  if (target.tagName === 'TEXTAREA' || target.tagName === 'INPUT') return false;
  if (event.key === 'Home') virtualizer.scrollToOffset(0);
  else if (event.key === 'End') virtualizer.scrollToEnd();
  else return false;
  return true;
}

/** Where the list starts in the page that scrolls it (the history pane), px; 0 in a scroller of its own. */
function useListOffset(list: RefObject<HTMLOListElement | null>, scrollParent: HTMLElement | undefined): number {
  const [offset, setOffset] = useState(0);
  // What is above the list (the detail's header, its export status) changes its parent's height.
  useLayoutEffect(() => {
    const el = list.current;
    if (!el || !scrollParent) return;
    const observer = new ResizeObserver(() => {
      const top = el.getBoundingClientRect().top - scrollParent.getBoundingClientRect().top + scrollParent.scrollTop;
      setOffset(Math.round(top));
    });
    observer.observe(el.parentElement ?? el);
    return () => observer.disconnect();
  }, [list, scrollParent]);
  return offset;
}

/**
 * The live chat's scroller shrinks when something around it grows (a card under it, a header that
 * wraps to another line in a longer language): a reader at the bottom stays there, so the newest
 * row's actions (Copy) are not left under the edge.
 */
function usePinnedThroughResize(scroller: RefObject<HTMLDivElement | null> | null, toEnd: () => void): void {
  const pin = useEffectEvent(toEnd);
  useLayoutEffect(() => {
    const el = scroller?.current;
    if (!el) return;
    let height = el.clientHeight;
    const observer = new ResizeObserver(() => {
      const wasAtBottom = el.scrollHeight - el.scrollTop - height <= PIN_THRESHOLD_PX;
      const changed = el.clientHeight !== height;
      height = el.clientHeight;
      if (changed && wasAtBottom) pin();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [scroller]);
}

/** The live chat opens at its newest row; each new follow key (a message sent, an approval asked) goes there again. */
function useFollowKey(followKey: string | undefined, toEnd: () => void): void {
  const last = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (followKey === undefined || followKey === last.current) return;
    last.current = followKey;
    toEnd();
  });
}

/**
 * "Show older turns": the way to a long session's older pages for a keyboard or a screen reader
 * (the chat also fetches them as the reader nears the top). In the chat it floats over the top of
 * the transcript, taking no room in the list.
 */
function OlderTurnsButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <button type="button" className="button button-small" data-testid="load-older" onClick={onClick}>
      {t('chat.loadOlder')}
    </button>
  );
}

/**
 * Above a stored session's transcript (which scrolls with the page): the button, and once nothing
 * older is left "The start of this session" in its place, at the same height, so that the rows
 * below do not move. A session that was never paged shows neither.
 */
function OlderTurnsSlot({ older }: { older: OlderPages }) {
  const { t } = useTranslation();
  const [wasPaged, setWasPaged] = useState(older.hasOlder);
  if (older.hasOlder && !wasPaged) setWasPaged(true);
  if (!wasPaged) return null;
  return (
    <div className="transcript-older-slot">
      {older.hasOlder ? (
        <OlderTurnsButton onClick={older.load} />
      ) : (
        <span data-testid="session-start">{t('chat.sessionStart')}</span>
      )}
    </div>
  );
}

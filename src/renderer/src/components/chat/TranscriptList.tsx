// The transcript as a virtualised list (react-virtuoso): the chat (ChatView) and a stored session
// (SessionDetailView) render their rows (ChatItemView) through it. A short transcript keeps every
// row in the DOM; a longer one, or one that older pages may still join, only the rows near the
// viewport (docs/architecture.md, "Long transcripts"). An older page joins the front without moving
// what the reader sees; the live chat opens at its newest row and keeps it in view while the
// reader is at the bottom.
import { useState, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Virtuoso, type ItemProps, type ListProps } from 'react-virtuoso';
import type { ChatItem } from '../../chat/chat-items';
import { prependedCount } from '../../chat/prepended';
import { useFollowBottom } from './use-follow-bottom';

/** Up to this many rows (and no older pages to come) all stay rendered: find-in-page sees a whole short chat. */
export const VIRTUALISE_ABOVE = 60;
/**
 * Rendered below the viewport when virtualised, px: a streaming reply keeps growing there, and the
 * keyboard finds the next rows. None above: react-virtuoso keeps the reader's place when rows join
 * the front by scrolling past them before they render; rows rendered there (with heights other
 * than its estimate) would move the reader.
 */
const OVERSCAN = { top: 0, bottom: 800 };
const ALL_ROWS = { top: 1e9, bottom: 1e9 };
/** react-virtuoso counts rows joining the front down from here (it must stay positive). */
const FIRST_INDEX = 1_000_000_000;

interface ListContext {
  label: string;
  count: number;
}

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
  /** A long session's older pages: "Show older turns" floats over the top while there are more. */
  older?: OlderPages;
  /** Scroll with this element (the history pane, whose header scrolls away with the list) instead of a scroller of its own. */
  scrollParent?: HTMLElement;
}

export function TranscriptList(props: TranscriptListProps) {
  const { items, label, followKey, older, scrollParent } = props;
  const firstItemIndex = useFirstItemIndex(items);
  const { handle, onHeightChanged, onScroll, onIntent } = useFollowBottom(followKey);
  const isFollowing = followKey !== undefined;
  const intent = isFollowing ? onIntent : undefined;
  const hasOlder = older?.hasOlder ?? false;
  // Short and complete: every row rendered. A list that may still grow at the front is virtualised.
  const overscan = items.length <= VIRTUALISE_ABOVE && !hasOlder ? ALL_ROWS : OVERSCAN;
  const list = (
    <Virtuoso<ChatItem, ListContext>
      ref={handle}
      className={scrollParent === undefined ? 'transcript' : undefined}
      data-testid={scrollParent === undefined ? 'transcript' : 'transcript-rows'}
      // The transcript scrolls by keyboard once focused; the focus ring shows where it is.
      style={{ outline: undefined, height: undefined }}
      data={items}
      context={{ label, count: items.length }}
      components={COMPONENTS}
      computeItemKey={(_, item) => item.key}
      itemContent={(_, item) => props.renderItem(item)}
      firstItemIndex={firstItemIndex}
      increaseViewportBy={overscan}
      customScrollParent={scrollParent}
      totalListHeightChanged={isFollowing ? onHeightChanged : undefined}
      onScroll={(event) => {
        const el = event.currentTarget;
        if (isFollowing) onScroll(el);
        if (hasOlder && older?.whenNearTop && el.scrollTop < el.clientHeight) older.load();
      }}
      onWheel={intent}
      onKeyDown={intent}
      onPointerDown={intent}
      onTouchStart={intent}
      onFocus={intent}
    />
  );
  if (scrollParent !== undefined) {
    return (
      <>
        {older && <OlderTurnsSlot older={older} />}
        {list}
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
      {list}
    </div>
  );
}

/**
 * react-virtuoso keeps the reader's place when rows join the front only if firstItemIndex drops
 * by their number in the same render: derived from the previous items (React's "state from the
 * previous render" pattern), not from an effect that would run a render too late.
 */
function useFirstItemIndex(items: ChatItem[]): number {
  const [seen, setSeen] = useState({ items, first: FIRST_INDEX });
  if (seen.items === items) return seen.first;
  const next = { items, first: seen.first - prependedCount(seen.items, items) };
  setSeen(next);
  return next.first;
}

function List({ context, children, style, ref }: ListProps<HTMLUListElement> & { context: ListContext }) {
  return (
    <ol
      className="transcript-list"
      aria-label={context.label}
      style={style}
      // react-virtuoso types its list element as <div> or <ul>; an <ol> is the same to it.
      ref={ref as Ref<HTMLOListElement>}
    >
      {children}
    </ol>
  );
}

/** A row as a list item; its position in the whole list, as only some rows may be in the DOM. */
function Item({ context, children, style, item: _item, ...data }: ItemProps<ChatItem> & { context: ListContext }) {
  return (
    <li
      className="transcript-row"
      style={style}
      aria-setsize={context.count}
      aria-posinset={data['data-index'] + 1}
      {...data}
    >
      {children}
    </li>
  );
}

/**
 * "Show older turns": the way to a long session's older pages for a keyboard or a screen reader
 * (the chat also fetches them as the reader nears the top). In the chat it floats over the top of
 * the transcript and takes no room in the list: rows that join the front then land above the
 * reader, out of view, where react-virtuoso places them without moving what the reader sees.
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

function Footer() {
  return <div className="transcript-foot" />;
}

const COMPONENTS = { List, Item, Footer };

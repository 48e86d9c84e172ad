// The transcript as a virtualised list (react-virtuoso): the chat (ChatView) and a stored session
// (SessionDetailView) render their rows (ChatItemView) through it. A short transcript keeps every
// row in the DOM; above VIRTUALISE_ABOVE rows only those near the viewport are (docs/architecture.md,
// "Long transcripts"). Rows joining the front (an older page) keep the reader's place; the live
// chat opens at its newest row and keeps it in view while the reader is at the bottom.
import { useState, type ReactNode, type Ref } from 'react';
import { Virtuoso, type ItemProps, type ListProps } from 'react-virtuoso';
import type { ChatItem } from '../../chat/chat-items';
import { prependedCount } from '../../chat/prepended';
import { useFollowBottom } from './use-follow-bottom';

/** Up to this many rows all stay rendered (the browser's find-in-page sees a whole short chat). */
export const VIRTUALISE_ABOVE = 60;
/** Rendered beyond each edge of the viewport when virtualised, px: keyboard focus and fast wheels find rows there. */
const OVERSCAN_PX = 800;
const ALL_ROWS_PX = 1e9;
/** react-virtuoso counts rows joining the front down from here (it must stay positive). */
const FIRST_INDEX = 1_000_000_000;

interface ListContext {
  label: string;
  count: number;
  header: ReactNode;
}

interface TranscriptListProps {
  items: ChatItem[];
  renderItem: (item: ChatItem) => ReactNode;
  /** The list's accessible name. */
  label: string;
  /** Above the first row (the live chat's "Show older turns"). */
  header?: ReactNode;
  /**
   * The live chat: open at the newest row and follow new output while the reader is at the bottom;
   * each new value (a message sent, an approval asked) brings the bottom back into view.
   */
  followKey?: string;
  /** The reader came within a screen of the top (the chat fetches an older page then). */
  onNearTop?: () => void;
  /** Scroll with this element (the history pane, whose header scrolls away with the list) instead of a scroller of its own. */
  scrollParent?: HTMLElement;
}

export function TranscriptList(props: TranscriptListProps) {
  const { items, label, header, followKey, onNearTop, scrollParent } = props;
  const firstItemIndex = useFirstItemIndex(items);
  const { handle, followOutput, onHeightChanged, onScroll, onIntent } = useFollowBottom(followKey);
  const isFollowing = followKey !== undefined;
  const intent = isFollowing ? onIntent : undefined;
  const overscan = items.length > VIRTUALISE_ABOVE ? OVERSCAN_PX : ALL_ROWS_PX;
  return (
    <Virtuoso<ChatItem, ListContext>
      ref={handle}
      className={scrollParent === undefined ? 'transcript' : undefined}
      data-testid={scrollParent === undefined ? 'transcript' : 'transcript-rows'}
      // The transcript scrolls by keyboard once focused; the focus ring shows where it is.
      style={{ outline: undefined, height: undefined }}
      data={items}
      context={{ label, count: items.length, header }}
      components={COMPONENTS}
      computeItemKey={(_, item) => item.key}
      itemContent={(_, item) => props.renderItem(item)}
      firstItemIndex={firstItemIndex}
      increaseViewportBy={overscan}
      customScrollParent={scrollParent}
      initialTopMostItemIndex={isFollowing ? { index: 'LAST', align: 'end' } : 0}
      followOutput={isFollowing ? followOutput : false}
      totalListHeightChanged={isFollowing ? onHeightChanged : undefined}
      onScroll={(event) => {
        const el = event.currentTarget;
        if (isFollowing) onScroll(el);
        if (onNearTop && el.scrollTop < el.clientHeight) onNearTop();
      }}
      onWheel={intent}
      onKeyDown={intent}
      onPointerDown={intent}
      onTouchStart={intent}
      onFocus={intent}
    />
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

function Header({ context }: { context: ListContext }) {
  return <div className="transcript-head">{context.header}</div>;
}

function Footer() {
  return <div className="transcript-foot" />;
}

const COMPONENTS = { List, Item, Header, Footer };

// A row's height before it is measured, px: the virtualised transcript (TranscriptList) places
// the rows it has not rendered yet by this guess, so that the scrollbar, Home and PageUp land near
// where the rows turn out to be. Rough on purpose — every rendered row is measured — and cheap, as
// it runs for every row not measured yet whenever rows join the list. Pure.
import type { ChatItem } from './chat-items';

const LINE_PX = 21;
/** Characters on one line of a bubble at the transcript's width. */
const CHARS_PER_LINE = 95;
/** A bubble's padding, its name line and its actions. */
const BUBBLE_PX = 64;
/** The row of chips under a message with attachments (a sent thumbnail is 96 px, AttachmentChips). */
const ATTACHMENTS_PX = 112;

function lineCount(text: string): number {
  let lines = Math.ceil(text.length / CHARS_PER_LINE);
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines += 1;
  return Math.max(1, lines);
}

export function estimateRowHeight(item: ChatItem): number {
  switch (item.kind) {
    case 'message':
      return BUBBLE_PX + lineCount(item.text) * LINE_PX + (item.attachments ? ATTACHMENTS_PX : 0);
    case 'errored-chain':
      return item.status === 'recovered' ? 32 : 150;
    case 'tool-call':
      return 46;
    case 'compaction':
    case 'model-switch':
      return 36;
    default:
      return 90;
  }
}

// Splits a Markdown reply into its top-level blocks, so that a streaming reply re-parses only its
// last, growing block: the finished ones keep their text, their offset (the React key) and so
// their memoised render (Markdown.tsx). A block ends at a blank line outside a fenced code block,
// unless the next line is indented (a list item's continuation). Pure, and a line scan only: the
// Markdown parse is what costs.

export interface Block {
  /** Offset of the block in the whole text: stable while the text grows, so it serves as a key. */
  start: number;
  text: string;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export function splitBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let fence: string | null = null;
  let blockStart = 0;
  let sawBlank = false;
  let pos = 0;
  while (pos < text.length) {
    const newline = text.indexOf('\n', pos);
    const end = newline < 0 ? text.length : newline + 1;
    const line = text.slice(pos, newline < 0 ? text.length : newline);
    const marker = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
    } else if (line.trim() === '') {
      sawBlank = true;
    } else {
      // A blank line then an unindented line: a new block begins here.
      if (sawBlank && !/^\s/.test(line) && pos > blockStart) {
        blocks.push({ start: blockStart, text: text.slice(blockStart, pos) });
        blockStart = pos;
      }
      sawBlank = false;
      if (marker) fence = marker;
    }
    pos = end;
  }
  if (blockStart < text.length) blocks.push({ start: blockStart, text: text.slice(blockStart) });
  return blocks;
}

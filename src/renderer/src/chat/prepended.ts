// How many rows joined the front of a list between two renders (an older page of a long session),
// so the virtualised transcript (TranscriptList) can tell react-virtuoso, which keeps the reader's
// place only when its firstItemIndex drops by exactly that many. Rows are matched by their keys;
// the row that was first may itself have changed (a retry chain's card that gained attempts from
// the older page keeps its key), so the first few rows are tried in turn. Pure.

/** How far down the old list to look for a row the new list still holds. */
const ANCHOR_TRIES = 20;

export function prependedCount(before: readonly { key: string }[], after: readonly { key: string }[]): number {
  if (before.length === 0 || after.length === 0 || before[0].key === after[0].key) return 0;
  const positions = new Map<string, number>();
  after.forEach((row, i) => positions.set(row.key, i));
  for (let i = 0; i < Math.min(before.length, ANCHOR_TRIES); i += 1) {
    const at = positions.get(before[i].key);
    if (at !== undefined) return Math.max(0, at - i);
  }
  return 0;
}

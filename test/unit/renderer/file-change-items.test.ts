// The chat's "Changed N files" rows (src/renderer/src/chat/file-change-items.ts): one per person's
// message whose run changed files, each file counted once with its lines summed, Undo and Redo
// counts from each change's state, placed before the person's next message (or after the last
// conversation row, before Continue), and none for a message the chat does not show; Restore files
// to here on each earlier message from which on a change is still in place; a failed card names
// the files its run changed before it failed.
import { describe, expect, it } from 'vitest';
import { buildChatItems, type ChatItem, type ErroredChainItem } from '../../../src/renderer/src/chat/chat-items';
import {
  fileChangeRows,
  withChangedFilesOnCards,
  withFileChanges,
  withRestoreOffers,
} from '../../../src/renderer/src/chat/file-change-items';
import type { SessionFileChanges, StoredFileChange } from '../../../src/shared/file-history';
import { assistantMessage, turn, userMessage } from './fixtures';

const items: ChatItem[] = buildChatItems({
  turns: [
    turn(1, userMessage('one', 1)),
    turn(2, assistantMessage('did one', 2)),
    turn(3, userMessage('two', 3)),
    turn(4, assistantMessage('did two', 4)),
  ],
  chains: {},
  decisions: [],
});

let n = 0;
function change(userTurnId: string | null, path: string, more: Partial<StoredFileChange> = {}): StoredFileChange {
  n += 1;
  return {
    id: n,
    turnId: `r${n}`,
    userTurnId,
    toolCallId: `c${n}`,
    toolName: 'write',
    path,
    kind: 'changed',
    before: { hash: 'a', mode: 0o644, size: 1 },
    after: { hash: 'b', mode: 0o644, size: 1 },
    added: 2,
    removed: 1,
    binary: false,
    state: 'applied',
    createdAt: n,
    ...more,
  };
}

const session = (changes: StoredFileChange[]): SessionFileChanges => ({
  sessionId: 's',
  changes,
  notRecorded: [],
  undos: [],
});

const shape = (list: ChatItem[]) =>
  list.map((i) =>
    i.kind === 'message' ? `${i.role}:${i.turnId}` : i.kind === 'file-changes' ? `files:${i.userTurnId}` : i.kind,
  );

describe('fileChangeRows', () => {
  it('counts each file once, sums its lines, and says how many changes are applied and undone', () => {
    const rows = fileChangeRows(
      session([
        change('t1', 'a.txt'),
        change('t1', 'a.txt', { state: 'undone' }),
        change('t1', 'b.txt'),
        change(null, 'x'),
      ]),
    );
    expect(rows).toEqual([
      expect.objectContaining({ userTurnId: 't1', files: 2, added: 6, removed: 3, applied: 2, undone: 1 }),
    ]);
  });
});

describe('withFileChanges', () => {
  it("places each run's row before the person's next message, and the last one after the conversation's last row", () => {
    const out = withFileChanges(
      [...items, { kind: 'continue', key: 'continue' }],
      session([change('t3', 'b'), change('t1', 'a')]),
    );
    expect(shape(out)).toEqual([
      'user:t1',
      'assistant:t2',
      'files:t1',
      'user:t3',
      'assistant:t4',
      'files:t3',
      'continue',
    ]);
  });

  it('adds nothing for a message not shown, nor without changes', () => {
    expect(withFileChanges(items, session([change('t9', 'a')]))).toEqual(items);
    expect(withFileChanges(items, null)).toBe(items);
  });
});

describe('withRestoreOffers', () => {
  const three: ChatItem[] = buildChatItems({
    turns: [
      turn(1, userMessage('one', 1)),
      turn(2, assistantMessage('did one', 2)),
      turn(3, userMessage('two', 3)),
      turn(4, assistantMessage('did two', 4)),
      turn(5, userMessage('three', 5)),
      turn(6, assistantMessage('did three', 6)),
    ],
    chains: {},
    decisions: [],
  });
  const offered = (list: ChatItem[]) => list.flatMap((i) => (i.kind === 'message' && i.restoreFiles ? [i.turnId] : []));

  it('offers it on each earlier message at or before a run whose change is in place, never on the last', () => {
    expect(offered(withRestoreOffers(three, session([change('t3', 'a')])))).toEqual(['t1', 't3']);
    expect(offered(withRestoreOffers(three, session([change('t5', 'a')])))).toEqual(['t1', 't3']);
    expect(offered(withRestoreOffers(three, session([change('t1', 'a')])))).toEqual(['t1']);
  });

  it('offers nothing once every later change is undone', () => {
    const undone = session([change('t1', 'a', { state: 'undone' }), change('t3', 'b', { state: 'undone' })]);
    expect(withRestoreOffers(three, undone)).toBe(three);
    expect(offered(withFileChanges(three, undone))).toEqual([]);
  });
});

describe('withChangedFilesOnCards', () => {
  const failed = (status: ErroredChainItem['status'], failedAt: number): ErroredChainItem => ({
    kind: 'errored-chain',
    key: 'c1',
    chainId: 'chain-1',
    attempts: [
      {
        key: 'a1',
        errorMessage: '401',
        partial: null,
        startedAt: null,
        category: 'auth',
        createdAt: failedAt,
        usage: null,
        costUsd: null,
      },
    ],
    chain: null,
    decisions: [],
    status,
    retries: 0,
    prompt: { turnId: 't1', text: 'go' },
    lastSeq: 2,
    compaction: null,
    continued: false,
  });
  const changedFiles = (list: ChatItem[]) => list.map((i) => (i.kind === 'errored-chain' ? i.changedFiles : null));

  it('names each file its run changed before it failed, once, and none changed after or by another run', () => {
    const changes = session([
      change('t1', 'a.txt', { createdAt: 10 }),
      change('t1', 'a.txt', { createdAt: 11 }),
      change('t1', 'b.txt', { createdAt: 12 }),
      change('t1', 'later.txt', { createdAt: 99 }),
      change('t3', 'other.txt', { createdAt: 5 }),
    ]);
    expect(changedFiles(withChangedFilesOnCards([failed('failed', 20)], changes))).toEqual([['a.txt', 'b.txt']]);
    expect(changedFiles(withChangedFilesOnCards([failed('recovered', 20)], changes))).toEqual([undefined]);
    expect(changedFiles(withChangedFilesOnCards([failed('failed', 1)], changes))).toEqual([undefined]);
  });

  it('says whether some of those changes are still in place, for Resend to offer undoing them first', () => {
    const inPlace = (list: ChatItem[]) => list.map((i) => (i.kind === 'errored-chain' ? i.changesInPlace : null));
    const some = session([
      change('t1', 'a.txt', { createdAt: 10, state: 'undone' }),
      change('t1', 'b.txt', { createdAt: 12 }),
    ]);
    const none = session([change('t1', 'a.txt', { createdAt: 10, state: 'undone' })]);
    expect(inPlace(withChangedFilesOnCards([failed('failed', 20)], some))).toEqual([true]);
    expect(inPlace(withChangedFilesOnCards([failed('failed', 20)], none))).toEqual([false]);
    expect(changedFiles(withChangedFilesOnCards([failed('failed', 20)], none))).toEqual([['a.txt']]);
  });
});

// "While you were away" (src/renderer/src/chat/away-summary.ts): only the turns after the mark
// count; failed attempts by category with the retry waits decided after them; chains recovered and
// not; approvals answered with their waits and denials, and those still waiting; every attempt's
// cost; the files the range's calls changed and the runs Undo acts on; what is still scheduled;
// whether it is worth a card; and where the card goes.
import { describe, expect, it } from 'vitest';
import {
  buildAwaySummary,
  isWorthTelling,
  withAwaySummary,
  type AwayInput,
} from '../../../src/renderer/src/chat/away-summary';
import { buildChatItems } from '../../../src/renderer/src/chat/chat-items';
import type { StoredFileChange } from '../../../src/shared/file-history';
import type { AssistantChatMessage, ToolResultChatMessage } from '../../../src/shared/messages';
import { assistantMessage, decision, erroredMessage, SESSION_ID, turn, userMessage } from './fixtures';

const usage = { input: 100, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 120 };

function callingReply(id: string, timestamp: number): AssistantChatMessage {
  return assistantMessage('', timestamp, {
    stopReason: 'toolUse',
    content: [{ type: 'toolCall', id, name: 'bash', arguments: { command: 'make' } }],
  });
}

function result(toolCallId: string, details: object, timestamp: number): ToolResultChatMessage {
  return {
    role: 'toolResult',
    toolCallId,
    toolName: 'bash',
    content: [{ type: 'text', text: 'ok' }],
    details,
    isError: false,
    timestamp,
  };
}

function change(turnId: string, path: string, more: Partial<StoredFileChange> = {}): StoredFileChange {
  return {
    id: 1,
    turnId,
    userTurnId: 't1',
    toolCallId: 'x',
    toolName: 'bash',
    path,
    kind: 'changed',
    before: null,
    after: null,
    added: 3,
    removed: 1,
    binary: false,
    state: 'applied',
    createdAt: 1,
    ...more,
  };
}

// The person asked (1) and saw the first reply (2); away from 3 on: a tool call approved after
// 90 s, two server errors and a rate limit retried, then the reply that recovered the chain.
const turns = [
  turn(1, userMessage('build it', 1)),
  turn(2, callingReply('seen', 2), { usage, costUsd: 0.5 }),
  turn(3, callingReply('c1', 3), { usage, costUsd: 0.01 }),
  turn(4, result('c1', { approval: { choice: 'once', waitedMs: 90_000 } }, 4)),
  turn(5, erroredMessage('503', 5), { chainId: 'k1', usage, costUsd: 0.02 }),
  turn(6, erroredMessage('503', 6), { chainId: 'k1', usage, costUsd: 0.02 }),
  turn(7, erroredMessage('429', 7), { chainId: 'k1', errorCategory: 'rate_limit', usage: null }),
  turn(8, assistantMessage('done', 8), { chainId: 'k1', usage, costUsd: 0.03 }),
];
const decisions = [
  decision('d1', 1, { chainId: 'k1', waitSeconds: 2, context: { ...decision('x', 1).context, turnId: 't5' } }),
  decision('d2', 2, { chainId: 'k1', waitSeconds: 4, context: { ...decision('x', 1).context, turnId: 't6' } }),
  decision('d3', 3, {
    chainId: 'k1',
    category: 'rate_limit',
    waitSeconds: 60,
    context: { ...decision('x', 1).context, turnId: 't7' },
  }),
  // A decision about a turn the person saw: not theirs to be told again.
  decision('d0', 1, { chainId: 'k0', waitSeconds: 30, context: { ...decision('x', 1).context, turnId: 't2' } }),
];

const input = (more: Partial<AwayInput> = {}): AwayInput => ({
  range: { sessionId: SESSION_ID, fromSeq: 2, toSeq: 8 },
  turns,
  chains: { k1: { outcome: 'recovered', attempts: 3, finalError: null } },
  decisions,
  fileChanges: {
    sessionId: SESSION_ID,
    changes: [change('t2', 'seen.txt'), change('t4', 'a.txt'), change('t4', 'b.txt', { state: 'undone' })],
    notRecorded: [],
    undos: [],
  },
  activity: null,
  approvalsWaiting: 0,
  ...more,
});

describe('buildAwaySummary', () => {
  it('counts only what came after the mark', () => {
    const summary = buildAwaySummary(input());
    expect(summary.failures).toEqual([
      { category: 'server_error', attempts: 2, waitMs: 6000 },
      { category: 'rate_limit', attempts: 1, waitMs: 60_000 },
    ]);
    expect([summary.recovered, summary.failed]).toEqual([1, 0]);
    expect(summary.approvals).toEqual({ count: 1, waitedMs: 90_000, longestMs: 90_000, denied: 0 });
    expect([summary.replies, summary.toolCalls]).toEqual([2, 1]);
  });

  it('tells a chain the range met whole: the person saw its first failure, then left while it retried', () => {
    const summary = buildAwaySummary(input({ range: { sessionId: SESSION_ID, fromSeq: 5, toSeq: 8 } }));
    expect(summary.failures).toEqual([
      { category: 'server_error', attempts: 2, waitMs: 6000 },
      { category: 'rate_limit', attempts: 1, waitMs: 60_000 },
    ]);
    expect(summary.recovered).toBe(1);
    expect(summary.approvals.count).toBe(0);
  });

  it('adds up every attempt’s cost, failed ones too, and counts attempts without a price', () => {
    const summary = buildAwaySummary(input());
    expect(summary.cost.usd).toBeCloseTo(0.08);
    expect(summary.cost.tokens).toBe(480);
    const unpriced = buildAwaySummary(input({ turns: turns.map((t) => ({ ...t, costUsd: null })) }));
    expect(unpriced.cost).toEqual({ usd: null, tokens: 480, unpriced: 4 });
  });

  it('names the files the range changed and the runs Undo takes back', () => {
    expect(buildAwaySummary(input()).files).toEqual({ count: 2, added: 6, removed: 2, applied: 1, runs: ['t1'] });
    expect(buildAwaySummary(input({ fileChanges: null })).files.count).toBe(0);
  });

  it('says what is still scheduled, and approvals waiting and denied', () => {
    const summary = buildAwaySummary(
      input({
        activity: { sessionId: SESSION_ID, title: 'x', state: 'scheduled', until: 5000 },
        approvalsWaiting: 2,
        turns: [...turns, turn(9, result('c2', { approval: { choice: 'deny', waitedMs: 10_000 } }, 9))],
        range: { sessionId: SESSION_ID, fromSeq: 2, toSeq: 9 },
      }),
    );
    expect(summary.scheduled).toEqual({ state: 'scheduled', until: 5000 });
    expect(summary.approvalsWaiting).toBe(2);
    expect(summary.approvals).toEqual({ count: 2, waitedMs: 100_000, longestMs: 90_000, denied: 1 });
    const streaming = buildAwaySummary(input({ activity: { sessionId: SESSION_ID, title: 'x', state: 'streaming' } }));
    expect(streaming.scheduled).toBeNull();
  });

  it('counts a chain that ended without recovering', () => {
    const summary = buildAwaySummary(input({ chains: { k1: { outcome: 'exhausted', attempts: 3, finalError: 'x' } } }));
    expect([summary.recovered, summary.failed]).toEqual([0, 1]);
  });
});

describe('isWorthTelling', () => {
  it('tells a run with failures, approvals, files or a wait, not one plain reply', () => {
    expect(isWorthTelling(buildAwaySummary(input()))).toBe(true);
    const plain = input({
      turns: [...turns, turn(9, assistantMessage('hi', 9))],
      range: { sessionId: SESSION_ID, fromSeq: 8, toSeq: 9 },
    });
    expect(isWorthTelling(buildAwaySummary(plain))).toBe(false);
    const scheduled = { ...plain, activity: { sessionId: SESSION_ID, title: 'x', state: 'retrying' as const } };
    expect(isWorthTelling(buildAwaySummary(scheduled))).toBe(true);
  });
});

describe('withAwaySummary', () => {
  const items = buildChatItems({ turns, chains: {}, decisions: [] });
  const summary = buildAwaySummary(input());
  const kinds = (list: typeof items) => list.map((i) => (i.kind === 'tool-call' ? `tool:${i.toolCallId}` : i.kind));

  it('puts the card before the first row of a turn the person did not see', () => {
    const placed = withAwaySummary(items, turns, input().range, summary);
    expect(kinds(placed).slice(0, 4)).toEqual(['message', 'tool:seen', 'away-summary', 'tool:c1']);
  });

  it('puts it at the end when no row of the range is shown', () => {
    const placed = withAwaySummary(items, turns, { sessionId: SESSION_ID, fromSeq: 99, toSeq: 99 }, summary);
    expect(placed.at(-1)?.kind).toBe('away-summary');
  });
});
